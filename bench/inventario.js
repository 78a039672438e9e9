// Stock (src/inventario, the feature `inventario`): a stage of `npm run bench` (after the money
// stage) and, alone, `npm run bench:inventario` (docs/performance.md, "Stock (inventario)").
//
// Two tenants of the same shape: `inv_off` is made by the tenant CLI and seeded, `inv_on` is a
// copy of its database (CREATE DATABASE ... TEMPLATE); the CLI's per-tenant override switches
// `inventario` off on the first and on on the second, and `cobros` off on both (a close then
// needs no payment: the only difference is the stock). One service (FEATURE_INVENTARIO and
// FEATURE_COBROS false, the overrides decide) serves both. The seed, set-based SQL and the
// migration's own store functions:
//   - the demo data (menu of 34 dishes, 30 with a recipe: 12 of them of 5 raw materials, 37
//     materials, staff, tables, a year of comandas from before the ledger);
//   - a year of history: BENCH_INVENTARIO_LINES (100,000) closed lines of dishes with a recipe,
//     2 to 6 a comanda, from 11:00 to 23:15 every day of the 365 before today; a purchase of
//     every material each week (the week's use + 3 %, the first one two weeks'), waste every third
//     day, a count of every material on the 1st of each month (1 % less on the shelf than the
//     book), all posted day by day in time order, each day its own transaction, by the
//     migration's functions (inventario_aplicar_conteo, inventario_sincronizar_compra,
//     stock_asentar), the day's closes in one statement that writes what
//     inventario_consumir_comanda per comanda in order of close would (DAY_FUNCTION;
//     BENCH_INVENTARIO_SEED=functions calls it per comanda instead, about five times slower):
//     the ledger the service would have written;
//   - BENCH_INVENTARIO_COMANDAS (20,000) open comandas of 4 lines, 4 different dishes of 5 raw
//     materials each (a close posts 4 consumptions and 20 movements), and a purchase today of
//     what they will use (+20 %): the stock stays positive through the runs.
//
// 1. Closes: PUT /api/v1/comandas/:id {"action":"cerrar"}, each request on an open comanda of
//    its own, autocannon, BENCH_CONNECTIONS connections for BENCH_DURATION seconds, after 3 s of
//    warm-up on each tenant; BENCH_INVENTARIO_ROUNDS (4) rounds of one run off and one run on,
//    alternating which goes first (off, on, on, off, ...). Asked: closes/s with inventario on at
//    least 0.80 of those with it off; the ratio of each round and their median. Around each
//    run, the CPU time of the service's process and of its PostgreSQL sessions on that tenant
//    (/proc, by application_name) per close, and (track_functions) the time PostgreSQL spent in
//    inventario_consumir_comanda and the calls of stock_asentar per close. Afterwards every comanda a
//    request was sent for is closed or untouched, the closed ones on inv_on have 4 live
//    consumptions and 20 movements each and those on inv_off none, and inv_on's balances are
//    the sums of its ledger.
// 2. The consumption report, GET /api/v1/inventario/consumo?desde&hasta, on inv_on before the
//    closes: over the year (the 365 days before today and today) and over the month between the
//    last two counts, one request at a time, in turn, BENCH_INVENTARIO_REPORTS (40) of each after
//    5 of warm-up: p50 and p95 (asked: p50 under 500 ms). Every answer is checked (200; its
//    comandas and theoretical cost equal to what SQL counts and sums from the rows). Then
//    EXPLAIN (ANALYZE, BUFFERS) of the report's statements over the year
//    (BENCH_INVENTARIO_EXPLAIN=1 prints the plans).
// Fails (the bench exits 1) on any answer other than 200, a comanda closed without its
// consumption (or with one while off), a balance that is not its ledger's sum, or report figures
// that are not the rows'. Alone, BENCH_PROFILE=1 runs the service with --cpu-prof.
require('reflect-metadata');
const { readFileSync } = require('node:fs');
const http = require('node:http');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const autocannon = require('autocannon');
const { freePort, run, start, withClient } = require('./support/processes');
const { fmt, printProfile, runMain, runStandalone } = require('./support/standalone');
const { call, latencyFigures } = require('./support/requests');

const DIST = join(__dirname, '..', 'dist');
const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 16);
const WARM_UP_S = 3;
const LINES = Number(env.BENCH_INVENTARIO_LINES ?? 100_000);
const OPEN_COMANDAS = Number(env.BENCH_INVENTARIO_COMANDAS ?? 20_000);
const ROUNDS = Math.max(2, Number(env.BENCH_INVENTARIO_ROUNDS ?? 4));
const REPORTS = Number(env.BENCH_INVENTARIO_REPORTS ?? 40);
const REPORT_WARM_UP = 5;
const EXPLAIN = env.BENCH_INVENTARIO_EXPLAIN === '1';
/** How the history's closes are posted: `set` (a day in one statement) or `functions`. */
const SEED_POSTING = env.BENCH_INVENTARIO_SEED === 'functions' ? 'functions' : 'set';
const PROFILE = env.BENCH_PROFILE === '1';
const HOST = '127.0.0.1';
const DAYS = 365;
/** A close's lines, each a different dish whose recipe has this many raw materials. */
const CLOSE_LINES = 4;
const RECIPE_SIZE = 5;
/** The tenants: the same database, the feature off and on. */
const OFF = 'inv_off';
const ON = 'inv_on';
/** What is asked: closes/s with the feature on against off, the report's p50. */
const TARGET_RATIO = 0.8;
const TARGET_P50_MS = 500;

/**
 * A day's postings, in the order of their instants: the count (06:00), the purchases (07:00), the
 * closes (11:00 – 23:15), the waste (23:30), each by the migration's function, except the closes
 * when `p_set`: then the day's closes are posted in one statement, what
 * inventario_consumir_comanda called per comanda in order of close would write (a consumption per
 * line with a recipe, a consumo_venta per ingredient valued at the average cost, the running
 * balance, the line's theoretical cost, the balances): the same ledger, since nothing comes in
 * between two closes of a day and an outflow leaves the average as it was; five times faster.
 */
