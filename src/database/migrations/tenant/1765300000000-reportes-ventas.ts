import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sales report's read model (docs/reportes.md, "How the figures are kept"): each closed, not
 * voided comanda's figures, computed once instead of on every report.
 *
 * - `reporte_ventas`: one row per closed, not voided comanda: its close, table, waiter, total,
 *   discount, net sale (without IGV) and theoretical cost.
 * - `reporte_ventas_productos`: one row per product of such a comanda: units, sales, its shares
 *   of the comanda's discount and net sale, its lines' cost, the product's category and whether
 *   it is the first row of that category in the comanda (so that a category counts a comanda
 *   once without a DISTINCT over its lines).
 * - `reporte_ventas_metodos`: one row per payment method of such a comanda: what its applied
 *   payments paid and their tips, and their shares of the discount, net sale and cost.
 *
 * Every change that moves those figures appends the comanda's id to `reportes_cambios`, in the
 * change's own transaction (triggers on comandas, accounts, payments, a product's category and
 * the IGV rates). The consumptions (the cost) need none of their own: inventario writes and
 * reverts them only inside a change of their comanda (a close, a reopen, a restore, a void, a
 * line added to a closed comanda), which its comandas trigger logs. A report first runs
 * `reportes_refrescar`, which takes the ids committed so far and computes their rows again
 * from the comandas as they are. The log is append-only for the writers: they never wait for
 * a report, nor a report for them.
 */
export class ReportesVentas1765300000000 implements MigrationInterface {
  name = 'ReportesVentas1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(TABLES);
    await queryRunner.query(TRIGGERS);
    await queryRunner.query(REFRESCAR);
    // the comandas already closed are computed now, not by the first report (about 6 s per
    // 100,000: a tenant with years of sales would wait that long for it), in UTC's days: the
    // first report in the tenant's zone computes again only those whose rate may differ there
    await queryRunner.query(`
      INSERT INTO reportes_cambios (id_comanda)
        SELECT id_comanda FROM comandas WHERE estado = 'cerrada' AND NOT eliminada;
      SELECT reportes_refrescar('UTC')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TRIGGER tg_reportes_comandas_insert ON comandas;
      DROP TRIGGER tg_reportes_comandas_update ON comandas;
      DROP TRIGGER tg_reportes_comandas_delete ON comandas;
      DROP TRIGGER tg_reportes_cuentas ON cuentas_comanda;
      DROP TRIGGER tg_reportes_pagos ON pagos;
      DROP TRIGGER tg_reportes_productos ON productos;
      DROP TRIGGER tg_reportes_tasas ON tasas_igv;
      DROP FUNCTION reportes_refrescar(text);
      DROP FUNCTION reportes_marcar();
      DROP FUNCTION reportes_marcar_categoria();
      DROP FUNCTION reportes_marcar_tasas();
      DROP TABLE reporte_ventas_metodos, reporte_ventas_productos, reporte_ventas,
                 reportes_cambios, reportes_estado`);
  }
}

