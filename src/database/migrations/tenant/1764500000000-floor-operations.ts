import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Floor operations (docs/comandas.md, "Idempotent writes" and "Split, merge, transfer"):
 *
 * - `idempotencia`: the answers of writes sent with an `Idempotency-Key`, stored in the same
 *   transaction as their effect, so a retry gets the first answer and never a second effect.
 *   Keyed by the key and the user (0 without authentication): two users' keys never meet. The
 *   tenant is the database itself. `huella` is the request's fingerprint (SHA-256 of method,
 *   route, ids, query and body): the same key with another request is refused.
 * - the audit trail gains `dividir` (split), `unir` (merge) and `transferir` (a table change);
 *   it is read in id order (entries of one comanda are written under its row lock, so ids follow
 *   its versions), and `fec_evento` becomes the time the entry was written: `now()` is the
 *   start of the transaction, which may have waited for the lock behind a later change.
 */
export class FloorOperations1764500000000 implements MigrationInterface {
  name = 'FloorOperations1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotencia (
        clave        text NOT NULL,
        id_usuario   integer NOT NULL DEFAULT 0,
        huella       text NOT NULL,
        metodo       text NOT NULL,
        ruta         text NOT NULL,
        estado_http  smallint NOT NULL,
        cuerpo       json NULL,
        etag         text NULL,
        location     text NULL,
        fec_registro timestamptz NOT NULL DEFAULT now(),
        fec_expira   timestamptz NOT NULL,
        CONSTRAINT pk_idempotencia PRIMARY KEY (clave, id_usuario),
        CONSTRAINT ck_idempotencia_clave CHECK (clave ~ '^[!-~]{1,255}$'),
        CONSTRAINT ck_idempotencia_estado_http CHECK (estado_http BETWEEN 200 AND 499),
        CONSTRAINT ck_idempotencia_expira CHECK (fec_expira > fec_registro)
      )`);
    await queryRunner.query(`
      -- The purge of expired keys.
      CREATE INDEX ix_idempotencia_fec_expira ON idempotencia (fec_expira);
      COMMENT ON TABLE idempotencia IS 'Answers of writes sent with an Idempotency-Key, kept IDEMPOTENCY_TTL_HOURS';
      COMMENT ON COLUMN idempotencia.id_usuario IS 'The token user (AUTH_MODE=jwt), 0 without authentication';
      COMMENT ON COLUMN idempotencia.huella IS 'SHA-256 of method, route, ids, query and body';
      COMMENT ON COLUMN idempotencia.cuerpo IS 'The answer body as sent (json keeps its text and key order)'`);
    await queryRunner.query(`
      ALTER TABLE comanda_eventos DROP CONSTRAINT ck_comanda_eventos_accion;
      ALTER TABLE comanda_eventos ADD CONSTRAINT ck_comanda_eventos_accion CHECK (accion IN (
        'crear', 'abrir', 'cerrar', 'editar', 'eliminar', 'restaurar',
        'agregar_item', 'modificar_item', 'quitar_item',
        'dividir', 'unir', 'transferir'
      ));
      ALTER TABLE comanda_eventos ALTER COLUMN fec_evento SET DEFAULT clock_timestamp();
      DROP INDEX ix_comanda_eventos_id_comanda;
      -- History of one ticket in the order of its changes.
      CREATE INDEX ix_comanda_eventos_id_comanda ON comanda_eventos (id_comanda, id_evento)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DELETE FROM comanda_eventos WHERE accion IN ('dividir', 'unir', 'transferir');
      DROP INDEX ix_comanda_eventos_id_comanda;
      CREATE INDEX ix_comanda_eventos_id_comanda ON comanda_eventos (id_comanda, fec_evento);
      ALTER TABLE comanda_eventos ALTER COLUMN fec_evento SET DEFAULT now();
      ALTER TABLE comanda_eventos DROP CONSTRAINT ck_comanda_eventos_accion;
      ALTER TABLE comanda_eventos ADD CONSTRAINT ck_comanda_eventos_accion CHECK (accion IN (
        'crear', 'abrir', 'cerrar', 'editar', 'eliminar', 'restaurar',
        'agregar_item', 'modificar_item', 'quitar_item'
      ));
      DROP TABLE idempotencia`);
  }
}
