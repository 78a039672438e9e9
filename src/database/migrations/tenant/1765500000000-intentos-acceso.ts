import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sign-in lockout's counts, when no Redis holds them (docs/sign-in.md, "Lockout"): one row
 * per key of the tenant (an account, a client address, an `id_usuario`) with the attempts
 * counted in its window and the window's end. An attempt is reserved before its secret is
 * hashed (one `INSERT ... ON CONFLICT DO UPDATE ... WHERE intentos < 5`), so parallel guesses
 * cannot all pass a check made before any of them failed; a failure keeps its reservation, a
 * success gives it back or forgets the key. In the tenant's database, so every instance of the
 * service counts in the same row and a restart forgets nothing. Rows whose window ended are
 * deleted by the reservations that follow.
 */
export class IntentosAcceso1765500000000 implements MigrationInterface {
  name = 'IntentosAcceso1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE intentos_acceso (
        clave     text NOT NULL,
        intentos  integer NOT NULL,
        hasta     timestamptz NOT NULL,
        CONSTRAINT pk_intentos_acceso PRIMARY KEY (clave),
        CONSTRAINT ck_intentos_acceso_intentos CHECK (intentos >= 0)
      )`);
    await queryRunner.query('CREATE INDEX ix_intentos_acceso_hasta ON intentos_acceso (hasta)');
    await queryRunner.query(`
      COMMENT ON TABLE intentos_acceso IS
        'Sign-in attempts counted per key in a 15-minute window, reserved before hashing (docs/sign-in.md)'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE intentos_acceso');
  }
}
