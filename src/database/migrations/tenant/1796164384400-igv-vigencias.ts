import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { SqlSourceEntry } from '../../sql-source';

/**
 * A sale's IGV rate is joined from the rates' periods (igv_vigencias) instead of asked per sale:
 * the year's consumption report and a full refresh of the reports read tasas_igv once; ventas and
 * the rate functions parallel safe, so a statement reading them can still scan in parallel
 *
 * Written by `npm run sql:migration` (docs/sql.md) with the text the files had then; never
 * edited afterwards: a later change of a file is another migration. It
 * - applies src/cobros/sql/igv_tasa.sql
 * - applies src/cobros/sql/igv_vigencias.sql
 * - applies src/cobros/sql/ventas.sql
 */
const SQL_SOURCE: readonly SqlSourceEntry[] = [
  {
    path: 'src/cobros/sql/igv_tasa.sql',
    text: `-- The IGV rate in force on a day (docs/cobros.md, "Where each rule lives"): the rate of tasas_igv
-- whose vigente_desde is the latest on or before p_fecha, a day of the tenant's calendar; 0 before
-- the first one. The one place this rule is written: the open bill (today), the rates frozen at a
-- close (that day), a dish's price without IGV (today) and the rates' periods (igv_vigencias, on
-- each period's first day: what a sale closed without frozen rates joins, on the day of its close)
-- all ask it. A SQL function (not inlined: its body is a subquery, planned once per calling
-- statement), parallel safe.
CREATE OR REPLACE FUNCTION igv_tasa(p_fecha date)
RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce((SELECT t.tasa FROM tasas_igv t
                    WHERE t.vigente_desde <= p_fecha
                    ORDER BY t.vigente_desde DESC LIMIT 1), 0)
$$;

COMMENT ON FUNCTION igv_tasa(date) IS
  'The IGV rate in force on a day of the tenant (tasas_igv), 0 before the first rate';
`,
  },
  {
    path: 'src/cobros/sql/igv_vigencias.sql',
    text: `-- The IGV rates' periods (docs/cobros.md, "Where each rule lives"): the days over which igv_tasa
-- gives one rate, a row each: from -infinity and from each vigente_desde of tasas_igv (desde)
-- until the next of them (hasta, excluded; null for the last), with the rate igv_tasa gives on
-- its first day (0 before the first rate). Every day of the tenant's calendar is in exactly one
-- period, with the rate igv_tasa gives that day: igv_tasa stays the one place the rule is
-- written, this is its value over a set of days. What a set of sales joins (ventas) instead of
-- asking igv_tasa once per sale: tasas_igv is read once per statement, igv_tasa called once
-- per period. A SQL function the planner inlines into the statements that call it.
CREATE OR REPLACE FUNCTION igv_vigencias()
RETURNS TABLE (desde date, hasta date, tasa numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT d.desde, lead(d.desde) OVER (ORDER BY d.desde), igv_tasa(d.desde)
    FROM (SELECT '-infinity'::date AS desde UNION SELECT t.vigente_desde FROM tasas_igv t) AS d
$$;

COMMENT ON FUNCTION igv_vigencias() IS
  'The IGV rates'' periods: from each vigente_desde of tasas_igv (and -infinity) until the next, with igv_tasa of its first day';
`,
  },
  {
    path: 'src/cobros/sql/ventas.sql',
    text: `-- The sales (docs/cobros.md, "Where each rule lives"): one row per closed, not voided comanda,
-- with what it sold and at which rate. Its lines' total (total), its discount (comanda_descuento),
-- the IGV rate frozen at its close, else the one in force on the day of its close in the tenant's
-- zone p_zona (the period of igv_vigencias that holds that day, the periods igv_tasa reads: joined
-- rather than asked per sale, so a year of sales reads tasas_igv once; tasa_congelada says which),
-- and what it sold without IGV (neta: monto_neto of total - descuento) and its IGV (igv: the
-- rest). The service charge is outside the IGV base and outside the sales. Its lines are
-- ventas_lineas. The reports and the stock's food cost read the sales here instead of deriving
-- them; a closed comanda's bill (cuenta_comanda) has the same figures. A SQL function the planner
-- inlines into the statements that call it, so a condition on id_comanda or fec_cierre reads only
-- those comandas; parallel safe, so a statement that reads it can still be planned in parallel.
CREATE OR REPLACE FUNCTION ventas(p_zona text)
RETURNS TABLE (
  id_comanda bigint, fec_cierre timestamptz, id_mesa integer, id_usuario integer,
  total numeric, descuento numeric, tasa_igv numeric, tasa_congelada boolean,
  neta numeric, igv numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT x.id_comanda, x.fec_cierre, x.id_mesa, x.id_usuario, x.total, x.descuento, x.tasa,
         x.congelada, monto_neto(x.total - x.descuento, x.tasa),
         x.total - x.descuento - monto_neto(x.total - x.descuento, x.tasa)
    FROM (SELECT c.id_comanda, c.fec_cierre, c.id_mesa, c.id_usuario, c.total,
                 comanda_descuento(c.total, cc.descuento_tipo, cc.descuento_valor) AS descuento,
                 coalesce(cc.tasa_igv, v.tasa) AS tasa, cc.tasa_igv IS NOT NULL AS congelada
            FROM comandas c
            LEFT JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
            -- the close's local day, computed once per comanda: as a LEFT JOIN LATERAL the
            -- planner evaluates it at the comanda's scan instead of in each comparison below
            LEFT JOIN LATERAL (SELECT (c.fec_cierre AT TIME ZONE p_zona)::date AS dia) AS k ON true
            LEFT JOIN igv_vigencias() v ON v.desde <= k.dia AND (v.hasta > k.dia OR v.hasta IS NULL)
           WHERE c.estado = 'cerrada' AND NOT c.eliminada AND c.fec_cierre IS NOT NULL) AS x
$$;

COMMENT ON FUNCTION ventas(text) IS
  'The sales: each closed, not voided comanda''s total, discount, IGV rate, net and IGV (docs/cobros.md)';
`,
  },
];

