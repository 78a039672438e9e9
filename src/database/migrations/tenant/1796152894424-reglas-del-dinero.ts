import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { SqlSourceEntry } from '../../sql-source';

/**
 * The money's rules written once (docs/cobros.md, "Where each rule lives"): the IGV rate in force
 * on a day (igv_tasa), a comanda's discount (comanda_descuento), an amount without IGV
 * (monto_neto), and a sale and its lines (ventas, ventas_lineas: the one place a line's share of
 * the discount, net and IGV is computed, in céntimos that add up to the sale). The bill
 * (cuenta_comanda) and the sales report's read model (reportes_refrescar) ask them instead of
 * writing them out; every figure stays what it was.
 *
 * Written by `npm run sql:migration` (docs/sql.md) with the text the files had then; never
 * edited afterwards: a later change of a file is another migration. It
 * - applies src/cobros/sql/comanda_descuento.sql
 * - applies src/cobros/sql/igv_tasa.sql
 * - applies src/cobros/sql/monto_neto.sql
 * - applies src/cobros/sql/cuenta_comanda.sql
 * - applies src/cobros/sql/ventas.sql
 * - applies src/cobros/sql/ventas_lineas.sql
 * - applies src/reportes/sql/reportes_refrescar.sql
 */
const SQL_SOURCE: readonly SqlSourceEntry[] = [
  {
    path: 'src/cobros/sql/comanda_descuento.sql',
    text: `-- A comanda's discount in soles (docs/cobros.md, "Where each rule lives"), on its lines' total
-- p_total: a percentage is rounded to the céntimo, an amount never takes more than the total; no
-- discount is 0. The one place this rule is written: the bill (cuenta_comanda) and a sale (ventas)
-- ask it.
CREATE OR REPLACE FUNCTION comanda_descuento(p_total numeric, p_tipo text, p_valor numeric)
RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE p_tipo
           WHEN 'porcentaje' THEN round(p_total * p_valor / 100, 2)
           WHEN 'monto' THEN least(p_valor, p_total)
           ELSE 0 END
$$;

COMMENT ON FUNCTION comanda_descuento(numeric, text, numeric) IS
  'A comanda''s discount on its lines'' total: a percentage rounded to the céntimo, an amount at most the total';
`,
  },
  {
    path: 'src/cobros/sql/igv_tasa.sql',
    text: `-- The IGV rate in force on a day (docs/cobros.md, "Where each rule lives"): the rate of tasas_igv
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
  },
  {
    path: 'src/cobros/sql/monto_neto.sql',
    text: `-- An amount without its IGV (docs/cobros.md, "Where each rule lives"): prices include IGV, so the
-- taxable base of p_total at rate p_tasa is round(p_total / (1 + p_tasa), 2), and its IGV is
-- p_total minus that. The one place this rule is written: the bill's base, a sale's net and a
-- dish's price without IGV ask it.
CREATE OR REPLACE FUNCTION monto_neto(p_total numeric, p_tasa numeric)
RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT round(p_total / (1 + p_tasa), 2)
$$;

COMMENT ON FUNCTION monto_neto(numeric, numeric) IS
  'An amount that includes IGV, without it: round(total / (1 + tasa), 2)';
`,
  },
  {
    path: 'src/cobros/sql/cuenta_comanda.sql',
    text: `-- The bill of one comanda, every figure in numeric (docs/cobros.md). While it is open the rates
-- of today apply (the IGV rate in force on the tenant's date, the service charge, the cash
-- rounding); once closed, those frozen in cuentas_comanda. The rounding is granted when the
-- latest applied payment is cash and leaves less than one rounding step unpaid. The discount,
-- the rate on a day and the base without IGV are comanda_descuento, igv_tasa and monto_neto,
-- as a sale's (ventas): a closed comanda's bill and its sale agree.
CREATE OR REPLACE FUNCTION cuenta_comanda(p_id bigint, p_zona text)
RETURNS TABLE (
  subtotal numeric, descuento numeric, recargo_consumo numeric, total numeric,
  tasa_igv numeric, base_imponible numeric, igv numeric, tasa_recargo numeric,
  redondeo numeric, propinas numeric, pagado numeric, reembolsado numeric,
  saldo numeric, saldo_efectivo numeric, estado_pago text)
LANGUAGE sql STABLE AS $$
  WITH c AS (
    SELECT c.estado, c.total AS lineas, cc.descuento_tipo, cc.descuento_valor,
           coalesce(cc.tasa_igv, igv_tasa((now() AT TIME ZONE p_zona)::date)) AS tasa_igv,
           coalesce(cc.tasa_recargo, a.tasa_recargo) AS tasa_recargo,
           coalesce(cc.paso_redondeo, a.paso_redondeo) AS paso
      FROM comandas c
      LEFT JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
      CROSS JOIN cobros_ajustes a
     WHERE c.id_comanda = p_id),
  d AS (
    SELECT c.*, comanda_descuento(c.lineas, c.descuento_tipo, c.descuento_valor) AS descuento
      FROM c),
  n AS (SELECT d.*, d.lineas - d.descuento AS neto FROM d),
  t AS (SELECT n.*, round(n.neto * n.tasa_recargo, 2) AS recargo FROM n),
  p AS (
    SELECT coalesce(sum(monto) FILTER (WHERE estado = 'aplicado'), 0) AS pagado,
           coalesce(sum(propina) FILTER (WHERE estado = 'aplicado'), 0) AS propinas,
           coalesce((SELECT m.tipo = 'efectivo' FROM pagos ul
                       JOIN metodos_pago m ON m.id_metodo_pago = ul.id_metodo_pago
                      WHERE ul.id_comanda = p_id AND ul.estado = 'aplicado'
                      ORDER BY ul.id_pago DESC LIMIT 1), false) AS ultimo_efectivo
      FROM pagos WHERE id_comanda = p_id),
  r AS (SELECT coalesce(sum(monto), 0) AS reembolsado FROM reembolsos WHERE id_comanda = p_id),
  b AS (
    SELECT t.*, p.*, r.*, t.neto + t.recargo AS total_cuenta,
           t.neto + t.recargo - p.pagado AS bruto
      FROM t, p, r),
  f AS (
    SELECT b.*, CASE WHEN b.paso > 0 AND b.ultimo_efectivo AND b.bruto > 0 AND b.bruto < b.paso
                     THEN -b.bruto ELSE 0 END AS redondeo
      FROM b)
  SELECT f.lineas, f.descuento, f.recargo, f.total_cuenta,
         f.tasa_igv, monto_neto(f.neto, f.tasa_igv), f.neto - monto_neto(f.neto, f.tasa_igv),
         f.tasa_recargo, f.redondeo, f.propinas, f.pagado, f.reembolsado,
         f.bruto + f.redondeo,
         CASE WHEN f.paso > 0 AND f.bruto + f.redondeo > 0
              THEN floor((f.bruto + f.redondeo) / f.paso) * f.paso
              ELSE greatest(f.bruto + f.redondeo, 0) END,
         CASE WHEN f.reembolsado > 0 AND f.reembolsado >= f.pagado THEN 'reembolsada'
              WHEN f.reembolsado > 0 THEN 'reembolso_parcial'
              WHEN f.bruto + f.redondeo <= 0 AND (f.pagado > 0 OR f.estado = 'cerrada') THEN 'pagada'
              ELSE 'pendiente' END
    FROM f
$$;

COMMENT ON FUNCTION cuenta_comanda(bigint, text) IS
  'The bill of a comanda: subtotal, discount, service charge, total, IGV, rounding, tips, paid, refunded, balance (docs/cobros.md)';
`,
  },
  {
    path: 'src/cobros/sql/ventas.sql',
    text: `-- The sales (docs/cobros.md, "Where each rule lives"): one row per closed, not voided comanda,
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
  },
  {
    path: 'src/cobros/sql/ventas_lineas.sql',
    text: `-- A sale's lines (docs/cobros.md, "A line's IGV"): one row per line of a sale of ventas, the one
-- place a line's share of its comanda's discount, net and IGV is computed. Per line: its
-- product, quantity and unit price (frozen when it was ordered), its gross (venta_bruta, the
-- line's subtotal), its sale's IGV rate, and its shares of the sale in two forms:
--
-- - exact (descuento, neta): the sale's discount and net times subtotal / the sale's total,
--   unrounded; what the reports add up (over products, categories) before rounding a row;
-- - in céntimos (descuento_linea, importe = venta_bruta - descuento_linea, base_imponible,
--   igv = importe - base_imponible): the sale's discount split over its lines by their
--   subtotals, then its net over what each line charges (importe), as running shares in line
--   order rounded to the céntimo, each line taking its running share less the previous line's:
--   per sale Σ descuento_linea = descuento, Σ base_imponible = neta and Σ igv = igv exactly (as
--   an electronic invoice's lines must add up to its totals), each line within a céntimo of its
--   exact share and none below zero.
--
-- Inlined like ventas: a condition on id_comanda reads only those comandas' lines.
CREATE OR REPLACE FUNCTION ventas_lineas(p_zona text)
RETURNS TABLE (
  id_comanda bigint, id_item bigint, id_producto integer, fec_cierre timestamptz,
  cantidad numeric, precio_unitario numeric, venta_bruta numeric, tasa_igv numeric,
  descuento numeric, neta numeric,
  descuento_linea numeric, importe numeric, base_imponible numeric, igv numeric)
LANGUAGE sql STABLE AS $$
  WITH l AS (
    SELECT v.id_comanda, d.id_deta_comanda AS id_item, d.id_producto, v.fec_cierre,
           d.cantidad, d.precio_unitario, d.subtotal, v.tasa_igv,
           CASE WHEN v.descuento > 0 THEN v.descuento * d.subtotal / v.total ELSE 0 END AS descuento,
           CASE WHEN v.total > 0 THEN v.neta * d.subtotal / v.total ELSE 0 END AS neta,
           v.descuento AS descuento_venta, v.neta AS neta_venta,
           sum(d.subtotal) OVER (PARTITION BY v.id_comanda) AS bruto_venta,
           sum(d.subtotal) OVER (PARTITION BY v.id_comanda ORDER BY d.id_deta_comanda) AS bruto_hasta
      FROM ventas(p_zona) v
      JOIN deta_comandas d ON d.id_comanda = v.id_comanda),
  -- the running shares up to each line, rounded: of the discount by the subtotals, then of the
  -- net by what the lines charge after their discount
  h AS (
    SELECT l.*, CASE WHEN l.bruto_venta > 0
                     THEN round(l.descuento_venta * l.bruto_hasta / l.bruto_venta, 2)
                     ELSE 0 END AS descuento_hasta
      FROM l),
  k AS (
    SELECT h.*, CASE WHEN h.bruto_venta - h.descuento_venta > 0
                     THEN round(h.neta_venta * (h.bruto_hasta - h.descuento_hasta)
                                / (h.bruto_venta - h.descuento_venta), 2)
                     ELSE 0 END AS base_hasta
      FROM h),
  -- a line's céntimos: its running share less the previous line's
  c AS (
    SELECT k.*,
           k.descuento_hasta - coalesce(lag(k.descuento_hasta) OVER w, 0) AS descuento_linea,
           k.base_hasta - coalesce(lag(k.base_hasta) OVER w, 0) AS base_imponible
      FROM k
    WINDOW w AS (PARTITION BY k.id_comanda ORDER BY k.id_item))
  SELECT c.id_comanda, c.id_item, c.id_producto, c.fec_cierre, c.cantidad, c.precio_unitario,
         c.subtotal, c.tasa_igv, c.descuento, c.neta, c.descuento_linea,
         c.subtotal - c.descuento_linea, c.base_imponible,
         c.subtotal - c.descuento_linea - c.base_imponible
    FROM c
$$;

COMMENT ON FUNCTION ventas_lineas(text) IS
  'A sale''s lines: gross, IGV rate, exact shares of the discount and net, and céntimo discount, base and IGV adding up to the sale (docs/cobros.md)';
`,
  },
  {
    path: 'src/reportes/sql/reportes_refrescar.sql',
    text: `CREATE OR REPLACE FUNCTION reportes_refrescar(p_zona text)
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

    -- the comanda: its sale (ventas: its total, discount, net sale and whether its rate was
    -- frozen at its close, else the one in force on its local day), the theoretical cost of
    -- its live consumptions
    INSERT INTO reporte_ventas (id_comanda, fec_cierre, id_mesa, id_usuario, total, descuento,
                                neta, costo, tasa_congelada)
    SELECT v.id_comanda, v.fec_cierre, v.id_mesa, v.id_usuario, v.total, v.descuento, v.neta,
           coalesce((SELECT sum(cv.costo_teorico) FROM consumos_venta cv
                      WHERE cv.id_comanda = v.id_comanda AND NOT cv.revertido), 0),
           v.tasa_congelada
      FROM ventas(p_zona) v
     WHERE v.id_comanda = ANY (v_ids);

    -- its products: its lines' shares of the discount and net sale (ventas_lineas), their live
    -- consumptions' cost; the first product of each category in the comanda flagged. The ids
    -- as = ANY, a condition the planner takes inside ventas_lineas (a join would read every
    -- sale's lines first)
    INSERT INTO reporte_ventas_productos (id_comanda, id_producto, fec_cierre, id_categoria,
                                          primero_categoria, unidades, venta_bruta, descuento,
                                          neta, costo)
    SELECT x.id_comanda, x.id_producto, x.fec_cierre, p.id_categoria,
           row_number() OVER (PARTITION BY x.id_comanda, p.id_categoria ORDER BY x.id_producto) = 1,
           x.unidades, x.venta_bruta, x.descuento, x.neta, x.costo
      FROM (SELECT l.id_comanda, l.id_producto, l.fec_cierre, sum(l.cantidad) AS unidades,
                   sum(l.venta_bruta) AS venta_bruta, sum(l.descuento) AS descuento,
                   sum(l.neta) AS neta, sum(coalesce(cv.costo_teorico, 0)) AS costo
              FROM ventas_lineas(p_zona) l
              LEFT JOIN consumos_venta cv ON cv.id_item = l.id_item AND NOT cv.revertido
             WHERE l.id_comanda = ANY (v_ids)
             GROUP BY l.id_comanda, l.id_producto, l.fec_cierre) AS x
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
`,
  },
];