const TABLES = `
  CREATE TABLE reporte_ventas (
    id_comanda      bigint NOT NULL,
    fec_cierre      timestamptz NOT NULL,
    id_mesa         integer NULL,
    id_usuario      integer NULL,
    total           numeric NOT NULL,
    descuento       numeric NOT NULL,
    neta            numeric NOT NULL,
    costo           numeric NOT NULL,
    tasa_congelada  boolean NOT NULL,
    CONSTRAINT pk_reporte_ventas PRIMARY KEY (id_comanda)
  );
  CREATE INDEX ix_reporte_ventas_fec_cierre ON reporte_ventas (fec_cierre);
  COMMENT ON TABLE reporte_ventas IS
    'The sales report''s figures of each closed, not voided comanda (kept by reportes_refrescar)';
  COMMENT ON COLUMN reporte_ventas.neta IS
    'round((total - descuento) / (1 + IGV rate), 2): the rate frozen at the close, else the one in force on its local day';
  COMMENT ON COLUMN reporte_ventas.costo IS 'Theoretical cost of its live consumptions (0: none)';

  CREATE TABLE reporte_ventas_productos (
    id_comanda         bigint NOT NULL,
    id_producto        integer NOT NULL,
    fec_cierre         timestamptz NOT NULL,
    id_categoria       integer NULL,
    primero_categoria  boolean NOT NULL,
    unidades           numeric NOT NULL,
    venta_bruta        numeric NOT NULL,
    descuento          numeric NOT NULL,
    neta               numeric NOT NULL,
    costo              numeric NOT NULL,
    CONSTRAINT pk_reporte_ventas_productos PRIMARY KEY (id_comanda, id_producto)
  );
  CREATE INDEX ix_reporte_ventas_productos_fec_cierre ON reporte_ventas_productos (fec_cierre);
  COMMENT ON TABLE reporte_ventas_productos IS
    'Per product of each reporte_ventas comanda: its lines'' sums and shares of the comanda''s discount and net sale';
  COMMENT ON COLUMN reporte_ventas_productos.primero_categoria IS
    'True on exactly one row per (comanda, category): a category counts the comanda once';

  CREATE TABLE reporte_ventas_metodos (
    id_comanda      bigint NOT NULL,
    id_metodo_pago  integer NOT NULL,
    fec_cierre      timestamptz NOT NULL,
    monto           numeric NOT NULL,
    propina         numeric NOT NULL,
    descuento       numeric NOT NULL,
    neta            numeric NOT NULL,
    costo           numeric NOT NULL,
    CONSTRAINT pk_reporte_ventas_metodos PRIMARY KEY (id_comanda, id_metodo_pago)
  );
  CREATE INDEX ix_reporte_ventas_metodos_fec_cierre ON reporte_ventas_metodos (fec_cierre);
  COMMENT ON TABLE reporte_ventas_metodos IS
    'Per payment method of each reporte_ventas comanda: its applied payments and their shares (monto / all applied)';

  -- written by every change's trigger, emptied by reportes_refrescar: no index to maintain
  CREATE TABLE reportes_cambios (
    id_comanda  bigint NOT NULL
  );
  COMMENT ON TABLE reportes_cambios IS
    'Comandas whose report rows must be computed again (appended by triggers, taken by reportes_refrescar)';

  CREATE TABLE reportes_estado (
    id    boolean NOT NULL DEFAULT true,
    zona  text NULL,
    CONSTRAINT pk_reportes_estado PRIMARY KEY (id),
    CONSTRAINT ck_reportes_estado_id CHECK (id)
  );
  INSERT INTO reportes_estado (id) VALUES (true);
  COMMENT ON COLUMN reportes_estado.zona IS
    'The time zone the rows were computed in (a rate not frozen follows the local day of the close)';
`;

const TRIGGERS = `
  CREATE FUNCTION reportes_marcar() RETURNS trigger
  LANGUAGE plpgsql AS $fn$
    -- a row of a comanda changed: its report rows are computed again
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        INSERT INTO reportes_cambios (id_comanda) VALUES (OLD.id_comanda);
      END IF;
      IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.id_comanda IS DISTINCT FROM OLD.id_comanda) THEN
        INSERT INTO reportes_cambios (id_comanda) VALUES (NEW.id_comanda);
      END IF;
      RETURN NULL;
    END;
  $fn$;

  CREATE FUNCTION reportes_marcar_categoria() RETURNS trigger
  LANGUAGE plpgsql AS $fn$
    -- a product changed category: the comandas that sold it count in another one now
    BEGIN
      INSERT INTO reportes_cambios (id_comanda)
        SELECT id_comanda FROM reporte_ventas_productos WHERE id_producto = NEW.id_producto;
      RETURN NULL;
    END;
  $fn$;

  CREATE FUNCTION reportes_marcar_tasas() RETURNS trigger
  LANGUAGE plpgsql AS $fn$
    -- the IGV rates changed: the comandas closed without a frozen rate follow them
    BEGIN
      INSERT INTO reportes_cambios (id_comanda)
        SELECT id_comanda FROM reporte_ventas WHERE NOT tasa_congelada;
      RETURN NULL;
    END;
  $fn$;

  -- a comanda that is or was closed; the open ones' changes (most of them) fire nothing
  CREATE TRIGGER tg_reportes_comandas_insert AFTER INSERT ON comandas
    FOR EACH ROW WHEN (NEW.estado = 'cerrada') EXECUTE FUNCTION reportes_marcar();
  CREATE TRIGGER tg_reportes_comandas_update AFTER UPDATE ON comandas
    FOR EACH ROW WHEN (OLD.estado = 'cerrada' OR NEW.estado = 'cerrada')
    EXECUTE FUNCTION reportes_marcar();
  CREATE TRIGGER tg_reportes_comandas_delete AFTER DELETE ON comandas
    FOR EACH ROW WHEN (OLD.estado = 'cerrada') EXECUTE FUNCTION reportes_marcar();
  CREATE TRIGGER tg_reportes_cuentas AFTER INSERT OR UPDATE OR DELETE ON cuentas_comanda
    FOR EACH ROW EXECUTE FUNCTION reportes_marcar();
  CREATE TRIGGER tg_reportes_pagos AFTER INSERT OR UPDATE OR DELETE ON pagos
    FOR EACH ROW EXECUTE FUNCTION reportes_marcar();
  CREATE TRIGGER tg_reportes_productos AFTER UPDATE OF id_categoria ON productos
    FOR EACH ROW WHEN (OLD.id_categoria IS DISTINCT FROM NEW.id_categoria)
    EXECUTE FUNCTION reportes_marcar_categoria();
  CREATE TRIGGER tg_reportes_tasas AFTER INSERT OR UPDATE OR DELETE ON tasas_igv
    FOR EACH STATEMENT EXECUTE FUNCTION reportes_marcar_tasas();
`;