const DAY_FUNCTION = `
  CREATE FUNCTION pg_temp.bench_inventario_dia(
    p_dia date, p_tz text, p_conteo boolean, p_compras_desde integer, p_comandas_desde bigint,
    p_set boolean)
  RETURNS integer
  LANGUAGE plpgsql AS $fn$
    DECLARE
      v_desde   timestamptz := p_dia::timestamp AT TIME ZONE p_tz;
      v_hasta   timestamptz := (p_dia + 1)::timestamp AT TIME ZONE p_tz;
      v_conteo  bigint;
      v_ids     bigint[];
      v_n       integer;
      r         record;
      n         integer := 0;
    BEGIN
      IF p_conteo THEN
        INSERT INTO conteos (fec_corte, observacion)
        VALUES ((p_dia::timestamp + interval '6 hours') AT TIME ZONE p_tz, 'conteo mensual')
        RETURNING id_conteo INTO v_conteo;
        INSERT INTO conteo_lineas (id_conteo, id_mat_prima, contado)
        SELECT v_conteo, s.id_mat_prima,
               CASE WHEN mp.unidad = 'unidad' THEN greatest(0, floor(s.cantidad * 0.99))
                    ELSE greatest(0, round(s.cantidad * 0.99, 3)) END
          FROM stock_saldos s JOIN mate_primas mp ON mp.id_mat_prima = s.id_mat_prima;
        n := n + inventario_aplicar_conteo(v_conteo, NULL);
      END IF;
      FOR r IN SELECT id_compra FROM compras
                WHERE id_compra > p_compras_desde AND fec_compra >= v_desde AND fec_compra < v_hasta
                ORDER BY fec_compra, id_compra LOOP
        n := n + inventario_sincronizar_compra(r.id_compra, NULL);
      END LOOP;
      IF NOT p_set THEN
        FOR r IN SELECT id_comanda FROM comandas
                  WHERE id_comanda > p_comandas_desde AND fec_cierre >= v_desde AND fec_cierre < v_hasta
                  ORDER BY fec_cierre, id_comanda LOOP
          n := n + inventario_consumir_comanda(r.id_comanda, NULL);
        END LOOP;
      ELSE
        WITH nuevos AS (
          INSERT INTO consumos_venta (id_item, id_comanda, id_producto, cantidad, fec)
          SELECT d.id_deta_comanda, d.id_comanda, d.id_producto, d.cantidad, c.fec_cierre
            FROM comandas c JOIN deta_comandas d ON d.id_comanda = c.id_comanda
           WHERE c.id_comanda > p_comandas_desde AND c.fec_cierre >= v_desde AND c.fec_cierre < v_hasta
             AND EXISTS (SELECT 1 FROM receta_producto rp WHERE rp.id_producto = d.id_producto)
           ORDER BY c.fec_cierre, c.id_comanda, d.id_deta_comanda
          RETURNING id_consumo)
        SELECT array_agg(id_consumo) INTO v_ids FROM nuevos;
        IF v_ids IS NOT NULL THEN
          INSERT INTO stock_saldos (id_mat_prima)
          SELECT DISTINCT rp.id_mat_prima
            FROM consumos_venta c JOIN receta_producto rp ON rp.id_producto = c.id_producto
           WHERE c.id_consumo = ANY (v_ids)
          ON CONFLICT DO NOTHING;
          WITH e AS (
            SELECT c.id_consumo, c.id_comanda, c.fec, rp.id_mat_prima,
                   -round(c.cantidad * rp.cantidad, 4) AS cantidad
              FROM consumos_venta c JOIN receta_producto rp ON rp.id_producto = c.id_producto
             WHERE c.id_consumo = ANY (v_ids)),
          v AS (
            SELECT e.*, s.costo_promedio AS costo,
                   s.cantidad + sum(e.cantidad) OVER (PARTITION BY e.id_mat_prima
                                                      ORDER BY e.fec, e.id_comanda, e.id_consumo) AS saldo
              FROM e JOIN stock_saldos s ON s.id_mat_prima = e.id_mat_prima
             WHERE e.cantidad <> 0),
          m AS (
            INSERT INTO stock_movimientos (id_mat_prima, tipo, cantidad, costo_unitario, valor,
                                           saldo_cantidad, saldo_costo, origen, id_origen,
                                           id_documento, fec)
            SELECT v.id_mat_prima, 'consumo_venta', v.cantidad, v.costo, round(v.cantidad * v.costo, 4),
                   v.saldo, v.costo, 'consumo', v.id_consumo, v.id_comanda, v.fec
              FROM v ORDER BY v.fec, v.id_comanda, v.id_mat_prima, v.id_consumo
            RETURNING id_mat_prima, id_origen, cantidad, valor),
          saldos AS (
            UPDATE stock_saldos s
               SET cantidad = s.cantidad + a.cantidad, valor = s.valor + a.valor,
                   movimientos = s.movimientos + a.n, updated_at = now()
              FROM (SELECT id_mat_prima, sum(cantidad) AS cantidad, sum(valor) AS valor, count(*) AS n
                      FROM m GROUP BY id_mat_prima) a
             WHERE s.id_mat_prima = a.id_mat_prima),
          costos AS (
            UPDATE consumos_venta c SET costo_teorico = a.costo
              FROM (SELECT id_origen, -sum(valor) AS costo FROM m GROUP BY id_origen) a
             WHERE c.id_consumo = a.id_origen)
          SELECT count(*) INTO v_n FROM m;
          n := n + v_n;
        END IF;
      END IF;
      FOR r IN SELECT * FROM mermas WHERE fec >= v_desde AND fec < v_hasta ORDER BY fec, id_merma LOOP
        PERFORM stock_asentar(r.id_mat_prima, 'merma', -r.cantidad, NULL, 'merma', r.id_merma,
                              NULL, r.fec, NULL, r.motivo);
        n := n + 1;
      END LOOP;
      RETURN n;
    END;
  $fn$;
`;

/**
 * Seeds a migrated, empty tenant database (module comment): the demo data, a year of history
 * with its ledger posted, and the open comandas of the closes. Answers what was seeded.
 */
