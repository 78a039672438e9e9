import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Every action the audit trail of comandas took until this migration, by the module it is of. */
const ACCIONES: [accion: string, modulo: string][] = [
  ['crear', 'comandas'],
  ['abrir', 'comandas'],
  ['cerrar', 'comandas'],
  ['editar', 'comandas'],
  ['eliminar', 'comandas'],
  ['restaurar', 'comandas'],
  ['agregar_item', 'comandas'],
  ['modificar_item', 'comandas'],
  ['quitar_item', 'comandas'],
  ['dividir', 'comandas'],
  ['unir', 'comandas'],
  ['transferir', 'comandas'],
  ['pagar', 'cobros'],
  ['anular_pago', 'cobros'],
  ['reembolsar', 'cobros'],
  ['descontar', 'cobros'],
  ['enviar', 'cocina'],
  ['disparar', 'cocina'],
  ['preparar', 'cocina'],
  ['listo', 'cocina'],
  ['recuperar', 'cocina'],
  ['entregar', 'cocina'],
];

const VALUES = ACCIONES.map(([accion, modulo]) => `('${accion}', '${modulo}')`).join(',\n    ');
const NAMES = ACCIONES.map(([accion]) => `'${accion}'`).join(', ');

/**
 * The actions a comanda's audit entry may name become rows of a table of their own instead of
 * a CHECK that every module adding actions rewrote (the comandas', then cobros', then cocina's
 * migrations each dropped and re-created ck_comanda_eventos_accion with the whole list). Each
 * row names the module whose actions it is; `comanda_eventos.accion` references the table. A
 * module that adds actions to the comandas inserts its own rows in its own migration, and
 * deletes them in its `down`, touching no constraint of the comandas.
 */
export class AccionesComanda1765500000500 implements MigrationInterface {
  name = 'AccionesComanda1765500000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
  CREATE TABLE acciones_comanda (
    accion text NOT NULL,
    modulo text NOT NULL,
    CONSTRAINT pk_acciones_comanda PRIMARY KEY (accion),
    CONSTRAINT ck_acciones_comanda_accion CHECK (accion ~ '^[a-z][a-z_]*$')
  );
  COMMENT ON TABLE acciones_comanda IS 'The actions comanda_eventos.accion may name: one row each, inserted by the migration of the module it is of';
  COMMENT ON COLUMN acciones_comanda.modulo IS 'The module whose action it is (comandas, cobros, cocina ...)';
  INSERT INTO acciones_comanda (accion, modulo) VALUES
    ${VALUES};
  ALTER TABLE comanda_eventos DROP CONSTRAINT ck_comanda_eventos_accion;
  ALTER TABLE comanda_eventos ADD CONSTRAINT fk_comanda_eventos_accion
    FOREIGN KEY (accion) REFERENCES acciones_comanda (accion)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
  ALTER TABLE comanda_eventos DROP CONSTRAINT fk_comanda_eventos_accion;
  ALTER TABLE comanda_eventos ADD CONSTRAINT ck_comanda_eventos_accion CHECK (accion IN (${NAMES}));
  DROP TABLE acciones_comanda`);
  }
}
