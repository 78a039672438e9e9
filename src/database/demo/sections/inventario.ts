import { bulkLoad } from '../bulk-load';
import { ADMIN, COCINA } from '../restaurant';
import { rowsOf, type DemoDataSummary, type DemoSeed } from '../seed-helpers';

/**
 * The demo's stock ledger: the year's purchases and sales as the inventario module would have
 * posted them had it been on all year, so the balances, the average costs and the food cost
 * are the module's own.
 *
 * Around the purchases and sales, what a kitchen would have done:
 * - an opening balance (`inicial`) per material at the start of the year, three weeks of its
 *   usage at the suppliers' agreed price (so no sale is costed at zero);
 * - restock purchases that follow the sales: the fish terminal and the produce market deliver
 *   every Monday and Thursday what the days until the next delivery will use, the other
 *   suppliers on the first Monday of each month what the month will use, both with 8 % for
 *   waste and loss, from the material's cheapest supplier (one invoice per supplier and
 *   delivery), at the agreed price give or take 4 %;
 * - a minimum stock of a week's usage per material;
 * - waste every Sunday night of the perishables (fish, seafood, lime, coriander), 3–6 % of the
 *   week's usage;
 * - a count at the end of every month, every material in stock counted a little short of the
 *   book (the loss nobody wrote down), applied the next morning.
 * Voided comandas are left out (a closed comanda deleted later gives its ingredients back: the
 * net is nothing).
 *
 * The ledger is computed set-based, not posted one close at a time (a year is some 100,000
 * closes' worth of movements): every movement in the order the module's functions would have
 * posted them (by time; at one instant purchases, then closes, then waste, then counts; within
 * a purchase or a close by material), the counts' adjustments from the running quantity at
 * their cut-off, the moving average walked over the inflows alone (an outflow never changes
 * it), each outflow valued at the average in force, then one INSERT per table. The result is
 * what `stock_asentar`, `inventario_sincronizar_compra`, `inventario_consumir_comanda` and
 * `inventario_aplicar_conteo` write, row for row: test/inventario/inventario-demo.e2e-spec.ts
 * replays a small demo through those functions and compares.
 *
 * Choices come from ids, not from the generator, so the sections before keep their values.
 * Runs after the comandas, purchases and staff are in.
 */
export async function seedInventario(
  seed: DemoSeed,
): Promise<
  Pick<
    DemoDataSummary,
    'stock_movimientos' | 'mermas' | 'conteos' | 'compras' | 'deta_comp_materias'
  >
> {
  const { query, today, timeZone } = seed;
  // a DO block takes no parameters: they ride on transaction-local settings
  await query(
    `SELECT set_config('demo.today', $1, true), set_config('demo.time_zone', $2, true),
            set_config('demo.admin', $3, true), set_config('demo.cocina', $4, true),
            set_config('demo.frescos', $5, true),
            set_config('demo.alta', to_char(date_trunc('month', $1::date) - interval '2 months', 'YYYY-MM-DD'), true)`,
    [today, timeZone, String(ADMIN), String(COCINA), FRESCOS.join(',')],
  );
  await query(PLAN);
  await query(LEDGER_PLAN);
  await bulkLoad(query, ['stock_movimientos', 'consumos_venta'], [], async () => {
    await query(LEDGER_LOAD);
  });
  const [counts] = rowsOf<
    Record<'movimientos' | 'mermas' | 'conteos' | 'compras' | 'lineas', number>
  >(
    await query(
      `SELECT (SELECT count(*)::int FROM stock_movimientos) AS movimientos,
              (SELECT count(*)::int FROM mermas) AS mermas,
              (SELECT count(*)::int FROM conteos) AS conteos,
              (SELECT count(*)::int FROM demo_factura) AS compras,
              (SELECT count(*)::int FROM demo_reposicion) AS lineas`,
    ),
  );
  return {
    stock_movimientos: counts.movimientos,
    mermas: counts.mermas,
    conteos: counts.conteos,
    compras: counts.compras,
    deta_comp_materias: counts.lineas,
  };
}

/** The suppliers that deliver twice a week: the fish terminal and the produce market. */
const FRESCOS = [1, 2];