async function seedInventario(
  client,
  { timeZone, lines = LINES, open = OPEN_COMANDAS, posting = SEED_POSTING },
) {
  const { seedDemoData } = require(join(DIST, 'database', 'demo', 'demo-data'));
  const started = performance.now();
  const {
    rows: [{ today }],
  } = await client.query(`SELECT to_char((now() AT TIME ZONE $1)::date, 'YYYY-MM-DD') AS today`, [
    timeZone,
  ]);
  await client.query('BEGIN');
  // the demo restaurant at one ticket a day: its menu, recipes, suppliers and staff
  await seedDemoData((sql, params) => client.query(sql, params).then((r) => r.rows), {
    today,
    timeZone,
    scale: 0.01,
  });
  // The demo data brings its own ledger since the stock went live (its closes consumed, its
  // restock purchases, waste and month-end counts that close the period up to last month): the history below is
  // the ledger here, posted from a book that starts empty, so the demo's is taken out (the
  // append-only trigger set aside for it, in this bench database only). Its restock purchases
  // stay as rows, never posted, like the demo's other purchases.
  await client.query(`
    ALTER TABLE stock_movimientos DISABLE TRIGGER tg_stock_movimientos_sin_truncate;
    TRUNCATE stock_movimientos, stock_saldos, consumos_venta, mermas, conteo_lineas, conteos;
    ALTER TABLE stock_movimientos ENABLE TRIGGER tg_stock_movimientos_sin_truncate;
    UPDATE inventario_periodo SET cerrado_hasta = NULL;
    UPDATE mate_primas SET stock_minimo = NULL;
  `);
  const {
    rows: [before],
  } = await client.query(
    `SELECT (SELECT max(id_comanda) FROM comandas)::bigint AS comanda,
            (SELECT coalesce(max(id_compra), 0) FROM compras)::int AS compra`,
  );
  // the history's comandas: 2 to 6 lines (4 on average), from 365 days ago to yesterday
  const comandas = Math.ceil(lines / 4);
  await client.query(
    `INSERT INTO comandas (id_mesa, id_usuario, estado, fec_apertura, fec_cierre)
     SELECT 1 + n % 12, 1 + n % 8, 'cerrada', t.a, t.a + interval '45 minutes'
       FROM generate_series(0, $1 - 1) n
      CROSS JOIN LATERAL (
        SELECT (($2::date - $3::int + (n::bigint * $3 / $1)::int)::timestamp + interval '11 hours'
                + ((n * 7919) % 41400) * interval '1 second') AT TIME ZONE $4 AS a) t
      ORDER BY t.a`,
    [comandas, today, DAYS, timeZone],
  );
  await client.query(
    `WITH menu AS (
       SELECT id_producto, precio, row_number() OVER (ORDER BY id_producto) - 1 AS i
         FROM productos p
        WHERE activo AND EXISTS (SELECT 1 FROM receta_producto r WHERE r.id_producto = p.id_producto))
     INSERT INTO deta_comandas (id_comanda, id_producto, cantidad, precio_unitario, id_usuario)
     SELECT c.id_comanda, m.id_producto, CASE WHEN (c.id_comanda + k) % 5 = 0 THEN 2 ELSE 1 END,
            m.precio, c.id_usuario
       FROM comandas c
      CROSS JOIN generate_series(1, 2 + (c.id_comanda % 5)::int) k
       JOIN menu m ON m.i = (c.id_comanda * 7 + k * 3) % (SELECT count(*) FROM menu)
      WHERE c.id_comanda > $1
      ORDER BY c.id_comanda, k`,
    [before.comanda],
  );
  // the open comandas of the closes: 4 different dishes of 5 raw materials each
  await client.query(
    `INSERT INTO comandas (id_mesa, id_usuario, fec_apertura)
     SELECT 1 + n % 12, 1 + n % 8, now() - (n % 180) * interval '1 minute'
       FROM generate_series(1, $1) n`,
    [open],
  );
  const {
    rows: [{ abiertas }],
  } = await client.query(
    `SELECT min(id_comanda)::bigint - 1 AS abiertas FROM comandas WHERE estado = 'abierta' AND id_comanda > $1`,
    [before.comanda],
  );
  await client.query(
    `WITH menu AS (
       SELECT p.id_producto, p.precio, row_number() OVER (ORDER BY p.id_producto) - 1 AS i
         FROM productos p
        WHERE p.activo AND (SELECT count(*) FROM receta_producto r WHERE r.id_producto = p.id_producto) = $2)
     INSERT INTO deta_comandas (id_comanda, id_producto, cantidad, precio_unitario, id_usuario)
     SELECT c.id_comanda, m.id_producto, 1, m.precio, c.id_usuario
       FROM comandas c
      CROSS JOIN generate_series(0, $3 - 1) k
       JOIN menu m ON m.i = (c.id_comanda * 5 + k * 3) % (SELECT count(*) FROM menu)
      WHERE c.id_comanda > $1
      ORDER BY c.id_comanda, k`,
    [abiertas, RECIPE_SIZE, CLOSE_LINES],
  );
  await client.query(
    `UPDATE comandas c SET total = s.sum
       FROM (SELECT id_comanda, sum(subtotal) AS sum FROM deta_comandas
              WHERE id_comanda > $1 GROUP BY 1) s
      WHERE s.id_comanda = c.id_comanda`,
    [before.comanda],
  );
  // a purchase of every material each week (07:00 of day 7w): that week's use + 3 %, the
  // first one two weeks'; and one today of what the open comandas use + 20 %; at the demo's
  // average price of the material, moving ±8 % over the year
  await client.query(
    `CREATE TEMP TABLE bench_uso ON COMMIT DROP AS
     SELECT rp.id_mat_prima, mp.unidad,
            CASE WHEN c.estado = 'abierta' THEN -1
                 ELSE floor(((c.fec_cierre AT TIME ZONE $3)::date - ($2::date - $4::int)) / 7) END::int AS semana,
            sum(d.cantidad * rp.cantidad) AS q
       FROM comandas c
       JOIN deta_comandas d ON d.id_comanda = c.id_comanda
       JOIN receta_producto rp ON rp.id_producto = d.id_producto
       JOIN mate_primas mp ON mp.id_mat_prima = rp.id_mat_prima
      WHERE c.id_comanda > $1
      GROUP BY 1, 2, 3`,
    [before.comanda, today, timeZone, DAYS],
  );
  await client.query(
    `INSERT INTO compras (id_proveedor, fec_compra, observacion)
     SELECT (SELECT min(id_proveedor) FROM proveedores),
            CASE WHEN w < 0 THEN now() - interval '1 hour'
                 ELSE (($1::date - $3::int + 7 * w)::timestamp + interval '7 hours') AT TIME ZONE $2 END,
            CASE WHEN w < 0 THEN 'compra del día' ELSE 'compra semanal ' || w END
       FROM (SELECT DISTINCT semana AS w FROM bench_uso) s
      ORDER BY 2`,
    [today, timeZone, DAYS],
  );
  await client.query(
    `WITH costo AS (
       SELECT mp.id_mat_prima,
              coalesce((SELECT avg(d.costo_unitario) FROM deta_comp_materias d
                         WHERE d.id_mat_prima = mp.id_mat_prima), 10) AS base
         FROM mate_primas mp),
     semanas AS (
       SELECT c.id_compra, CASE WHEN c.observacion = 'compra del día' THEN -1
                                ELSE substr(c.observacion, 16)::int END AS w
         FROM compras c WHERE c.id_compra > $1)
     INSERT INTO deta_comp_materias (id_compra, id_mat_prima, cantidad, costo_unitario)
     SELECT s.id_compra, u.id_mat_prima,
            CASE WHEN u.unidad = 'unidad' THEN ceil(q.q) ELSE ceil(q.q * 1000) / 1000 END,
            greatest(0.01, round(k.base * (1 + 0.08 * sin(s.w / 6.0 + u.id_mat_prima))::numeric, 2))
       FROM semanas s
       JOIN bench_uso u ON u.semana = s.w
       JOIN costo k ON k.id_mat_prima = u.id_mat_prima
      CROSS JOIN LATERAL (
        SELECT CASE WHEN s.w < 0 THEN u.q * 1.2
                    WHEN s.w = 0 THEN u.q * 1.03 + coalesce((SELECT n.q FROM bench_uso n
                                        WHERE n.id_mat_prima = u.id_mat_prima AND n.semana = 1), 0)
                    ELSE u.q * 1.03 END AS q) q
      WHERE q.q > 0
      ORDER BY s.id_compra, u.id_mat_prima`,
    [before.compra],
  );
  await client.query(
    `UPDATE compras c SET total = s.sum
       FROM (SELECT id_compra, sum(subtotal) AS sum FROM deta_comp_materias
              WHERE id_compra > $1 GROUP BY 1) s
      WHERE s.id_compra = c.id_compra`,
    [before.compra],
  );
  // waste every third day at 23:30, 1 % of a week's use of one material
  await client.query(
    `INSERT INTO mermas (id_mat_prima, cantidad, motivo, fec)
     SELECT u.id_mat_prima,
            CASE WHEN u.unidad = 'unidad' THEN greatest(1, round(u.q / 100)) ELSE greatest(0.01, round(u.q / 100, 3)) END,
            CASE WHEN d % 2 = 0 THEN 'vencido' ELSE 'se cayó en cocina' END,
            (($1::date - $3::int + d)::timestamp + interval '23 hours 30 minutes') AT TIME ZONE $2
       FROM generate_series(1, $3 - 1, 3) d
       JOIN LATERAL (SELECT * FROM bench_uso u WHERE u.semana = d / 7
                      ORDER BY u.id_mat_prima OFFSET (d * 11) % 30 LIMIT 1) u ON true
      ORDER BY 4`,
    [today, timeZone, DAYS],
  );
  await client.query('COMMIT');
  const seededAt = performance.now();

  // the ledger, day by day in time order, each day its own transaction; a count on the 1st
  // of each month from the second week on
  await client.query(DAY_FUNCTION);
  const { rows: days } = await client.query(
    `SELECT to_char(d, 'YYYY-MM-DD') AS dia, extract(day FROM d) = 1 AND d > $1::date - $2::int + 7 AND d < $1::date AS conteo
       FROM generate_series($1::date - $2::int, $1::date, interval '1 day') d ORDER BY d`,
    [today, DAYS],
  );
  let movements = 0;
  for (const { dia, conteo } of days) {
    const { rows } = await client.query(
      'SELECT pg_temp.bench_inventario_dia($1, $2, $3, $4, $5, $6) AS n',
      [dia, timeZone, conteo, before.compra, before.comanda, posting === 'set'],
    );
    movements += rows[0].n;
  }
  const postedAt = performance.now();
  // what autovacuum would have done by then
  await client.query('VACUUM ANALYZE');
  const {
    rows: [counts],
  } = await client.query(
    `SELECT (SELECT count(*)::int FROM stock_movimientos) AS movimientos,
            (SELECT count(*)::int FROM stock_movimientos WHERE tipo = 'consumo_venta') AS consumos,
            (SELECT count(*)::int FROM consumos_venta) AS lineas,
            (SELECT count(*)::int FROM comandas WHERE id_comanda > $1 AND id_comanda <= $2) AS comandas,
            (SELECT count(*)::int FROM deta_comp_materias WHERE id_compra > $3) AS compras,
            (SELECT count(*)::int FROM mermas) AS mermas,
            (SELECT count(*)::int FROM conteos WHERE estado = 'aplicado') AS conteos,
            (SELECT count(*)::int FROM comandas WHERE id_comanda > $2) AS abiertas,
            (SELECT count(*)::int FROM stock_saldos WHERE cantidad < 0) AS negativos,
            pg_size_pretty(pg_total_relation_size('stock_movimientos')) AS ledger_size`,
    [before.comanda, abiertas, before.compra],
  );
  const { rows: openIds } = await client.query(
    `SELECT id_comanda::int AS id FROM comandas WHERE id_comanda > $1 ORDER BY id_comanda`,
    [abiertas],
  );
  return {
    counts,
    posted: movements,
    openIds: openIds.map((r) => r.id),
    firstOpen: Number(abiertas) + 1,
    seedMs: seededAt - started,
    postMs: postedAt - seededAt,
    vacuumMs: performance.now() - postedAt,
  };
}

