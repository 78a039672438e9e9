-- A deactivated user's sessions end for good (docs/sign-in.md, "Revocation"): setting
-- usuarios.activo to false revokes every open session and records the moment in
-- usuarios.tokens_desde, before which no token of theirs is taken again. Whatever path
-- deactivates the user (SQL, the command line, a route).
CREATE OR REPLACE FUNCTION usuarios_fin_de_sesiones() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- a deactivation ends every session: reactivating the user revives none of them
  NEW.tokens_desde := clock_timestamp();
  UPDATE sesiones_usuario
     SET revocada = NEW.tokens_desde
   WHERE id_usuario = NEW.id_usuario AND revocada IS NULL AND expira > now();
  RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS tg_usuarios_fin_de_sesiones ON usuarios;
CREATE TRIGGER tg_usuarios_fin_de_sesiones
  BEFORE UPDATE OF activo ON usuarios
  FOR EACH ROW WHEN (OLD.activo AND NOT NEW.activo)
  EXECUTE FUNCTION usuarios_fin_de_sesiones();
