-- A comanda's audit entry becomes an outbox message (docs/webhooks.md, "Events"): pago.* for
-- the money's actions, cocina.* for the kitchen's, comanda.* for the others.
CREATE OR REPLACE FUNCTION webhooks_comanda_eventos() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_tipo text := CASE
    WHEN NEW.accion IN ('pagar', 'anular_pago', 'reembolsar', 'descontar') THEN 'pago.'
    WHEN NEW.accion IN ('enviar', 'disparar', 'preparar', 'listo', 'recuperar', 'entregar') THEN 'cocina.'
    ELSE 'comanda.' END || NEW.accion;
BEGIN
  -- every change of every tenant's comandas runs this: without an active endpoint (the feature
  -- unused) it costs this one lookup, not the INSERT's start-up
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE activo) THEN
    RETURN NULL;
  END IF;
  -- webhooks_encolar's statement with the body built inside it: the comanda is read only for a
  -- subscribed endpoint
  INSERT INTO webhook_mensajes (id_webhook, tipo, clave, cuerpo)
  SELECT s.id_webhook, v_tipo, 'comanda:' || NEW.id_comanda,
         json_build_object(
           'type', v_tipo,
           'timestamp', to_char(NEW.fec_evento AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
           'data',
           coalesce((SELECT jsonb_object_agg(key, value) FROM jsonb_each(NEW.despues)
                      WHERE key LIKE 'id\_%' AND jsonb_typeof(value) IN ('number', 'string')),
                    '{}'::jsonb)
                   || jsonb_build_object('id_comanda', c.id_comanda, 'id_evento', NEW.id_evento,
                                         'numero_ticket', c.numero_ticket, 'id_mesa', c.id_mesa,
                                         'version', c.version, 'estado', c.estado,
                                         'eliminada', c.eliminada, 'total', c.total))::text
    FROM webhooks_suscritos(v_tipo) s JOIN comandas c ON c.id_comanda = NEW.id_comanda;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS tr_comanda_eventos_webhooks ON comanda_eventos;
CREATE TRIGGER tr_comanda_eventos_webhooks
  AFTER INSERT ON comanda_eventos
  FOR EACH ROW WHEN (current_setting('comandas.webhooks', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION webhooks_comanda_eventos();