/**
 * The stage's two tenants: OFF created by the tenant CLI and seeded, ON a copy of its database
 * added to the catalog; the per-tenant overrides set by the CLI; track_functions on both
 * databases (the time PostgreSQL spends in the ledger's functions).
 */
async function provisionTenants({ serverUrl, cliEnv, prefix, timeZone }) {
  const { withDatabase } = require(join(DIST, 'database', 'pg-url'));
  const tenantCli = join(DIST, 'cli', 'tenant.cli.js');
  await run(
    tenantCli,
    ['create', OFF, '--name', 'Inventario off', '--time-zone', timeZone],
    cliEnv,
  );
  const urls = {
    [OFF]: withDatabase(serverUrl, `${prefix}${OFF}`),
    [ON]: withDatabase(serverUrl, `${prefix}${ON}`),
  };
  const seeded = await withClient(urls[OFF], (c) => seedInventario(c, { timeZone }));
  const cloned = performance.now();
  await withClient(serverUrl, async (admin) => {
    await admin.query(
      `CREATE DATABASE "${prefix}${ON}" TEMPLATE "${prefix}${OFF}" STRATEGY = FILE_COPY`,
    );
    for (const slug of [OFF, ON])
      await admin.query(`ALTER DATABASE "${prefix}${slug}" SET track_functions = 'pl'`);
  });
  await withClient(urls[ON], (c) => c.query('SELECT count(*) FROM comandas')); // its catalog cache
  await withClient(cliEnv.DATABASE_URL, (control) =>
    control.query(
      `INSERT INTO tenants (slug, name, database_name, status, time_zone, features, migrated_at)
       SELECT $1, 'Inventario on', $2, status, time_zone, features, migrated_at
         FROM tenants WHERE slug = $3`,
      [ON, `${prefix}${ON}`, OFF],
    ),
  );
  for (const [slug, state] of [
    [OFF, 'off'],
    [ON, 'on'],
  ]) {
    await run(tenantCli, ['feature', slug, 'inventario', state], cliEnv);
    await run(tenantCli, ['feature', slug, 'cobros', 'off'], cliEnv);
  }
  return { urls, seeded, cloneMs: performance.now() - cloned };
}