/**
 * Rounds a quantity up to what is bought or counted in the material's unidad: half a kg or a
 * litre, ten units, fifty grams or millilitres.
 */
const STEP = `CASE m.unidad WHEN 'unidad' THEN 10 WHEN 'g' THEN 50 WHEN 'ml' THEN 50 ELSE 0.5 END`;

/** Opening balances, minimums, restock purchases, waste and count sheets (not yet posted). */
const PLAN = `
DO $plan$
DECLARE
  v_tz      text := current_setting('demo.time_zone');
  v_hoy     date := current_setting('demo.today')::date;
  v_admin   integer := current_setting('demo.admin')::integer;
  v_cocina  integer := current_setting('demo.cocina')::integer;
  v_inicio  date := v_hoy - 366;
  -- the day the stock went live: the first of the month two months back
  v_alta    date := current_setting('demo.alta')::date;
  v_compra  integer;
  v_linea   bigint;
BEGIN
  -- usage per material and local day, from the closed comandas that stay closed
  -- (the sales per product and day first: a few thousand rows to multiply by the recipes)
  CREATE TEMP TABLE demo_uso ON COMMIT DROP AS
  SELECT rp.id_mat_prima, v.dia, sum(v.cantidad * rp.cantidad) AS cantidad
    FROM (SELECT d.id_producto, (c.fec_cierre AT TIME ZONE v_tz)::date AS dia, sum(d.cantidad) AS cantidad
            FROM comandas c
            JOIN deta_comandas d ON d.id_comanda = c.id_comanda
           WHERE c.estado = 'cerrada' AND NOT c.eliminada
           GROUP BY 1, 2) v
    JOIN receta_producto rp ON rp.id_producto = v.id_producto
   GROUP BY 1, 2;

  -- per material: its weekly usage over the year and the cheapest supplier's agreed price
  CREATE TEMP TABLE demo_materia ON COMMIT DROP AS
  SELECT m.id_mat_prima, m.unidad, ${STEP} AS paso,
         coalesce((SELECT sum(u.cantidad) FROM demo_uso u WHERE u.id_mat_prima = m.id_mat_prima), 0)
           / 52.0 AS semanal,
         (SELECT avg(pm.precio) FROM prov_mate_prima pm WHERE pm.id_mat_prima = m.id_mat_prima) AS precio,
         (SELECT pm.id_proveedor FROM prov_mate_prima pm WHERE pm.id_mat_prima = m.id_mat_prima
           ORDER BY pm.precio, pm.id_proveedor LIMIT 1) AS id_proveedor,
         (SELECT pm.precio FROM prov_mate_prima pm WHERE pm.id_mat_prima = m.id_mat_prima
           ORDER BY pm.precio, pm.id_proveedor LIMIT 1) AS precio_proveedor
    FROM mate_primas m;

  UPDATE mate_primas m
     SET stock_minimo = ceil(x.semanal / x.paso) * x.paso
    FROM demo_materia x
   WHERE x.id_mat_prima = m.id_mat_prima AND x.semanal > 0;

  -- restock deliveries that follow the sales: the fresh suppliers (the fish terminal and the
  -- produce market) every Monday and Thursday, the others on the first Monday of each month,
  -- each bringing what the days until the next delivery of its kind will use and 8 % more, from
  -- the material's cheapest supplier
  CREATE TEMP TABLE demo_entrega ON COMMIT DROP AS
  SELECT e.fecha, lead(e.fecha, 1, v_hoy) OVER (PARTITION BY e.frescos ORDER BY e.fecha) AS hasta, e.frescos
    FROM (SELECT g::date AS fecha, true AS frescos
            FROM generate_series(v_inicio + 1, v_hoy - 1, interval '1 day') AS g
           WHERE extract(isodow FROM g) IN (1, 4)
          UNION ALL
          SELECT min(g::date), false
            FROM generate_series(v_inicio + 1, v_hoy - 1, interval '1 day') AS g
           WHERE extract(isodow FROM g) = 1
           GROUP BY date_trunc('month', g)) e;
  CREATE TEMP TABLE demo_reposicion ON COMMIT DROP AS
  SELECT e.fecha AS mes, x.id_proveedor, x.id_mat_prima,
         ceil(1.08 * sum(u.cantidad) / x.paso) * x.paso AS cantidad
    FROM demo_materia x
    JOIN demo_entrega e
      ON e.frescos = (x.id_proveedor = ANY (string_to_array(current_setting('demo.frescos'), ',')::integer[]))
    JOIN demo_uso u ON u.id_mat_prima = x.id_mat_prima AND u.dia >= e.fecha AND u.dia < e.hasta
   WHERE x.semanal > 0
   GROUP BY e.fecha, x.id_proveedor, x.id_mat_prima, x.paso
  HAVING sum(u.cantidad) > 0;

  -- one invoice per supplier and delivery, in the morning
  v_compra := (SELECT coalesce(max(id_compra), 0) FROM compras);
  CREATE TEMP TABLE demo_factura ON COMMIT DROP AS
  SELECT v_compra + row_number() OVER (ORDER BY mes, id_proveedor) AS id_compra, mes, id_proveedor,
         ((mes + time '07:30') AT TIME ZONE v_tz) AS fec
    FROM (SELECT DISTINCT mes, id_proveedor FROM demo_reposicion) f;
  INSERT INTO compras (id_compra, id_proveedor, fec_compra, total, observacion, created_at, updated_at)
  SELECT f.id_compra, f.id_proveedor, f.fec, 0,
         'Reposición ' || to_char(f.mes, 'DD/MM/YYYY') || ', factura F002-'
           || lpad((4000 + f.id_compra * 7)::text, 8, '0'),
         f.fec, f.fec
    FROM demo_factura f
   ORDER BY f.id_compra;
  v_linea := (SELECT coalesce(max(id_deta_comp_materia), 0) FROM deta_comp_materias);
  INSERT INTO deta_comp_materias (id_deta_comp_materia, id_compra, id_mat_prima, cantidad, costo_unitario)
  SELECT v_linea + row_number() OVER (ORDER BY f.id_compra, l.id_mat_prima), f.id_compra,
         l.id_mat_prima, l.cantidad,
         round(x.precio_proveedor * (0.96 + ((f.id_compra * 31 + l.id_mat_prima * 17) % 9) / 100.0), 2)
    FROM demo_reposicion l
    JOIN demo_factura f ON f.mes = l.mes AND f.id_proveedor = l.id_proveedor
    JOIN demo_materia x ON x.id_mat_prima = l.id_mat_prima
   ORDER BY f.id_compra, l.id_mat_prima;
  UPDATE compras c
     SET total = s.total
    FROM (SELECT id_compra, sum(subtotal) AS total FROM deta_comp_materias GROUP BY id_compra) s
   WHERE s.id_compra = c.id_compra AND c.id_compra > v_compra;

  -- waste of the perishables every Sunday at 22:00, 3-6 % of the week's usage
  INSERT INTO mermas (id_mat_prima, cantidad, motivo, fec, id_usuario)
  SELECT w.id_mat_prima, w.cantidad, w.motivo, w.fec, v_cocina
    FROM (
      SELECT p.id_mat_prima, p.motivo, ((s.domingo + time '22:00') AT TIME ZONE v_tz) AS fec,
             round(sum(u.cantidad) * (3 + (s.n * 7 + p.id_mat_prima) % 4) / 100.0, 3) AS cantidad
        FROM (VALUES (1, 'Recortes y piel del pescado'), (2, 'Limones secos'),
                     (6, 'Culantro marchito'), (9, 'Mariscos fuera de la cadena de frío'))
               AS p(id_mat_prima, motivo)
       CROSS JOIN LATERAL (
         SELECT d::date AS domingo, row_number() OVER (ORDER BY d) AS n
           FROM generate_series(v_alta + (7 - extract(isodow FROM v_alta)::int), v_hoy - 1,
                                interval '7 days') AS d) s
        JOIN demo_uso u ON u.id_mat_prima = p.id_mat_prima
                       AND u.dia > s.domingo - 7 AND u.dia <= s.domingo
       GROUP BY p.id_mat_prima, p.motivo, s.domingo, s.n) w
   WHERE w.cantidad > 0
   ORDER BY w.fec, w.id_mat_prima;

  -- a count sheet at the end of every month that has ended, at 23:00 (lines when it is applied)
  INSERT INTO conteos (estado, fec_corte, observacion, id_usuario, created_at, updated_at)
  SELECT 'borrador', t.corte, 'Inventario de fin de mes ' || to_char(f.fin, 'MM/YYYY'),
         v_admin, t.corte, t.corte
    FROM generate_series(date_trunc('month', v_alta) + interval '1 month' - interval '1 day',
                         v_hoy - 1, interval '1 month') AS g(x)
   CROSS JOIN LATERAL (SELECT (date_trunc('month', g.x) + interval '1 month' - interval '1 day')::date AS fin) f
   CROSS JOIN LATERAL (SELECT ((f.fin + time '23:00') AT TIME ZONE v_tz) AS corte) t
   WHERE f.fin < v_hoy
   ORDER BY t.corte;
END
$plan$`;

