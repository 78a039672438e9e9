import { Injectable } from '@nestjs/common';
import { TenantRepository } from '../tenancy/tenant-repository';
import type { Agrupacion } from './dto/reportes-input.dto';

/** A row of the sales report (every figure numeric text), or its totals (`es_total`). */
export interface VentasRow {
  es_total: boolean;
  clave: string | null;
  etiqueta: string | null;
  comandas: string;
  unidades: string | null;
  venta_bruta: string;
  descuentos: string;
  venta_neta: string;
  ticket_promedio: string | null;
  propinas: string | null;
  costo_teorico: string | null;
  food_cost: string | null;
}

export interface GastosRow {
  es_total: boolean;
  clave: string | null;
  etiqueta: string | null;
  comandas: string;
  ventas: string;
  gastos: string;
}

export interface AsistenciaRow {
  id_usuario: number;
  nombre: string;
  apellido: string | null;
  dias_trabajados: number;
  minutos: number;
  horas: string;
  dias_incompletos: number;
}

const MESES = `(ARRAY['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto',
  'septiembre', 'octubre', 'noviembre', 'diciembre'])`;
const DIAS = `(ARRAY['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'])`;

/**
 * The range's instants: [desde 00:00, hasta + 1 00:00) in the tenant's zone ($1, $2 the local
 * days, $3 the zone), written in the conditions themselves so that the planner sees the values
 * (its estimate of the comandas scanned then holds).
 */
const D0 = '($1::date::timestamp AT TIME ZONE $3)';
const D1 = '(($2::date + 1)::timestamp AT TIME ZONE $3)';

/**
 * The covered comandas: the read model's rows (`reporte_ventas`, kept by `reportes_refrescar`:
 * docs/reportes.md) of the comandas closed in the range, each with its local close time. Read
 * by exactly one CTE of a statement, so the planner folds it in (no materialization).
 */
const COVERED = `c AS (
    SELECT v.id_comanda, v.id_mesa, v.id_usuario, v.total, v.descuento, v.neta, v.costo,
           v.fec_cierre AT TIME ZONE $3 AS local
      FROM reporte_ventas v
     WHERE v.fec_cierre >= ${D0} AND v.fec_cierre < ${D1})`;

/** A child table of the model (per product, per payment method) over the range. */
const inRange = (table: string) => `SELECT f.* FROM ${table} f
     WHERE f.fec_cierre >= ${D0} AND f.fec_cierre < ${D1}`;

/** A time grouping: the bucket of a local close time, the range's buckets, their key and label. */
interface TimeGrouping {
  bucket: string;
  series: string;
  clave: string;
  etiqueta: string;
}

const TIME: Partial<Record<Agrupacion, TimeGrouping>> = {
  dia: {
    bucket: 'c.local::date',
    series: `SELECT s::date AS b
               FROM generate_series($1::date::timestamp, $2::date::timestamp, interval '1 day') AS s`,
    clave: `to_char(s.b, 'YYYY-MM-DD')`,
    etiqueta: `to_char(s.b, 'DD/MM/YYYY')`,
  },
  semana: {
    bucket: `date_trunc('week', c.local)::date`,
    series: `SELECT s::date AS b
               FROM generate_series(date_trunc('week', $1::date::timestamp), $2::date::timestamp,
                                    interval '1 week') AS s`,
    clave: `to_char(s.b, 'YYYY-MM-DD')`,
    etiqueta: `'Semana del ' || to_char(s.b, 'DD/MM/YYYY')`,
  },
  mes: {
    bucket: `date_trunc('month', c.local)::date`,
    series: `SELECT s::date AS b
               FROM generate_series(date_trunc('month', $1::date::timestamp), $2::date::timestamp,
                                    interval '1 month') AS s`,
    clave: `to_char(s.b, 'YYYY-MM')`,
    etiqueta: `${MESES}[extract(month FROM s.b)::integer] || ' ' || to_char(s.b, 'YYYY')`,
  },
  hora: {
    bucket: 'extract(hour FROM c.local)::integer',
    series: 'SELECT s AS b FROM generate_series(0, 23) AS s',
    clave: 's.b::text',
    etiqueta: `lpad(s.b::text, 2, '0') || ':00'`,
  },
  dia_semana_hora: {
    // isodow × 100 + hour: one integer key, in time order
    bucket: 'extract(isodow FROM c.local)::integer * 100 + extract(hour FROM c.local)::integer',
    series: 'SELECT d * 100 + h AS b FROM generate_series(1, 7) AS d, generate_series(0, 23) AS h',
    clave: `(s.b / 100)::text || '-' || (s.b % 100)::text`,
    etiqueta: `${DIAS}[s.b / 100] || ' ' || lpad((s.b % 100)::text, 2, '0') || ':00'`,
  },
};

