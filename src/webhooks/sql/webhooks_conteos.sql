-- A stock count's creation and application become outbox messages (docs/webhooks.md, "Events").
CREATE OR REPLACE FUNCTION webhooks_conteos() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_accion text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE activo) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    v_accion := 'conteo_crear';
  ELSIF NEW.estado IS DISTINCT FROM OLD.estado THEN
    v_accion := CASE NEW.estado WHEN 'aplicado' THEN 'conteo_aplicar' ELSE 'conteo_descartar' END;
  ELSE
    RETURN NULL;
  END IF;
  PERFORM webhooks_encolar('inventario.' || v_accion, clock_timestamp(),
    jsonb_build_object('id_conteo', NEW.id_conteo, 'estado', NEW.estado,
                       'fec_corte', NEW.fec_corte),
    'conteo:' || NEW.id_conteo);
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS tr_conteos_webhooks ON conteos;
CREATE TRIGGER tr_conteos_webhooks
  AFTER INSERT OR UPDATE OF estado ON conteos
  FOR EACH ROW WHEN (current_setting('comandas.webhooks', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION webhooks_conteos();
