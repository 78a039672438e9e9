-- Live updates (docs/comandas.md): every audit entry of a comanda notifies the channel
-- comanda_eventos with its id, delivered when its transaction commits, in commit order, to every
-- session listening on the tenant database. The payload is the id alone (a NOTIFY payload is
-- limited to 8,000 bytes): the listener reads the entry and the comanda.
CREATE OR REPLACE FUNCTION comanda_eventos_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('comanda_eventos', NEW.id_evento::text);
  RETURN NULL;
END
$$;

COMMENT ON FUNCTION comanda_eventos_notify() IS 'Notifies comanda_eventos with the new entry id (delivered on commit)';

DROP TRIGGER IF EXISTS tr_comanda_eventos_notify ON comanda_eventos;
CREATE TRIGGER tr_comanda_eventos_notify
  AFTER INSERT ON comanda_eventos
  FOR EACH ROW EXECUTE FUNCTION comanda_eventos_notify();
