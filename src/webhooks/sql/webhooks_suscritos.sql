-- Who is subscribed to an event type (docs/webhooks.md): the endpoint's eventos names it or its
-- module's wildcard. A SQL function the planner inlines into the statements that use it.
CREATE OR REPLACE FUNCTION webhooks_suscritos(p_tipo text) RETURNS TABLE (id_webhook integer)
LANGUAGE sql STABLE AS $$
  SELECT w.id_webhook FROM webhooks w
   WHERE w.activo
     AND (p_tipo = ANY (w.eventos) OR split_part(p_tipo, '.', 1) || '.*' = ANY (w.eventos))
$$;

COMMENT ON FUNCTION webhooks_suscritos(text) IS
  'The active endpoints subscribed to an event type, by name or by its module''s wildcard';