/** The service of the stage: both tenants, FEATURE_INVENTARIO and FEATURE_COBROS false. */
function startService({ work, cliEnv, serviceConfig, poolMax, nodeArgs = [] }) {
  return (async () => {
    const port = await freePort();
    const service = start(
      join(DIST, 'main.js'),
      [],
      {
        ...cliEnv,
        ...serviceConfig,
        TENANT_POOL_MAX: String(poolMax),
        PORT: String(port),
        HOST,
        LOG_LEVEL: 'info',
        RATE_LIMIT_MAX: '0',
        FEATURE_COBROS: 'false',
        FEATURE_INVENTARIO: 'false',
      },
      'is listening on',
      join(work, 'service-inventario.log'),
      nodeArgs,
    );
    try {
      await service.ready;
    } catch (error) {
      await service.stop();
      throw error;
    }
    return { port, pid: service.child.pid, stop: service.stop };
  })();
}

/** utime + stime of a process in milliseconds (clock ticks of 10 ms); undefined if unreadable. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * The CPU time so far of the service's process and of its PostgreSQL sessions on a tenant's
 * database (by application_name), and PostgreSQL's time in the ledger's functions there.
 */
async function readings(pid, slug, url) {
  return withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
      [`comandas:${slug}`],
    );
    const { rows: functions } = await c.query(
      `SELECT funcname, calls::int, total_time FROM pg_stat_user_functions
        WHERE funcname IN ('inventario_consumir_comanda', 'stock_asentar')`,
    );
    return {
      server: cpuMs(pid),
      backends: new Map(rows.map((r) => [r.pid, cpuMs(r.pid)])),
      functions: Object.fromEntries(functions.map((f) => [f.funcname, f])),
    };
  });
}

/** Per close between two readings: CPU of the process and of the sessions, the functions' time. */
function perClose(before, after, closes) {
  let postgres = 0;
  let readable = after.backends.size > 0;
  for (const [pid, ms] of after.backends) {
    if (ms === undefined) readable = false;
    else postgres += ms - (before.backends.get(pid) ?? 0);
  }
  const fn = (name, key) =>
    ((after.functions[name]?.[key] ?? 0) - (before.functions[name]?.[key] ?? 0)) / closes;
  return {
    server: (after.server - before.server) / closes,
    postgres: readable ? postgres / closes : NaN,
    consumir: fn('inventario_consumir_comanda', 'total_time'),
    asentarCalls: fn('stock_asentar', 'calls'),
  };
}

/** The comandas in turn, each once; past the last, `exhausted` and the last again (a 409). */
function queueOf(ids) {
  let next = 0;
  return {
    exhausted: false,
    next() {
      if (next >= ids.length) {
        this.exhausted = true;
        return ids[ids.length - 1];
      }
      return ids[next++];
    },
    get used() {
      return Math.min(next, ids.length);
    },
  };
}

async function closeLoad(port, tenant, queue, duration, measured) {
  const used = queue.used;
  const before = measured && (await readings(measured.pid, tenant, measured.url));
  const result = await autocannon({
    url: `http://${HOST}:${port}`,
    connections: CONNECTIONS,
    duration,
    headers: { 'x-tenant-id': tenant, 'content-type': 'application/json' },
    requests: [
      {
        method: 'PUT',
        body: '{"action":"cerrar"}',
        setupRequest: (req) => ({ ...req, path: `/api/v1/comandas/${queue.next()}` }),
      },
    ],
  });
  let cpu;
  if (measured) {
    await sleep(1_200); // the requests in flight finish; the sessions report their statistics
    const after = await readings(measured.pid, tenant, measured.url);
    cpu = perClose(before, after, queue.used - used);
  }
  return {
    tenant,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    errors: result.errors + result.timeouts + result.non2xx,
    cpu,
  };
}

/** The median of a list of numbers. */
const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)];
};

/**
 * What became of the comandas requests were sent for (ids from `first`, `used` of them): closed
 * or untouched; on ON each closed one with CLOSE_LINES live consumptions and
 * CLOSE_LINES x RECIPE_SIZE movements, on OFF none; ON's balances the sums of its ledger.
 */