/** The sums of a group of covered comandas (`c`), as the time, waiter and table groupings read. */
const COMANDA_SUMS = `count(*) AS n, sum(c.total) AS vb, sum(c.descuento) AS de,
  sum(c.neta) AS vn, sum(c.costo) AS co`;

/** Rows ordered by what they sold, highest first, then by key (not the time groupings). */
const BY_SALES = `row_number() OVER (ORDER BY round(g.vb, 2) DESC, g.clave COLLATE "C")`;

/** The totals of groups that split the covered comandas (each comanda in exactly one): Σ agg. */
const TOTALS_OF_AGG = `SELECT coalesce(sum(agg.n), 0) AS n, NULL::numeric AS unidades,
    coalesce(sum(agg.vb), 0) AS vb, coalesce(sum(agg.de), 0) AS de, coalesce(sum(agg.vn), 0) AS vn,
    coalesce(sum(agg.co), 0) AS co, NULL::numeric AS pr FROM agg`;

/**
 * The totals of groups a comanda may be in more than once (products, categories, methods): the
 * covered comandas' own sums, with the units, cost or tips the groups add up.
 */
const totalsOfComandas = (unidades: string, co: string, pr: string) => `SELECT count(*) AS n,
    ${unidades} AS unidades, coalesce(sum(c.total), 0) AS vb, coalesce(sum(c.descuento), 0) AS de,
    coalesce(sum(c.neta), 0) AS vn, ${co} AS co, ${pr} AS pr FROM c`;

/**
 * `g`: one row per group with its order, key, label and raw sums (n comandas, unidades, vb
 * venta bruta, de descuentos, vn venta neta, co costo, pr propinas), after the CTEs it needs;
 * `totals`: one row of the same sums over the whole range. Every grouping reads the covered
 * comandas (`c`) or one child table of the model once.
 */