/**
 * The ledger, computed: the consumptions, every movement in posting order with the counts'
 * adjustments, the moving average over the inflows (temporary tables; see the comment above).
 */
const LEDGER_PLAN = `
DO $ledger$
DECLARE
  v_tz      text := current_setting('demo.time_zone');
  v_inicio  timestamptz := (current_setting('demo.alta')::date + time '06:00')
                           AT TIME ZONE current_setting('demo.time_zone');
  v_admin   integer := current_setting('demo.admin')::integer;
  v_cortes  timestamptz[];
  k         record;
  r         record;
  v_mat     integer := -1;
  v_prom    numeric(14,6);
BEGIN
  -- one consumption per closed line with a recipe, keyed in the order of the closes
  CREATE TEMP TABLE demo_consumo ON COMMIT DROP AS
  SELECT row_number() OVER (ORDER BY c.fec_cierre, c.id_comanda, d.id_deta_comanda) AS id_consumo,
         d.id_deta_comanda AS id_item, d.id_comanda, d.id_producto, d.cantidad,
         c.fec_cierre AS fec, c.id_usuario
    FROM comandas c
    JOIN deta_comandas d ON d.id_comanda = c.id_comanda
   WHERE c.estado = 'cerrada' AND NOT c.eliminada AND c.fec_cierre > v_inicio
     AND d.id_producto IN (SELECT id_producto FROM receta_producto);

  -- every movement but the counts': (orden, id, sub, sub2) is the order the functions post in:
  -- at one instant purchases (1), closes (2), waste (3), counts (4); a purchase by material,
  -- a close by material and consumption
  CREATE TEMP TABLE demo_mov ON COMMIT DROP AS
  SELECT x.id_mat_prima, 'inicial'::text AS tipo, ceil(3 * x.semanal / x.paso) * x.paso AS cantidad,
         round(x.precio, 6)::numeric(14,6) AS costo, 'inicial'::text AS origen,
         x.id_mat_prima::bigint AS id_origen, NULL::bigint AS id_documento, v_inicio AS fec,
         v_admin AS id_usuario, 'Saldo inicial'::text AS motivo,
         0 AS orden, 0::bigint AS id, x.id_mat_prima AS sub, 0::bigint AS sub2
    FROM demo_materia x
   WHERE x.semanal > 0
  UNION ALL
  SELECT d.id_mat_prima, 'compra', round(d.cantidad, 4), d.costo_unitario, 'compra',
         d.id_deta_comp_materia, d.id_compra, c.fec_compra, NULL, NULL,
         1, c.id_compra, d.id_mat_prima, d.id_deta_comp_materia
    FROM deta_comp_materias d
    JOIN compras c ON c.id_compra = d.id_compra
   WHERE c.fec_compra > v_inicio
  UNION ALL
  SELECT rp.id_mat_prima, 'consumo_venta', -round(v.cantidad * rp.cantidad, 4), NULL, 'consumo',
         v.id_consumo, v.id_comanda, v.fec, v.id_usuario, NULL,
         2, v.id_comanda, rp.id_mat_prima, v.id_consumo
    FROM demo_consumo v
    JOIN receta_producto rp ON rp.id_producto = v.id_producto
   WHERE round(v.cantidad * rp.cantidad, 4) <> 0
  UNION ALL
  SELECT w.id_mat_prima, 'merma', -round(w.cantidad, 4), NULL, 'merma', w.id_merma, NULL, w.fec,
         w.id_usuario, w.motivo, 3, w.id_merma, 0, 0
    FROM mermas w;

  -- the counts: what the book holds at each cut-off (the movements up to it, the earlier
  -- counts' adjustments included), counted a little short: 0.5-2.5 % for the perishables, up
  -- to 1 % for the rest
  SELECT array_agg(fec_corte ORDER BY fec_corte) INTO v_cortes FROM conteos;
  CREATE TEMP TABLE demo_tramo ON COMMIT DROP AS
  SELECT m.id_mat_prima,
         -- the number of cut-offs before the movement (one at a cut-off counts in its count)
         coalesce(width_bucket(m.fec - interval '1 microsecond', v_cortes), 0) AS tramo,
         sum(m.cantidad) AS cantidad
    FROM demo_mov m
   GROUP BY 1, 2;
  CREATE TEMP TABLE demo_ajuste (id_conteo bigint, id_mat_prima integer, fec timestamptz,
                                 sistema numeric(14,4), contado numeric(14,4)) ON COMMIT DROP;
  FOR k IN SELECT id_conteo, fec_corte, row_number() OVER (ORDER BY fec_corte) AS n
             FROM conteos ORDER BY fec_corte LOOP
    INSERT INTO demo_ajuste
    SELECT k.id_conteo, s.id_mat_prima, k.fec_corte, s.sistema,
           greatest(0, floor(s.sistema * (1 - CASE WHEN s.id_mat_prima IN (1, 2, 6, 9, 10, 11, 13)
                                                    THEN 5 + (k.id_conteo * 13 + s.id_mat_prima * 7) % 21
                                                    ELSE (k.id_conteo * 11 + s.id_mat_prima * 5) % 11 END
                                               / 1000.0) / s.paso * 10) * s.paso / 10)
      FROM (SELECT x.id_mat_prima, x.paso,
                   coalesce((SELECT sum(t.cantidad) FROM demo_tramo t
                              WHERE t.id_mat_prima = x.id_mat_prima AND t.tramo < k.n), 0)
                   + coalesce((SELECT sum(a.contado - a.sistema) FROM demo_ajuste a
                                WHERE a.id_mat_prima = x.id_mat_prima), 0) AS sistema
              FROM demo_materia x
             WHERE EXISTS (SELECT 1 FROM demo_tramo t WHERE t.id_mat_prima = x.id_mat_prima AND t.tramo < k.n)) s
     WHERE s.sistema > 0;
  END LOOP;

  -- all of them in posting order, with the running quantity
  CREATE TEMP TABLE demo_asiento ON COMMIT DROP AS
  SELECT row_number() OVER (ORDER BY a.fec, a.orden, a.id, a.sub, a.sub2) AS id_movimiento, a.*,
         sum(a.cantidad) OVER (PARTITION BY a.id_mat_prima ORDER BY a.fec, a.orden, a.id, a.sub, a.sub2
                               ROWS UNBOUNDED PRECEDING) AS saldo,
         count(*) FILTER (WHERE a.tipo IN ('inicial', 'compra'))
           OVER (PARTITION BY a.id_mat_prima ORDER BY a.fec, a.orden, a.id, a.sub, a.sub2
                 ROWS UNBOUNDED PRECEDING) AS entrada
    FROM (SELECT * FROM demo_mov
          UNION ALL
          SELECT j.id_mat_prima, 'ajuste_conteo', j.contado - j.sistema, NULL, 'conteo', j.id_conteo,
                 j.id_conteo, j.fec, v_admin, NULL, 4, j.id_conteo, j.id_mat_prima, 0
            FROM demo_ajuste j
           WHERE j.contado <> j.sistema) a;

  -- the moving average after each inflow: (q0*c0 + q*c)/(q0 + q), or c when q0 <= 0
  CREATE TEMP TABLE demo_promedio (id_mat_prima integer, entrada bigint, promedio numeric(14,6)) ON COMMIT DROP;
  FOR r IN SELECT id_mat_prima, entrada, cantidad, costo, saldo - cantidad AS antes
             FROM demo_asiento WHERE tipo IN ('inicial', 'compra')
            ORDER BY id_mat_prima, id_movimiento LOOP
    IF r.id_mat_prima <> v_mat THEN
      v_mat := r.id_mat_prima;
      v_prom := 0;
    END IF;
    v_prom := CASE WHEN r.antes <= 0 THEN r.costo
                   ELSE round((r.antes * v_prom + r.cantidad * r.costo) / (r.antes + r.cantidad), 6) END;
    INSERT INTO demo_promedio VALUES (r.id_mat_prima, r.entrada, v_prom);
  END LOOP;

END
$ledger$`;