async function checkCloses(urls, first, used, answered, problems) {
  const out = {};
  for (const slug of [OFF, ON]) {
    const row = await withClient(urls[slug], async (c) => {
      const { rows } = await c.query(
        `WITH t AS (SELECT id_comanda, estado FROM comandas WHERE id_comanda >= $1 AND id_comanda < $1 + $2),
         k AS (SELECT c.id_comanda, count(*) AS n FROM consumos_venta c JOIN t USING (id_comanda)
                WHERE NOT c.revertido GROUP BY 1),
         m AS (SELECT m.id_documento AS id_comanda, count(*) AS n FROM stock_movimientos m
                WHERE m.origen = 'consumo' AND m.tipo = 'consumo_venta'
                  AND m.id_documento >= $1 AND m.id_documento < $1 + $2 GROUP BY 1)
         SELECT count(*) FILTER (WHERE t.estado = 'cerrada')::int AS cerradas,
                count(*) FILTER (WHERE t.estado = 'cerrada' AND coalesce(k.n, 0) = $3
                                   AND coalesce(m.n, 0) = $3 * $4)::int AS consumidas,
                count(*) FILTER (WHERE coalesce(k.n, 0) > 0 OR coalesce(m.n, 0) > 0)::int AS con_consumo,
                (SELECT count(*)::int FROM stock_saldos s
                   LEFT JOIN (SELECT id_mat_prima, sum(cantidad) AS q, sum(valor) AS v
                                FROM stock_movimientos GROUP BY 1) x ON x.id_mat_prima = s.id_mat_prima
                  WHERE s.cantidad <> coalesce(x.q, 0) OR s.valor <> coalesce(x.v, 0)) AS descuadres,
                (SELECT count(*)::int FROM stock_saldos WHERE cantidad < 0) AS negativos
           FROM t LEFT JOIN k USING (id_comanda) LEFT JOIN m USING (id_comanda)`,
        [first, used[slug], CLOSE_LINES, RECIPE_SIZE],
      );
      return rows[0];
    });
    out[slug] = row;
    const bad =
      row.cerradas < answered[slug] ||
      row.cerradas > used[slug] ||
      row.descuadres > 0 ||
      (slug === ON ? row.consumidas !== row.cerradas : row.con_consumo > 0);
    if (bad)
      problems.push(
        `${slug}: ${row.cerradas} comandas closed for ${answered[slug]} answers 200 of ${used[slug]} requests, ` +
          `${row.consumidas} with their ${CLOSE_LINES} consumptions and ${CLOSE_LINES * RECIPE_SIZE} movements, ` +
          `${row.con_consumo} with any; ${row.descuadres} balances that are not their ledger's sum`,
      );
  }
  return out;
}

/** The report's periods: the year (365 days before today, and today), the last two counts'. */
async function periods(url, timeZone) {
  return withClient(url, async (c) => {
    const {
      rows: [p],
    } = await c.query(
      `SELECT to_char((now() AT TIME ZONE $1)::date - $2::int, 'YYYY-MM-DD') AS desde,
              to_char((now() AT TIME ZONE $1)::date, 'YYYY-MM-DD') AS hasta,
              (SELECT array_agg(to_char(x.fec_corte AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') ORDER BY x.fec_corte)
                 FROM (SELECT fec_corte FROM conteos WHERE estado = 'aplicado'
                        ORDER BY fec_corte DESC LIMIT 2) x) AS cortes`,
      [timeZone, DAYS],
    );
    if (!p.cortes || p.cortes.length < 2) throw new Error('The seed applied fewer than two counts');
    return {
      anio: { desde: p.desde, hasta: p.hasta },
      mes: { desde: p.cortes[0], hasta: p.cortes[1] },
    };
  });
}

/** What the report must answer over a period: closed comandas and theoretical cost, by SQL. */
async function expectedReport(url, { desde, hasta }, timeZone) {
  return withClient(url, async (c) => {
    const bound = (n, end) =>
      `CASE WHEN $${n}::text ~ '^\\d{4}-\\d{2}-\\d{2}$'
            THEN ($${n}::date + ${end ? 1 : 0})::timestamp AT TIME ZONE $3 ELSE $${n}::timestamptz END`;
    const { rows } = await c.query(
      `WITH r AS (SELECT ${bound(1, false)} AS desde, ${bound(2, true)} AS hasta)
       SELECT (SELECT count(*)::int FROM comandas c, r WHERE c.estado = 'cerrada' AND NOT c.eliminada
                  AND c.fec_cierre > r.desde AND c.fec_cierre <= r.hasta) AS comandas,
              (SELECT coalesce(round(-sum(m.valor), 2), 0)::text FROM stock_movimientos m, r
                WHERE m.tipo IN ('consumo_venta', 'reverso_consumo')
                  AND m.fec > r.desde AND m.fec <= r.hasta) AS costo_teorico,
              (SELECT count(*)::int FROM stock_movimientos m, r
                WHERE m.fec > r.desde AND m.fec <= r.hasta) AS movimientos,
              (SELECT count(*)::int FROM consumos_venta v, r
                WHERE NOT v.revertido AND v.fec > r.desde AND v.fec <= r.hasta) AS lineas`,
      [desde, hasta, timeZone],
    );
    return rows[0];
  });
}

function reportProblem(json, expected) {
  if (!json || !Array.isArray(json.materiales) || json.materiales.length === 0)
    return 'no materials';
  if (json.comandas !== expected.comandas || json.costo_teorico !== Number(expected.costo_teorico))
    return `comandas ${json.comandas} and costo_teorico ${json.costo_teorico} against the rows' ${expected.comandas} and ${expected.costo_teorico}`;
  return undefined;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the report's statements (InventarioRepository.consumo, given a
 * connection that explains each, then runs it for the rows the next one takes), twice: the
 * second is reported.
 */
async function explainReport(url, { desde, hasta }, timeZone) {
  const { InventarioRepository } = require(join(DIST, 'inventario', 'inventario.repository'));
  return withClient(url, async (c) => {
    const plans = [];
    const explaining = {
      query: async (sql, params) => {
        const res = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
        const plan = res.rows.map((r) => r['QUERY PLAN']).join('\n');
        plans.push({
          plan,
          ms: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]),
          planning: Number(/Planning Time: ([\d.]+) ms/.exec(plan)?.[1]),
        });
        // the statement's own rows: the next statement may take them (the period's bounds)
        return (await c.query(sql, params)).rows;
      },
    };
    const repository = new InventarioRepository({ transaction: undefined, dataSource: explaining });
    for (let round = 0; round < 2; round += 1) {
      plans.length = 0;
      await repository.consumo(desde, hasta, timeZone);
    }
    return plans.slice();
  });
}