function grouping(agrupar: Agrupacion): { ctes: string; totals: string } {
  const time = TIME[agrupar];
  if (time) {
    return {
      ctes: `${COVERED},
      agg AS (SELECT ${time.bucket} AS b, ${COMANDA_SUMS} FROM c GROUP BY 1),
      s AS (SELECT x.b, row_number() OVER (ORDER BY x.b) AS orden FROM (${time.series}) AS x),
      g AS (
        SELECT s.orden, ${time.clave} AS clave, ${time.etiqueta} AS etiqueta,
               coalesce(agg.n, 0) AS n, NULL::numeric AS unidades, coalesce(agg.vb, 0) AS vb,
               coalesce(agg.de, 0) AS de, coalesce(agg.vn, 0) AS vn, coalesce(agg.co, 0) AS co,
               NULL::numeric AS pr
          FROM s LEFT JOIN agg ON agg.b = s.b)`,
      totals: TOTALS_OF_AGG,
    };
  }
  switch (agrupar) {
    case 'mozo':
      return {
        ctes: `${COVERED},
        agg AS (SELECT c.id_usuario AS k, ${COMANDA_SUMS} FROM c GROUP BY 1),
        g0 AS (
          SELECT coalesce(agg.k::text, 'sin_mozo') AS clave,
                 CASE WHEN agg.k IS NULL THEN 'Sin mozo'
                      ELSE concat_ws(' ', u.nombre, u.apellido) END AS etiqueta,
                 agg.n, NULL::numeric AS unidades, agg.vb, agg.de, agg.vn, agg.co, NULL::numeric AS pr
            FROM agg LEFT JOIN usuarios u ON u.id_usuario = agg.k),
        g AS (SELECT ${BY_SALES} AS orden, g.* FROM g0 AS g)`,
        totals: TOTALS_OF_AGG,
      };
    case 'mesa':
      return {
        ctes: `${COVERED},
        agg AS (SELECT c.id_mesa AS k, ${COMANDA_SUMS} FROM c GROUP BY 1),
        g0 AS (
          SELECT coalesce(agg.k::text, 'para_llevar') AS clave,
                 CASE WHEN agg.k IS NULL THEN 'Para llevar'
                      ELSE 'Mesa ' || coalesce(m.numero::text, agg.k::text) END AS etiqueta,
                 agg.n, NULL::numeric AS unidades, agg.vb, agg.de, agg.vn, agg.co, NULL::numeric AS pr
            FROM agg LEFT JOIN mesas m ON m.id_mesa = agg.k),
        g AS (SELECT ${BY_SALES} AS orden, g.* FROM g0 AS g)`,
        totals: TOTALS_OF_AGG,
      };
    case 'producto':
    case 'categoria': {
      // a (comanda, product) row counts its comanda once for the product; for a category, the
      // row flagged primero_categoria does
      const sums = (n: string) => `${n} AS n, sum(l.unidades) AS unidades, sum(l.venta_bruta) AS vb,
        sum(l.descuento) AS de, sum(l.neta) AS vn, sum(l.costo) AS co`;
      const g0 =
        agrupar === 'producto'
          ? `agg AS (SELECT l.id_producto AS k, ${sums('count(*)')} FROM l GROUP BY 1),
        g0 AS (
          SELECT agg.k::text AS clave, coalesce(p.nombre, agg.k::text) AS etiqueta,
                 agg.n, agg.unidades, agg.vb, agg.de, agg.vn, agg.co, NULL::numeric AS pr
            FROM agg LEFT JOIN productos p ON p.id_producto = agg.k)`
          : `agg AS (
          SELECT l.id_categoria AS k, ${sums('count(*) FILTER (WHERE l.primero_categoria)')}
            FROM l GROUP BY 1),
        g0 AS (
          SELECT coalesce(agg.k::text, 'sin_categoria') AS clave,
                 CASE WHEN agg.k IS NULL THEN 'Sin categoría'
                      ELSE coalesce(k.nombre, agg.k::text) END AS etiqueta,
                 agg.n, agg.unidades, agg.vb, agg.de, agg.vn, agg.co, NULL::numeric AS pr
            FROM agg LEFT JOIN categorias k ON k.id_categoria = agg.k)`;
      return {
        ctes: `${COVERED},
        l AS (${inRange('reporte_ventas_productos')}),
        ${g0},
        g AS (SELECT ${BY_SALES} AS orden, g.* FROM g0 AS g)`,
        totals: totalsOfComandas(
          '(SELECT coalesce(sum(agg.unidades), 0) FROM agg)',
          '(SELECT coalesce(sum(agg.co), 0) FROM agg)',
          'NULL::numeric',
        ),
      };
    }
    case 'metodo':
      // each applied payment's share of its comanda: monto / Σ monto of the comanda's applied
      // payments; the comanda's discount, net sale and cost are split by those shares
      return {
        ctes: `${COVERED},
        p AS (${inRange('reporte_ventas_metodos')}),
        agg AS (
          SELECT p.id_metodo_pago AS k, count(*) AS n, sum(p.monto) AS vb, sum(p.propina) AS pr,
                 sum(p.descuento) AS de, sum(p.neta) AS vn, sum(p.costo) AS co
            FROM p GROUP BY 1),
        g0 AS (
          SELECT agg.k::text AS clave, coalesce(m.nombre, agg.k::text) AS etiqueta,
                 agg.n, NULL::numeric AS unidades, agg.vb, agg.de, agg.vn, agg.co, agg.pr
            FROM agg LEFT JOIN metodos_pago m ON m.id_metodo_pago = agg.k),
        g AS (SELECT ${BY_SALES} AS orden, g.* FROM g0 AS g)`,
        totals: totalsOfComandas(
          'NULL::numeric',
          'coalesce(sum(c.costo), 0)',
          '(SELECT coalesce(sum(agg.pr), 0) FROM agg)',
        ),
      };
    default:
      throw new Error(`unknown grouping ${agrupar}`);
  }
}

/**
 * The reports' reads (docs/reportes.md): every figure is computed in numeric, the sales report
 * from its read model (`reporte_ventas` and its per-product and per-method rows), in one
 * statement per report that reads the covered comandas or one child table once.
 */
@Injectable()
export class ReportesRepository extends TenantRepository {
  /** The sales report's rows in order, then its totals row (`es_total`). */
  async ventas(
    desde: string,
    hasta: string,
    timeZone: string,
    agrupar: Agrupacion,
    conCosto: boolean,
  ): Promise<VentasRow[]> {
    await this.refrescar(timeZone);
    return this.transaction(async (tx) => {
      // one statement over a year of comandas: compiling it (PostgreSQL's JIT, where the
      // server has it) costs more than it saves
      await tx.query(`SELECT set_config('jit', 'off', true)`);
      return tx.query<VentasRow[]>(ventasSql(agrupar, conCosto), [desde, hasta, timeZone]);
    });
  }

