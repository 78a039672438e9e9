import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A deactivated user's sessions end for good (docs/sign-in.md, "Revocation"): setting
 * `usuarios.activo` to false revokes every open sign-in session of the user and records the
 * moment in `usuarios.tokens_desde`, before which no token of theirs is taken again (tokens
 * without a session, from `npm run token` or an identity provider, included). So reactivating
 * a former employee does not revive the tokens they held; they sign in again. In the database,
 * whatever path deactivates the user (SQL, the command line, a route).
 */
export class FinDeSesiones1765500000400 implements MigrationInterface {
  name = 'FinDeSesiones1765500000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE usuarios ADD COLUMN tokens_desde timestamptz NULL`);
    await queryRunner.query(`
      COMMENT ON COLUMN usuarios.tokens_desde IS
        'Tokens issued before this instant are refused: set when the user is deactivated'`);
    await queryRunner.query(`
      CREATE FUNCTION usuarios_fin_de_sesiones() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        -- a deactivation ends every session: reactivating the user revives none of them
        NEW.tokens_desde := clock_timestamp();
        UPDATE sesiones_usuario
           SET revocada = NEW.tokens_desde
         WHERE id_usuario = NEW.id_usuario AND revocada IS NULL AND expira > now();
        RETURN NEW;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER tg_usuarios_fin_de_sesiones
        BEFORE UPDATE OF activo ON usuarios
        FOR EACH ROW WHEN (OLD.activo AND NOT NEW.activo)
        EXECUTE FUNCTION usuarios_fin_de_sesiones()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER tg_usuarios_fin_de_sesiones ON usuarios');
    await queryRunner.query('DROP FUNCTION usuarios_fin_de_sesiones()');
    await queryRunner.query('ALTER TABLE usuarios DROP COLUMN tokens_desde');
  }
}
