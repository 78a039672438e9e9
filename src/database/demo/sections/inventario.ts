import { ADMIN, COCINA } from '../restaurant';
import { rowsOf, type DemoDataSummary, type DemoSeed } from '../seed-helpers';

/**
 * The demo's stock ledger: the year's purchases and sales replayed through the inventario
 * module's own store functions, in the order they happened, so the balances, the average costs
 * and the food cost are what the module would have kept had it been on all year.
 *
 * Before the replay, what a kitchen would have done around those rows:
 * - an opening balance (`inicial`) per material at the start of the year, three weeks of its
 *   usage at the suppliers' agreed price (so no sale is costed at zero);
 * - restock purchases that follow the sales: at the start of each month, a material whose
 *   purchases would not cover the month's usage plus a week is bought from its cheapest
 *   supplier (one invoice per supplier), at the agreed price give or take 4 %;
 * - a minimum stock of a week's usage per material;
 * - waste every Sunday night of the perishables (fish, seafood, lime, coriander), 3–6 % of the
 *   week's usage;
 * - a count at the end of every month, every material in stock counted a little short of the
 *   book (the loss nobody wrote down).
 * Then every purchase, close, waste and count is posted in time order. Voided comandas are left
 * out (a closed comanda deleted later gives its ingredients back: the net is nothing).
 *
 * All of it is set-based SQL and one PL/pgSQL loop; the choices come from ids, not from the
 * generator, so the sections before keep their values. Runs after the comandas, purchases and
 * staff are in.
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
            set_config('demo.admin', $3, true), set_config('demo.cocina', $4, true)`,
    [today, timeZone, String(ADMIN), String(COCINA)],
  );
  await query(PLAN);
  await query(REPLAY);
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
  v_mes     date;
  v_compra  integer;
  v_linea   bigint;
BEGIN
  -- usage per material and local day, from the closed comandas that stay closed
  CREATE TEMP TABLE demo_uso ON COMMIT DROP AS
  SELECT rp.id_mat_prima, (c.fec_cierre AT TIME ZONE v_tz)::date AS dia,
         sum(d.cantidad * rp.cantidad) AS cantidad
    FROM comandas c
    JOIN deta_comandas d ON d.id_comanda = c.id_comanda
    JOIN receta_producto rp ON rp.id_producto = d.id_producto
   WHERE c.estado = 'cerrada' AND NOT c.eliminada
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

  -- restock purchases, month by month: what the month's usage (and 8 % for waste and loss)
  -- and a week more would lack, bought from the material's cheapest supplier
  CREATE TEMP TABLE demo_reposicion (mes date, id_proveedor integer, id_mat_prima integer,
                                     cantidad numeric) ON COMMIT DROP;
  v_mes := date_trunc('month', v_inicio)::date;
  WHILE v_mes <= v_hoy LOOP
    INSERT INTO demo_reposicion
    SELECT v_mes, s.id_proveedor, s.id_mat_prima,
           ceil((2 * s.semanal - s.fin_de_mes) / s.paso) * s.paso
      FROM (
        SELECT x.id_mat_prima, x.paso, x.semanal, x.id_proveedor,
               ceil(3 * x.semanal / x.paso) * x.paso                      -- the opening balance
               + coalesce((SELECT sum(d.cantidad) FROM deta_comp_materias d
                             JOIN compras c ON c.id_compra = d.id_compra
                            WHERE d.id_mat_prima = x.id_mat_prima
                              AND (c.fec_compra AT TIME ZONE v_tz)::date
                                  < (v_mes + interval '1 month')::date), 0)
               + coalesce((SELECT sum(l.cantidad) FROM demo_reposicion l
                            WHERE l.id_mat_prima = x.id_mat_prima), 0)
               - 1.08 * coalesce((SELECT sum(u.cantidad) FROM demo_uso u
                                   WHERE u.id_mat_prima = x.id_mat_prima
                                     AND u.dia < (v_mes + interval '1 month')::date), 0) AS fin_de_mes
          FROM demo_materia x
         WHERE x.semanal > 0) s
     WHERE s.fin_de_mes < s.semanal;
    v_mes := (v_mes + interval '1 month')::date;
  END LOOP;

  -- one invoice per supplier and month, delivered on its first day (or the start of the year)
  v_compra := (SELECT coalesce(max(id_compra), 0) FROM compras);
  CREATE TEMP TABLE demo_factura ON COMMIT DROP AS
  SELECT v_compra + row_number() OVER (ORDER BY mes, id_proveedor) AS id_compra, mes, id_proveedor,
         ((greatest(mes, v_inicio) + time '08:00') AT TIME ZONE v_tz) AS fec
    FROM (SELECT DISTINCT mes, id_proveedor FROM demo_reposicion) f;
  INSERT INTO compras (id_compra, id_proveedor, fec_compra, total, observacion, created_at, updated_at)
  SELECT f.id_compra, f.id_proveedor, f.fec, 0,
         'Reposición ' || to_char(f.mes, 'MM/YYYY') || ', factura F002-'
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
           FROM generate_series(v_inicio + (7 - extract(isodow FROM v_inicio)::int), v_hoy - 1,
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
    FROM generate_series(date_trunc('month', v_inicio) + interval '1 month' - interval '1 day',
                         v_hoy - 1, interval '1 month') AS g(x)
   CROSS JOIN LATERAL (SELECT (date_trunc('month', g.x) + interval '1 month' - interval '1 day')::date AS fin) f
   CROSS JOIN LATERAL (SELECT ((f.fin + time '23:00') AT TIME ZONE v_tz) AS corte) t
   WHERE f.fin < v_hoy
   ORDER BY t.corte;
END
$plan$`;

/** Every effect posted through the module's own functions, in the order it happened. */
const REPLAY = `
DO $replay$
DECLARE
  v_tz      text := current_setting('demo.time_zone');
  v_inicio  timestamptz := ((current_setting('demo.today')::date - 366) + time '06:00')
                           AT TIME ZONE current_setting('demo.time_zone');
  v_admin   integer := current_setting('demo.admin')::integer;
  r         record;
BEGIN
  PERFORM stock_asentar(x.id_mat_prima, 'inicial', ceil(3 * x.semanal / x.paso) * x.paso,
                        round(x.precio, 6), 'inicial', x.id_mat_prima, NULL, v_inicio, v_admin,
                        'Saldo inicial')
     FROM demo_materia x
    WHERE x.semanal > 0;

  FOR r IN
    SELECT 1 AS orden, c.fec_compra AS fec, c.id_compra::bigint AS id FROM compras c
    UNION ALL
    SELECT 2, c.fec_cierre, c.id_comanda FROM comandas c WHERE c.estado = 'cerrada' AND NOT c.eliminada
    UNION ALL
    SELECT 3, w.fec, w.id_merma FROM mermas w
    UNION ALL
    SELECT 4, k.fec_corte, k.id_conteo FROM conteos k
    ORDER BY fec, orden, id
  LOOP
    IF r.orden = 1 THEN
      PERFORM inventario_sincronizar_compra(r.id::integer);
    ELSIF r.orden = 2 THEN
      PERFORM inventario_consumir_comanda(r.id, (SELECT id_usuario FROM comandas WHERE id_comanda = r.id),
                                          r.fec);
    ELSIF r.orden = 3 THEN
      PERFORM stock_asentar(w.id_mat_prima, 'merma', -w.cantidad, NULL, 'merma', w.id_merma, NULL,
                            w.fec, w.id_usuario, w.motivo)
         FROM mermas w WHERE w.id_merma = r.id;
    ELSE
      -- counted a little short of the book: 0.5-2.5 % for the perishables, up to 1 % for the rest
      INSERT INTO conteo_lineas (id_conteo, id_mat_prima, contado)
      SELECT r.id, s.id_mat_prima,
             greatest(0, floor(s.sistema * (1 - CASE WHEN s.id_mat_prima IN (1, 2, 6, 9, 10, 11, 13)
                                                      THEN 5 + (r.id * 13 + s.id_mat_prima * 7) % 21
                                                      ELSE (r.id * 11 + s.id_mat_prima * 5) % 11 END
                                                 / 1000.0) / s.paso * 10) * s.paso / 10)
        FROM (SELECT m.id_mat_prima, x.paso, sum(m.cantidad) AS sistema
                FROM stock_movimientos m
                JOIN demo_materia x ON x.id_mat_prima = m.id_mat_prima
               WHERE m.fec <= r.fec
               GROUP BY m.id_mat_prima, x.paso) s
       WHERE s.sistema > 0;
      PERFORM inventario_aplicar_conteo(r.id, v_admin);
      UPDATE conteos SET fec_aplicacion = r.fec + interval '10 hours', updated_at = r.fec + interval '10 hours'
       WHERE id_conteo = r.id;
    END IF;
  END LOOP;
END
$replay$`;