const REFRESCAR = `
  CREATE FUNCTION reportes_refrescar(p_zona text)
  RETURNS integer
  LANGUAGE plpgsql AS $fn$
    -- Computes again the report rows of the comandas in reportes_cambios (and, when the tenant's
    -- time zone is not the one they were computed in, of those whose rate may depend on it).
    -- Refreshes run one at a time (a transaction-scoped advisory lock); the changes' writers
    -- take no lock here. The log's rows are taken by one DELETE: those of transactions still
    -- running are not visible to it and stay for the next refresh; the rows are computed by the
    -- following statements, each with a newer snapshot, so every change whose id was taken is
    -- seen. Answers the number of comandas computed again.
    DECLARE
      v_ids  bigint[];
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('reportes_refrescar'));
      -- a first refresh computes years of comandas: its sorts and joins in memory, not compiled
      PERFORM set_config('work_mem', '64MB', true), set_config('jit', 'off', true);
      -- Another zone moves a close's local day by one day at most (offsets are within ±14 h of
      -- UTC), and the day matters only for a comanda without a frozen rate, whose rate is the
      -- one in force on that day: only those closed within a day of a rate's start may change.
      IF (SELECT zona FROM reportes_estado) IS DISTINCT FROM p_zona THEN
        INSERT INTO reportes_cambios (id_comanda)
          SELECT v.id_comanda FROM reporte_ventas v
           WHERE NOT v.tasa_congelada
             AND EXISTS (SELECT 1 FROM tasas_igv t
                          WHERE t.vigente_desde BETWEEN (v.fec_cierre AT TIME ZONE 'UTC')::date - 1
                                                    AND (v.fec_cierre AT TIME ZONE 'UTC')::date + 1);
        UPDATE reportes_estado SET zona = p_zona;
      END IF;
      WITH tomados AS (DELETE FROM reportes_cambios RETURNING id_comanda)
      SELECT array_agg(DISTINCT id_comanda) INTO v_ids FROM tomados;
      IF v_ids IS NULL THEN
        RETURN 0;
      END IF;
      DELETE FROM reporte_ventas_metodos WHERE id_comanda IN (SELECT unnest(v_ids));
      DELETE FROM reporte_ventas_productos WHERE id_comanda IN (SELECT unnest(v_ids));
      DELETE FROM reporte_ventas WHERE id_comanda IN (SELECT unnest(v_ids));

      -- the comanda: cuenta_comanda's discount, the rate frozen at its close (else the one in
      -- force on its local day), the net sale, the theoretical cost of its live consumptions
      INSERT INTO reporte_ventas (id_comanda, fec_cierre, id_mesa, id_usuario, total, descuento,
                                  neta, costo, tasa_congelada)
      SELECT x.id_comanda, x.fec_cierre, x.id_mesa, x.id_usuario, x.total, x.descuento,
             round((x.total - x.descuento) / (1 + x.tasa), 2),
             coalesce((SELECT sum(cv.costo_teorico) FROM consumos_venta cv
                        WHERE cv.id_comanda = x.id_comanda AND NOT cv.revertido), 0),
             x.congelada
        FROM (SELECT c.id_comanda, c.fec_cierre, c.id_mesa, c.id_usuario, c.total,
                     CASE cc.descuento_tipo
                       WHEN 'porcentaje' THEN round(c.total * cc.descuento_valor / 100, 2)
                       WHEN 'monto' THEN least(cc.descuento_valor, c.total)
                       ELSE 0 END AS descuento,
                     coalesce(cc.tasa_igv,
                              (SELECT t.tasa FROM tasas_igv t
                                WHERE t.vigente_desde <= (c.fec_cierre AT TIME ZONE p_zona)::date
                                ORDER BY t.vigente_desde DESC LIMIT 1),
                              0) AS tasa,
                     cc.tasa_igv IS NOT NULL AS congelada
                FROM comandas c
                LEFT JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
               WHERE c.id_comanda IN (SELECT unnest(v_ids))
                 AND c.estado = 'cerrada' AND NOT c.eliminada AND c.fec_cierre IS NOT NULL) AS x;

      -- its products: each line's share of the discount and net sale (subtotal / total), its
      -- live consumption's cost; the first product of each category in the comanda flagged
      INSERT INTO reporte_ventas_productos (id_comanda, id_producto, fec_cierre, id_categoria,
                                            primero_categoria, unidades, venta_bruta, descuento,
                                            neta, costo)
      SELECT x.id_comanda, x.id_producto, x.fec_cierre, p.id_categoria,
             row_number() OVER (PARTITION BY x.id_comanda, p.id_categoria ORDER BY x.id_producto) = 1,
             x.unidades, x.venta_bruta, x.descuento, x.neta, x.costo
        FROM (SELECT v.id_comanda, d.id_producto, v.fec_cierre, sum(d.cantidad) AS unidades,
                     sum(d.subtotal) AS venta_bruta,
                     sum(CASE WHEN v.descuento > 0 THEN v.descuento * d.subtotal / v.total ELSE 0 END) AS descuento,
                     sum(CASE WHEN v.total > 0 THEN v.neta * d.subtotal / v.total ELSE 0 END) AS neta,
                     sum(coalesce(cv.costo_teorico, 0)) AS costo
                FROM reporte_ventas v
                JOIN deta_comandas d ON d.id_comanda = v.id_comanda
                LEFT JOIN consumos_venta cv ON cv.id_item = d.id_deta_comanda AND NOT cv.revertido
               WHERE v.id_comanda IN (SELECT unnest(v_ids))
               GROUP BY v.id_comanda, d.id_producto, v.fec_cierre) AS x
        LEFT JOIN productos p ON p.id_producto = x.id_producto;

      -- its payment methods: each applied payment's share is monto / what its applied payments
      -- paid in all
      INSERT INTO reporte_ventas_metodos (id_comanda, id_metodo_pago, fec_cierre, monto, propina,
                                          descuento, neta, costo)
      SELECT p.id_comanda, p.id_metodo_pago, v.fec_cierre, sum(p.monto), sum(p.propina),
             coalesce(sum(v.descuento * p.monto / nullif(p.pagado, 0)), 0),
             coalesce(sum(v.neta * p.monto / nullif(p.pagado, 0)), 0),
             coalesce(sum(v.costo * p.monto / nullif(p.pagado, 0)), 0)
        FROM (SELECT pg.id_comanda, pg.id_metodo_pago, pg.monto, pg.propina,
                     sum(pg.monto) OVER (PARTITION BY pg.id_comanda) AS pagado
                FROM pagos pg
               WHERE pg.id_comanda IN (SELECT unnest(v_ids)) AND pg.estado = 'aplicado') AS p
        JOIN reporte_ventas v ON v.id_comanda = p.id_comanda
       GROUP BY p.id_comanda, p.id_metodo_pago, v.fec_cierre;
      RETURN cardinality(v_ids);
    END;
  $fn$;
`;