  /**
   * Brings the read model up to the changes committed so far (docs/reportes.md): its own short
   * transaction, before the report's, so the report never holds the refresh's lock.
   */
  async refrescar(timeZone: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }[]>('SELECT reportes_refrescar($1) AS n', [
      timeZone,
    ]);
    return row.n;
  }

  /** Per local month of the range: closed comandas and their sales, and purchases; then totals. */
  gastos(desde: string, hasta: string, timeZone: string): Promise<GastosRow[]> {
    return this.db.query<GastosRow[]>(
      `WITH meses AS (
         SELECT s::date AS b
           FROM generate_series(date_trunc('month', $1::date::timestamp), $2::date::timestamp,
                                interval '1 month') AS s),
       v AS (
         SELECT date_trunc('month', c.fec_cierre AT TIME ZONE $3)::date AS b,
                count(*) AS n, sum(c.total) AS total
           FROM comandas c
          WHERE c.estado = 'cerrada' AND NOT c.eliminada
            AND c.fec_cierre >= ${D0} AND c.fec_cierre < ${D1}
          GROUP BY 1),
       g AS (
         SELECT date_trunc('month', c.fec_compra AT TIME ZONE $3)::date AS b, sum(c.total) AS total
           FROM compras c
          WHERE c.fec_compra >= ${D0} AND c.fec_compra < ${D1}
          GROUP BY 1),
       f AS (
         SELECT m.b, coalesce(v.n, 0) AS n, coalesce(v.total, 0) AS ventas,
                coalesce(g.total, 0) AS gastos
           FROM meses m LEFT JOIN v ON v.b = m.b LEFT JOIN g ON g.b = m.b)
       SELECT false AS es_total, to_char(f.b, 'YYYY-MM') AS clave,
              ${MESES}[extract(month FROM f.b)::integer] || ' ' || to_char(f.b, 'YYYY') AS etiqueta,
              f.n::text AS comandas, f.ventas, f.gastos, f.b
         FROM f
       UNION ALL
       SELECT true, NULL, NULL, coalesce(sum(f.n), 0)::text, coalesce(sum(f.ventas), 0),
              coalesce(sum(f.gastos), 0), NULL
         FROM f
       ORDER BY 1, 7`,
      [desde, hasta, timeZone],
    );
  }

  /** report_asistencia's people over the work days desde..hasta, with their hours. */
  asistencia(desde: string, hasta: string): Promise<AsistenciaRow[]> {
    return this.db.query<AsistenciaRow[]>(
      `SELECT p.id_usuario, p.nombre, p.apellido, p.dias_trabajados, p.minutos,
              round(p.minutos::numeric / 60, 2) AS horas, p.dias_incompletos
         FROM ROWS FROM (
                jsonb_to_recordset(report_asistencia($1::date, $2::date) -> 'personas')
                  AS (id_usuario integer, nombre text, apellido text, dias_trabajados integer,
                      minutos integer, dias_incompletos integer))
              WITH ORDINALITY AS p(id_usuario, nombre, apellido, dias_trabajados, minutos,
                                   dias_incompletos, orden)
        ORDER BY p.orden`,
      [desde, hasta],
    );
  }
}

/** The sales statement of a grouping (exported for the benchmark's EXPLAIN). */
export function ventasSql(agrupar: Agrupacion, conCosto: boolean): string {
  const { ctes, totals } = grouping(agrupar);
  // a row of payments sums what was paid, the discount already off: its average ticket is that
  const rowTicket =
    agrupar === 'producto' || agrupar === 'categoria'
      ? 'NULL::numeric'
      : agrupar === 'metodo'
        ? 'CASE WHEN g.n > 0 THEN round(g.vb / g.n, 2) END'
        : 'CASE WHEN g.n > 0 THEN round((g.vb - g.de) / g.n, 2) END';
  const costo = (co: string, vn: string) =>
    conCosto
      ? `round(${co}, 2) AS costo_teorico,
         CASE WHEN round(${vn}, 2) <> 0 AND ${co} <> 0
              THEN round(${co} * 100 / round(${vn}, 2), 2) END AS food_cost`
      : 'NULL::numeric AS costo_teorico, NULL::numeric AS food_cost';
  return `WITH ${ctes},
    t AS (${totals})
    SELECT false AS es_total, g.orden, g.clave, g.etiqueta, g.n::text AS comandas, g.unidades,
           round(g.vb, 2) AS venta_bruta, round(g.de, 2) AS descuentos,
           round(g.vn, 2) AS venta_neta, ${rowTicket} AS ticket_promedio,
           round(g.pr, 2) AS propinas, ${costo('g.co', 'g.vn')}
      FROM g
    UNION ALL
    SELECT true, NULL, NULL, NULL, t.n::text, t.unidades, t.vb, t.de, t.vn,
           CASE WHEN t.n > 0 THEN round((t.vb - t.de) / t.n, 2) END, t.pr,
           ${costo('t.co', 't.vn')}
      FROM t
    ORDER BY 1, 2`;
}
