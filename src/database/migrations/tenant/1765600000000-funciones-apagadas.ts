import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The session setting that says a feature is off for the tenant (features.ts, `inDatabase`). */
const ON = (feature: string) =>
  `current_setting('comandas.${feature}', true) IS DISTINCT FROM 'off'`;

/**
 * A tenant that has the reports or the webhooks off pays nothing for their triggers: each one
 * gets a WHEN clause reading the session setting `comandas.<feature>`, which the service's
 * connections to a tenant carry as `off` while the feature is off for it (any other session, a
 * psql or a store function called from elsewhere, keeps them running). Measured before: with
 * both off, every change of a comanda still ran `reportes_marcar` (55 µs, and a row in
 * `reportes_cambios` that nothing ever took) and `webhooks_comanda_eventos` (35 µs).
 *
 * The reports' model must then know that it missed changes: `reportes_estado.al_dia` turns false
 * when a DataSource opens with the feature off (`reportes_seguimiento(false)`), and the first
 * DataSource opened with it on again marks every sale to be computed again
 * (`reportes_seguimiento(true)`), so that the next report is whole.
 */
export class FuncionesApagadas1765600000000 implements MigrationInterface {
  name = 'FuncionesApagadas1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(triggers(true));
    await queryRunner.query(`
      ALTER TABLE reportes_estado ADD COLUMN al_dia boolean NOT NULL DEFAULT true;
      COMMENT ON COLUMN reportes_estado.al_dia IS
        'False once a connection wrote with the feature reportes off: its changes were not marked';
      ${SEGUIMIENTO}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(triggers(false));
    await queryRunner.query(`
      DROP FUNCTION reportes_seguimiento(boolean);
      ALTER TABLE reportes_estado DROP COLUMN al_dia`);
  }
}

const SEGUIMIENTO = `
  CREATE FUNCTION reportes_seguimiento(p_activo boolean) RETURNS void
  LANGUAGE plpgsql AS $fn$
    BEGIN
      IF NOT p_activo THEN
        UPDATE reportes_estado SET al_dia = false WHERE al_dia;
      ELSIF NOT (SELECT al_dia FROM reportes_estado) THEN
        -- changes went unmarked while the feature was off: every sale is computed again
        INSERT INTO reportes_cambios (id_comanda)
          SELECT id_comanda FROM comandas WHERE estado = 'cerrada'
          UNION
          SELECT id_comanda FROM reporte_ventas;
        UPDATE reportes_estado SET al_dia = true;
      END IF;
    END;
  $fn$;
  COMMENT ON FUNCTION reportes_seguimiento(boolean) IS
    'Told whether the feature reportes is on when a DataSource opens: records or repairs the changes it did not mark'`;

/** The triggers of 1765300000000 and 1765400000000, with (up) or without (down) the switch. */
function triggers(switched: boolean): string {
  const and = (feature: string, when?: string) => {
    const parts = [...(when ? [when] : []), ...(switched ? [ON(feature)] : [])];
    return parts.length > 0 ? `WHEN (${parts.join(' AND ')})` : '';
  };
  return `
  DROP TRIGGER tg_reportes_comandas_insert ON comandas;
  CREATE TRIGGER tg_reportes_comandas_insert AFTER INSERT ON comandas
    FOR EACH ROW ${and('reportes', "NEW.estado = 'cerrada'")} EXECUTE FUNCTION reportes_marcar();
  DROP TRIGGER tg_reportes_comandas_update ON comandas;
  CREATE TRIGGER tg_reportes_comandas_update AFTER UPDATE ON comandas
    FOR EACH ROW ${and('reportes', "(OLD.estado = 'cerrada' OR NEW.estado = 'cerrada')")}
    EXECUTE FUNCTION reportes_marcar();
  DROP TRIGGER tg_reportes_comandas_delete ON comandas;
  CREATE TRIGGER tg_reportes_comandas_delete AFTER DELETE ON comandas
    FOR EACH ROW ${and('reportes', "OLD.estado = 'cerrada'")} EXECUTE FUNCTION reportes_marcar();
  DROP TRIGGER tg_reportes_cuentas ON cuentas_comanda;
  CREATE TRIGGER tg_reportes_cuentas AFTER INSERT OR UPDATE OR DELETE ON cuentas_comanda
    FOR EACH ROW ${and('reportes')} EXECUTE FUNCTION reportes_marcar();
  DROP TRIGGER tg_reportes_pagos ON pagos;
  CREATE TRIGGER tg_reportes_pagos AFTER INSERT OR UPDATE OR DELETE ON pagos
    FOR EACH ROW ${and('reportes')} EXECUTE FUNCTION reportes_marcar();
  DROP TRIGGER tg_reportes_productos ON productos;
  CREATE TRIGGER tg_reportes_productos AFTER UPDATE OF id_categoria ON productos
    FOR EACH ROW ${and('reportes', 'OLD.id_categoria IS DISTINCT FROM NEW.id_categoria')}
    EXECUTE FUNCTION reportes_marcar_categoria();
  DROP TRIGGER tg_reportes_tasas ON tasas_igv;
  CREATE TRIGGER tg_reportes_tasas AFTER INSERT OR UPDATE OR DELETE ON tasas_igv
    FOR EACH STATEMENT ${and('reportes')} EXECUTE FUNCTION reportes_marcar_tasas();
  DROP TRIGGER tr_comanda_eventos_webhooks ON comanda_eventos;
  CREATE TRIGGER tr_comanda_eventos_webhooks AFTER INSERT ON comanda_eventos
    FOR EACH ROW ${and('webhooks')} EXECUTE FUNCTION webhooks_comanda_eventos();
  DROP TRIGGER tr_caja_eventos_webhooks ON caja_eventos;
  CREATE TRIGGER tr_caja_eventos_webhooks AFTER INSERT ON caja_eventos
    FOR EACH ROW ${and('webhooks')} EXECUTE FUNCTION webhooks_caja_eventos();
  DROP TRIGGER tr_mermas_webhooks ON mermas;
  CREATE TRIGGER tr_mermas_webhooks AFTER INSERT ON mermas
    FOR EACH ROW ${and('webhooks')} EXECUTE FUNCTION webhooks_mermas();
  DROP TRIGGER tr_conteos_webhooks ON conteos;
  CREATE TRIGGER tr_conteos_webhooks AFTER INSERT OR UPDATE OF estado ON conteos
    FOR EACH ROW ${and('webhooks')} EXECUTE FUNCTION webhooks_conteos();`;
}