/** What `down` runs: the previous text of the files it changed, then what it added dropped. */
const DOWN: readonly string[] = [
  `-- The bill of one comanda, every figure in numeric (docs/cobros.md). While it is open the rates
-- of today apply (the IGV rate in force on the tenant's date, the service charge, the cash
-- rounding); once closed, those frozen in cuentas_comanda. The rounding is granted when the
-- latest applied payment is cash and leaves less than one rounding step unpaid.
CREATE OR REPLACE FUNCTION cuenta_comanda(p_id bigint, p_zona text)
RETURNS TABLE (
  subtotal numeric, descuento numeric, recargo_consumo numeric, total numeric,
  tasa_igv numeric, base_imponible numeric, igv numeric, tasa_recargo numeric,
  redondeo numeric, propinas numeric, pagado numeric, reembolsado numeric,
  saldo numeric, saldo_efectivo numeric, estado_pago text)
LANGUAGE sql STABLE AS $$
  WITH c AS (
    SELECT c.estado, c.total AS lineas, cc.descuento_tipo, cc.descuento_valor,
           coalesce(cc.tasa_igv, (SELECT t.tasa FROM tasas_igv t
                                   WHERE t.vigente_desde <= (now() AT TIME ZONE p_zona)::date
                                   ORDER BY t.vigente_desde DESC LIMIT 1), 0) AS tasa_igv,
           coalesce(cc.tasa_recargo, a.tasa_recargo) AS tasa_recargo,
           coalesce(cc.paso_redondeo, a.paso_redondeo) AS paso
      FROM comandas c
      LEFT JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
      CROSS JOIN cobros_ajustes a
     WHERE c.id_comanda = p_id),
  d AS (
    SELECT c.*, CASE c.descuento_tipo
                  WHEN 'porcentaje' THEN round(c.lineas * c.descuento_valor / 100, 2)
                  WHEN 'monto' THEN least(c.descuento_valor, c.lineas)
                  ELSE 0 END AS descuento
      FROM c),
  n AS (SELECT d.*, d.lineas - d.descuento AS neto FROM d),
  t AS (SELECT n.*, round(n.neto * n.tasa_recargo, 2) AS recargo FROM n),
  p AS (
    SELECT coalesce(sum(monto) FILTER (WHERE estado = 'aplicado'), 0) AS pagado,
           coalesce(sum(propina) FILTER (WHERE estado = 'aplicado'), 0) AS propinas,
           coalesce((SELECT m.tipo = 'efectivo' FROM pagos ul
                       JOIN metodos_pago m ON m.id_metodo_pago = ul.id_metodo_pago
                      WHERE ul.id_comanda = p_id AND ul.estado = 'aplicado'
                      ORDER BY ul.id_pago DESC LIMIT 1), false) AS ultimo_efectivo
      FROM pagos WHERE id_comanda = p_id),
  r AS (SELECT coalesce(sum(monto), 0) AS reembolsado FROM reembolsos WHERE id_comanda = p_id),
  b AS (
    SELECT t.*, p.*, r.*, t.neto + t.recargo AS total_cuenta,
           t.neto + t.recargo - p.pagado AS bruto
      FROM t, p, r),
  f AS (
    SELECT b.*, CASE WHEN b.paso > 0 AND b.ultimo_efectivo AND b.bruto > 0 AND b.bruto < b.paso
                     THEN -b.bruto ELSE 0 END AS redondeo
      FROM b)
  SELECT f.lineas, f.descuento, f.recargo, f.total_cuenta,
         f.tasa_igv, round(f.neto / (1 + f.tasa_igv), 2), f.neto - round(f.neto / (1 + f.tasa_igv), 2),
         f.tasa_recargo, f.redondeo, f.propinas, f.pagado, f.reembolsado,
         f.bruto + f.redondeo,
         CASE WHEN f.paso > 0 AND f.bruto + f.redondeo > 0
              THEN floor((f.bruto + f.redondeo) / f.paso) * f.paso
              ELSE greatest(f.bruto + f.redondeo, 0) END,
         CASE WHEN f.reembolsado > 0 AND f.reembolsado >= f.pagado THEN 'reembolsada'
              WHEN f.reembolsado > 0 THEN 'reembolso_parcial'
              WHEN f.bruto + f.redondeo <= 0 AND (f.pagado > 0 OR f.estado = 'cerrada') THEN 'pagada'
              ELSE 'pendiente' END
    FROM f
$$;

COMMENT ON FUNCTION cuenta_comanda(bigint, text) IS
  'The bill of a comanda: subtotal, discount, service charge, total, IGV, rounding, tips, paid, refunded, balance (docs/cobros.md)';
`,
  `CREATE OR REPLACE FUNCTION reportes_refrescar(p_zona text)
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
`,
  `DROP FUNCTION IF EXISTS ventas_lineas`,
  `DROP FUNCTION IF EXISTS ventas`,
  `DROP FUNCTION IF EXISTS monto_neto`,
  `DROP FUNCTION IF EXISTS igv_tasa`,
  `DROP FUNCTION IF EXISTS comanda_descuento`,
];

export class ReglasDelDinero1796152894424 implements MigrationInterface {
  name = 'ReglasDelDinero1796152894424';

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
