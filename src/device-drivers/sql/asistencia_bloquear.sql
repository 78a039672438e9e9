CREATE OR REPLACE FUNCTION asistencia_bloquear(p_id_usuario integer)
RETURNS void
LANGUAGE sql
AS $fn$
  -- Serialises the changes to one person's attendance until the end of the transaction:
  -- two imports (or an import and an edit) of the same person rebuild the derived rows one
  -- after the other instead of colliding on them. Callers lock people in id order.
  SELECT pg_advisory_xact_lock(hashtext('comandas:asistencia'), p_id_usuario);
$fn$;

COMMENT ON FUNCTION asistencia_bloquear(integer) IS
  'Transaction-level advisory lock on one person''s attendance';
