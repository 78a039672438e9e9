-- A till session's audit entry becomes an outbox message (docs/webhooks.md, "Events").
CREATE OR REPLACE FUNCTION webhooks_caja_eventos() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_data jsonb;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE activo) THEN
    RETURN NULL;
  END IF;
  SELECT coalesce((SELECT jsonb_object_agg(key, value) FROM jsonb_each(NEW.detalle)
                    WHERE key LIKE 'id\_%' AND jsonb_typeof(value) IN ('number', 'string')),
                  '{}'::jsonb)
         || jsonb_build_object('id_sesion', s.id_sesion, 'id_caja', s.id_caja,
                               'id_evento', NEW.id_evento, 'estado', s.estado,
                               'numero_z', s.numero_z)
    INTO v_data
    FROM sesiones_caja s WHERE s.id_sesion = NEW.id_sesion;
  PERFORM webhooks_encolar('sesion_caja.' || NEW.accion, NEW.fec_evento, v_data,
                           'sesion_caja:' || NEW.id_sesion);
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS tr_caja_eventos_webhooks ON caja_eventos;
CREATE TRIGGER tr_caja_eventos_webhooks
  AFTER INSERT ON caja_eventos
  FOR EACH ROW WHEN (current_setting('comandas.webhooks', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION webhooks_caja_eventos();