/** What `down` runs: the previous text of the files it changed, then what it added dropped. */
const DOWN: readonly string[] = [
  `-- The IGV rate in force on a day (docs/cobros.md, "Where each rule lives"): the rate of tasas_igv
-- whose vigente_desde is the latest on or before p_fecha, a day of the tenant's calendar; 0 before
-- the first one. The one place this rule is written: the open bill (today), the rates frozen at a
-- close (that day) and a sale closed without frozen rates (the day of its close) all ask it. A SQL
-- function the planner inlines into the statements that call it.
CREATE OR REPLACE FUNCTION igv_tasa(p_fecha date)
RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT t.tasa FROM tasas_igv t
                    WHERE t.vigente_desde <= p_fecha
                    ORDER BY t.vigente_desde DESC LIMIT 1), 0)
$$;

COMMENT ON FUNCTION igv_tasa(date) IS
  'The IGV rate in force on a day of the tenant (tasas_igv), 0 before the first rate';
`,
  `-- The sales (docs/cobros.md, "Where each rule lives"): one row per closed, not voided comanda,
-- with what it sold and at which rate. Its lines' total (total), its discount (comanda_descuento),
-- the IGV rate frozen at its close, else the one in force on the day of its close in the tenant's
-- zone p_zona (igv_tasa; tasa_congelada says which), and what it sold without IGV (neta:
-- monto_neto of total - descuento) and its IGV (igv: the rest). The service charge is outside the
-- IGV base and outside the sales. Its lines are ventas_lineas. The reports and the stock's food
-- cost read the sales here instead of deriving them; a closed comanda's bill (cuenta_comanda) has
-- the same figures. A SQL function the planner inlines into the statements that call it, so a
-- condition on id_comanda or fec_cierre reads only those comandas.
CREATE OR REPLACE FUNCTION ventas(p_zona text)
RETURNS TABLE (
  id_comanda bigint, fec_cierre timestamptz, id_mesa integer, id_usuario integer,
  total numeric, descuento numeric, tasa_igv numeric, tasa_congelada boolean,
  neta numeric, igv numeric)
LANGUAGE sql STABLE AS $$
  SELECT x.id_comanda, x.fec_cierre, x.id_mesa, x.id_usuario, x.total, x.descuento, x.tasa,
         x.congelada, monto_neto(x.total - x.descuento, x.tasa),
         x.total - x.descuento - monto_neto(x.total - x.descuento, x.tasa)
    FROM (SELECT c.id_comanda, c.fec_cierre, c.id_mesa, c.id_usuario, c.total,
                 comanda_descuento(c.total, cc.descuento_tipo, cc.descuento_valor) AS descuento,
                 coalesce(cc.tasa_igv, igv_tasa((c.fec_cierre AT TIME ZONE p_zona)::date)) AS tasa,
                 cc.tasa_igv IS NOT NULL AS congelada
            FROM comandas c
            LEFT JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
           WHERE c.estado = 'cerrada' AND NOT c.eliminada AND c.fec_cierre IS NOT NULL) AS x
$$;

COMMENT ON FUNCTION ventas(text) IS
  'The sales: each closed, not voided comanda''s total, discount, IGV rate, net and IGV (docs/cobros.md)';
`,
  `DROP FUNCTION IF EXISTS igv_vigencias`,
];

export class IgvVigencias1796164384400 implements MigrationInterface {
  name = 'IgvVigencias1796164384400';

  /** The files' text as applied here: what the next `npm run sql:migration` compares with. */
  static readonly sqlSource = SQL_SOURCE;

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const entry of SQL_SOURCE) {
      await queryRunner.query(entry.text);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of DOWN) {
      await queryRunner.query(statement);
    }
  }
}