/** The ledger's rows: consumptions, movements, balances, count lines, the closed period. */
const LEDGER_LOAD = `
  -- each movement valued: an inflow at its own cost, the rest at the average in force
  INSERT INTO stock_movimientos (id_movimiento, id_mat_prima, tipo, cantidad, costo_unitario,
                                 valor, saldo_cantidad, saldo_costo, origen, id_origen,
                                 id_documento, fec, id_usuario, motivo)
  SELECT a.id_movimiento, a.id_mat_prima, a.tipo, a.cantidad, v.costo,
         round(a.cantidad * v.costo, 4), a.saldo, coalesce(p.promedio, 0), a.origen, a.id_origen,
         a.id_documento, a.fec, a.id_usuario, a.motivo
    FROM demo_asiento a
    LEFT JOIN demo_promedio p ON p.id_mat_prima = a.id_mat_prima AND p.entrada = a.entrada
   CROSS JOIN LATERAL (SELECT coalesce(CASE WHEN a.tipo IN ('inicial', 'compra') THEN a.costo END,
                                       p.promedio, 0) AS costo) v;

  -- each consumption's theoretical cost: what its movements took out
  INSERT INTO consumos_venta (id_consumo, id_item, id_comanda, id_producto, cantidad, costo_teorico, fec)
  SELECT v.id_consumo, v.id_item, v.id_comanda, v.id_producto, v.cantidad, coalesce(c.costo, 0), v.fec
    FROM demo_consumo v
    LEFT JOIN (SELECT a.id_origen, -sum(round(a.cantidad * coalesce(p.promedio, 0), 4)) AS costo
                 FROM demo_asiento a
                 LEFT JOIN demo_promedio p ON p.id_mat_prima = a.id_mat_prima AND p.entrada = a.entrada
                WHERE a.origen = 'consumo'
                GROUP BY a.id_origen) c ON c.id_origen = v.id_consumo;

  INSERT INTO stock_saldos (id_mat_prima, cantidad, valor, costo_promedio, movimientos)
  SELECT m.id_mat_prima, coalesce(s.cantidad, 0), coalesce(s.valor, 0), coalesce(s.promedio, 0),
         coalesce(s.n, 0)
    FROM mate_primas m
    LEFT JOIN (SELECT id_mat_prima, sum(cantidad) AS cantidad, sum(valor) AS valor, count(*) AS n,
                      (array_agg(saldo_costo ORDER BY id_movimiento DESC))[1] AS promedio
                 FROM stock_movimientos GROUP BY id_mat_prima) s ON s.id_mat_prima = m.id_mat_prima
   ORDER BY m.id_mat_prima;

  INSERT INTO conteo_lineas (id_conteo, id_mat_prima, contado, sistema)
  SELECT id_conteo, id_mat_prima, contado, sistema FROM demo_ajuste ORDER BY id_conteo, id_mat_prima;
  UPDATE conteos
     SET estado = 'aplicado', id_usuario_aplica = current_setting('demo.admin')::integer,
         fec_aplicacion = fec_corte + interval '10 hours', updated_at = fec_corte + interval '10 hours';
  UPDATE inventario_periodo SET cerrado_hasta = (SELECT max(fec_corte) FROM conteos);
`;