/** The report, one request at a time over each period in turn: p50 / p95 of each. */
async function reportLatencies(port, urls, timeZone, problems) {
  const p = await periods(urls[ON], timeZone);
  const expected = {
    anio: await expectedReport(urls[ON], p.anio, timeZone),
    mes: await expectedReport(urls[ON], p.mes, timeZone),
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = { anio: [], mes: [] };
  let errors = 0;
  for (let i = 0; i < REPORT_WARM_UP + REPORTS; i += 1) {
    for (const key of ['anio', 'mes']) {
      const { desde, hasta } = p[key];
      const path = `/api/v1/inventario/consumo?desde=${encodeURIComponent(desde)}&hasta=${encodeURIComponent(hasta)}`;
      const res = await call(port, { path, tenant: ON, agent });
      const problem =
        res.status === 200
          ? reportProblem(res.json, expected[key])
          : `answered ${res.status}: ${res.text.slice(0, 200)}`;
      if (problem) {
        errors += 1;
        if (problems.length < 20) problems.push(`GET ${path} ${problem}`);
      } else if (i >= REPORT_WARM_UP) latencies[key].push(res.ms);
      if (i === 0) expected[key].answer = res.json;
    }
  }
  agent.destroy();
  const explain = await explainReport(urls[ON], p.anio, timeZone);
  return {
    periods: p,
    expected,
    errors,
    latencies: { anio: latencyFigures(latencies.anio), mes: latencyFigures(latencies.mes) },
    explain,
  };
}

/**
 * The stage, on a service started by startService and the two tenants of provisionTenants: the
 * report first (on the ledger as seeded), then the closes.
 */
async function inventarioBench({ service, provisioned }) {
  const started = performance.now();
  const problems = [];
  const { urls, seeded } = provisioned;
  const timeZone = provisioned.timeZone ?? 'America/Lima';

  // 2. the consumption report over 100,000 closed lines
  const reports = await reportLatencies(service.port, urls, timeZone, problems);

  // 1. closes off and on
  const queues = { [OFF]: queueOf(seeded.openIds), [ON]: queueOf(seeded.openIds) };
  const answered = { [OFF]: 0, [ON]: 0 };
  for (const slug of [OFF, ON]) {
    const warm = await closeLoad(service.port, slug, queues[slug], WARM_UP_S);
    answered[slug] += warm.ok;
    if (warm.errors > 0) problems.push(`${slug}: ${warm.errors} errors during the warm-up`);
  }
  const rounds = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const order = i % 2 === 0 ? [OFF, ON] : [ON, OFF];
    const runs = {};
    for (const slug of order) {
      runs[slug] = await closeLoad(service.port, slug, queues[slug], DURATION, {
        pid: service.pid,
        url: urls[slug],
      });
      answered[slug] += runs[slug].ok;
    }
    rounds.push({ order, off: runs[OFF], on: runs[ON], ratio: runs[ON].rps / runs[OFF].rps });
  }
  for (const slug of [OFF, ON]) {
    if (queues[slug].exhausted)
      problems.push(
        `${slug}: the ${seeded.openIds.length} open comandas ran out (BENCH_INVENTARIO_COMANDAS)`,
      );
  }
  const errors = (side) => rounds.reduce((sum, r) => sum + r[side].errors, 0);
  if (errors('off') + errors('on') > 0)
    problems.push(`close errors: off ${errors('off')}, on ${errors('on')}`);
  await sleep(500);
  const checked = await checkCloses(
    urls,
    seeded.firstOpen,
    { [OFF]: queues[OFF].used, [ON]: queues[ON].used },
    answered,
    problems,
  );

  return {
    failed: problems.length > 0,
    problems,
    closes: {
      rounds,
      ratio: median(rounds.map((r) => r.ratio)),
      used: { off: queues[OFF].used, on: queues[ON].used },
      answered,
      checked,
    },
    reports,
    seeded,
    cloneMs: provisioned.cloneMs,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The stage's lines of the bench's report (markdown). */
function report(r, fmt) {
  const ms = (x) => (Number.isNaN(x) ? 'n/a' : fmt(x, 1));
  const ms2 = (x) => (Number.isNaN(x) ? 'n/a' : fmt(x, 2));
  const { rounds, ratio } = r.closes;
  const sides = (key) => ({
    rps: rounds.map((x) => x[key].rps),
    server: median(rounds.map((x) => x[key].cpu.server)),
    postgres: median(rounds.map((x) => x[key].cpu.postgres)),
    consumir: median(rounds.map((x) => x[key].cpu.consumir)),
    asentar: median(rounds.map((x) => x[key].cpu.asentarCalls)),
  });
  const off = sides('off');
  const on = sides('on');
  const meanOf = (list) => list.reduce((a, b) => a + b, 0) / list.length;
  const { latencies: l, explain: e, periods: p, expected: x } = r.reports;
  const c = r.seeded.counts;
  const p50Target = (f) =>
    f.p50 < TARGET_P50_MS
      ? `under the ${TARGET_P50_MS} ms asked`
      : `over the ${TARGET_P50_MS} ms asked`;
  const lines = [
    `\n## Inventario: closes with the feature off and on, the consumption report (the stage took ${fmt(r.seconds)} s)\n`,
    '| scenario | off closes/s | on closes/s | on / off | p50 / p99 off; on (ms) | errors |',
    '|---|---|---|---|---|---|',
    ...rounds.map(
      (x, i) =>
        `| PUT /comandas/:id cerrar, ${CLOSE_LINES} lines × ${RECIPE_SIZE} ingredients, round ${i + 1} (${x.order.join(' then ')}) | ` +
        `${fmt(x.off.rps)} | ${fmt(x.on.rps)} | ${fmt(x.ratio, 2)} | ${x.off.p50} / ${x.off.p99}; ${x.on.p50} / ${x.on.p99} | ` +
        `${x.off.errors + x.on.errors} |`,
    ),
    `| **median of the ${rounds.length} rounds** | ${fmt(median(off.rps))} | ${fmt(median(on.rps))} | ` +
      `**${fmt(ratio, 2)}** (${ratio >= TARGET_RATIO ? 'at or above' : 'below'} the ${TARGET_RATIO} asked; ` +
      `ratio of the means ${fmt(meanOf(on.rps) / meanOf(off.rps), 2)}) | | |`,
    '',
    `Per close (medians of the runs): the service's process ${ms2(off.server)} ms off, ${ms2(on.server)} ms on; ` +
      `its PostgreSQL sessions ${ms2(off.postgres)} ms off, ${ms2(on.postgres)} ms on; ` +
      `inventario_consumir_comanda ${ms2(on.consumir)} ms on (${fmt(on.asentar, 1)} stock_asentar calls). ` +
      `${fmt(r.closes.used.off)} and ${fmt(r.closes.used.on)} of ${fmt(r.seeded.openIds.length)} open comandas used; ` +
      `closed: ${r.closes.checked[OFF].cerradas} off (${r.closes.checked[OFF].con_consumo} with a consumption), ` +
      `${r.closes.checked[ON].cerradas} on (${r.closes.checked[ON].consumidas} with their ${CLOSE_LINES} consumptions ` +
      `and ${CLOSE_LINES * RECIPE_SIZE} movements) for ${r.closes.answered[OFF]} and ${r.closes.answered[ON]} answers 200; ` +
      `balances not their ledger's sum: ${r.closes.checked[ON].descuadres}; negative: ${r.closes.checked[ON].negativos}.`,
    '',
    `| GET /inventario/consumo, one request at a time | movements / lines / comandas in the period | p50 / p95 | max | |`,
    '|---|---|---|---|---|',
    `| over the year, ${p.anio.desde} – ${p.anio.hasta} (${l.anio.n}) | ${fmt(x.anio.movimientos)} / ${fmt(x.anio.lineas)} / ${fmt(x.anio.comandas)} | ` +
      `**${ms(l.anio.p50)} / ${ms(l.anio.p95)} ms** | ${ms(l.anio.max)} ms | ${p50Target(l.anio)} |`,
    `| over the month between the last two counts, ${p.mes.desde} – ${p.mes.hasta} (${l.mes.n}) | ` +
      `${fmt(x.mes.movimientos)} / ${fmt(x.mes.lineas)} / ${fmt(x.mes.comandas)} | ` +
      `**${ms(l.mes.p50)} / ${ms(l.mes.p95)} ms** | ${ms(l.mes.max)} ms | ${p50Target(l.mes)} |`,
    `| the report's SQL over the year (EXPLAIN ANALYZE): execution, per statement | ` +
      `${e.map((s) => ms(s.ms)).join(' / ')} ms | | | |`,
    `| the same, planning | ${e.map((s) => ms(s.planning)).join(' / ')} ms | | | |`,
    '',
    `Seeded: ${fmt(c.lineas)} closed lines with their consumption in ${fmt(c.comandas)} comandas over ${DAYS} days, ` +
      `${fmt(c.movimientos)} movements (${fmt(c.consumos)} consumo_venta; ${fmt(c.compras)} purchase lines, ` +
      `${fmt(c.mermas)} waste, ${c.conteos} counts applied), ledger ${c.ledger_size}, ${c.negativos} balances negative; ` +
      `rows in ${fmt(r.seeded.seedMs / 1000, 1)} s, ledger posted in ${fmt(r.seeded.postMs / 1000, 1)} s ` +
      `(${fmt(r.seeded.posted)} movements), VACUUM ANALYZE ${fmt(r.seeded.vacuumMs / 1000, 1)} s, copy for ${ON} ` +
      `${fmt(r.cloneMs / 1000, 1)} s. The year's report: costo_teorico ${x.anio.answer?.costo_teorico}, ` +
      `costo_real ${x.anio.answer?.costo_real}, ventas_netas ${x.anio.answer?.ventas_netas} ` +
      `(food cost ${x.anio.answer?.food_cost_teorico_pct} % / ${x.anio.answer?.food_cost_real_pct} %; the demo's ` +
      `comandas of the year, from before the ledger, count in the sales). Report answers not as expected: ${r.reports.errors}.`,
  ];
  if (EXPLAIN)
    e.forEach((s, i) =>
      lines.push(
        `\n### EXPLAIN (ANALYZE, BUFFERS): statement ${i + 1}\n\n\`\`\`\n${s.plan}\n\`\`\``,
      ),
    );
  if (r.problems.length > 0) lines.push(`\nInventario problems: ${r.problems.join('; ')}.`);
  return lines.join('\n');
}

/** The stderr line of the stage as it ends. */
function progressLine(r, fmt) {
  const { rounds, ratio } = r.closes;
  const { anio, mes } = r.reports.latencies;
  return (
    `inventario: closes on/off ${rounds.map((x) => `${fmt(x.on.rps)}/${fmt(x.off.rps)}`).join(', ')} req/s, ` +
    `median ratio ${fmt(ratio, 2)}; consumo p50 ${anio.p50} ms (year), ${mes.p50} ms (month)`
  );
}

/**
 * `npm run bench:inventario`: the stage alone, on an embedded PostgreSQL of its own (or
 * BENCH_DATABASE_URL), the pools of the bench's first service (2 connections a tenant).
 */
async function main() {
  const { withDatabase } = require(join(DIST, 'database', 'pg-url'));
  const prefix = 'comandas_bench_inventario_';
  const timeZone = 'America/Lima';
  await runStandalone({
    name: 'inventario',
    prefix,
    stage: async ({ serverUrl, work, atEnd }) => {
      const cliEnv = {
        DATABASE_URL: withDatabase(serverUrl, `${prefix}control`),
        TENANT_DB_PREFIX: prefix,
        DEMO_TENANT: 'false',
        LOG_LEVEL: 'warn',
      };
      const provisioned = await provisionTenants({ serverUrl, cliEnv, prefix, timeZone });
      console.error(
        `[bench:inventario] tenants ready: ledger posted in ${fmt(provisioned.seeded.postMs / 1000, 1)} s`,
      );
      const profileDir = join(work, 'profile');
      const service = await startService({
        work,
        cliEnv,
        serviceConfig: { CONTROL_POOL_MAX: '4' },
        poolMax: 2,
        nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      });
      atEnd(() => service.stop());
      const result = await inventarioBench({ service, provisioned: { ...provisioned, timeZone } });
      console.error(`[bench:inventario] ${progressLine(result, fmt)}`);
      console.log(
        `# npm run bench:inventario (${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, ` +
          `${CONNECTIONS} connections x ${DURATION} s, TENANT_POOL_MAX=2)`,
      );
      console.log(report(result, fmt));
      if (PROFILE) {
        await service.stop(); // the profile is written as the service exits
        printProfile(profileDir, 'comandas-inventario.cpuprofile');
      }
      if (result.failed) {
        console.error('\nThe inventario stage failed: an answer was not as it must be.');
        process.exitCode = 1;
      }
    },
  });
}

if (require.main === module) runMain(main);

module.exports = {
  inventarioBench,
  report,
  progressLine,
  provisionTenants,
  startService,
  seedInventario,
  queueOf,
  closeLoad,
};
