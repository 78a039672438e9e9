import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Staff sign-in (docs/sign-in.md): the credentials of each staff member, the tenant's PIN salt
 * and the revoked sessions. None of these tables is on the generic routes' allow-list.
 *
 * - `credenciales`: one row per staff member with a password and/or a PIN, each stored only as
 *   a scrypt hash (`scrypt$<ln>$<r>$<p>$<salt>$<hash>`). A password has its own random salt; a
 *   PIN is hashed with the tenant's salt, so that the PIN pad finds its owner with one hash and
 *   two staff members cannot share a PIN (unique index).
 * - `credenciales_ajustes`: the tenant's PIN salt: 32 bytes made of two random UUIDs
 *   (gen_random_uuid, 244 random bits), drawn when the table is made.
 * - `sesiones_usuario`: one row per token issued by sign-in (its `jti`), until it expires;
 *   `revocada` set by a sign-out or a change of the user's credentials: the deny-list.
 */
export class Credenciales1764800000000 implements MigrationInterface {
  name = 'Credenciales1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE credenciales (
        id_usuario     integer NOT NULL,
        password_hash  text NULL,
        pin_hash       text NULL,
        actualizado    timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_credenciales PRIMARY KEY (id_usuario),
        CONSTRAINT fk_credenciales_id_usuario FOREIGN KEY (id_usuario)
          REFERENCES usuarios (id_usuario) ON DELETE CASCADE,
        CONSTRAINT ck_credenciales_password_hash CHECK (password_hash IS NULL OR password_hash LIKE 'scrypt$%'),
        CONSTRAINT ck_credenciales_pin_hash CHECK (pin_hash IS NULL OR pin_hash LIKE 'scrypt$%')
      )`);
    await queryRunner.query(
      'CREATE UNIQUE INDEX uq_credenciales_pin_hash ON credenciales (pin_hash) WHERE pin_hash IS NOT NULL',
    );
    await queryRunner.query(`
      COMMENT ON TABLE credenciales IS 'Sign-in secrets of staff, as scrypt hashes only (docs/sign-in.md)'`);
    await queryRunner.query(`
      CREATE TABLE credenciales_ajustes (
        id      smallint NOT NULL DEFAULT 1,
        sal_pin bytea NOT NULL,
        CONSTRAINT pk_credenciales_ajustes PRIMARY KEY (id),
        CONSTRAINT ck_credenciales_ajustes_una CHECK (id = 1),
        CONSTRAINT ck_credenciales_ajustes_sal_pin CHECK (octet_length(sal_pin) >= 16)
      )`);
    await queryRunner.query(`
      INSERT INTO credenciales_ajustes (id, sal_pin)
      VALUES (1, decode(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'))`);
    await queryRunner.query(`
      CREATE TABLE sesiones_usuario (
        jti        uuid NOT NULL,
        id_usuario integer NOT NULL,
        metodo     text NOT NULL,
        emitida    timestamptz NOT NULL DEFAULT now(),
        expira     timestamptz NOT NULL,
        revocada   timestamptz NULL,
        CONSTRAINT pk_sesiones_usuario PRIMARY KEY (jti),
        CONSTRAINT fk_sesiones_usuario_id_usuario FOREIGN KEY (id_usuario)
          REFERENCES usuarios (id_usuario) ON DELETE CASCADE,
        CONSTRAINT ck_sesiones_usuario_metodo CHECK (metodo IN ('password', 'pin')),
        CONSTRAINT ck_sesiones_usuario_expira CHECK (expira > emitida)
      )`);
    await queryRunner.query(
      'CREATE INDEX ix_sesiones_usuario_id_usuario_expira ON sesiones_usuario (id_usuario, expira)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sesiones_usuario');
    await queryRunner.query('DROP TABLE credenciales_ajustes');
    await queryRunner.query('DROP TABLE credenciales');
  }
}
