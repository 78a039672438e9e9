-- A waste entry becomes an outbox message (docs/webhooks.md, "Events").
CREATE OR REPLACE FUNCTION webhooks_mermas() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE activo) THEN
    RETURN NULL;
  END IF;
  PERFORM webhooks_encolar('inventario.merma', clock_timestamp(),
    jsonb_build_object('id_merma', NEW.id_merma, 'id_mat_prima', NEW.id_mat_prima,
                       'cantidad', NEW.cantidad),
    'mat_prima:' || NEW.id_mat_prima);
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS tr_mermas_webhooks ON mermas;
CREATE TRIGGER tr_mermas_webhooks
  AFTER INSERT ON mermas
  FOR EACH ROW WHEN (current_setting('comandas.webhooks', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION webhooks_mermas();
