// The reports stage (npm run bench:reportes; a stage of npm run bench): a year of a busy
// restaurant seeded set-based in SQL (generate_series), BENCH_REPORTES_COMANDAS closed comandas
// (100,000 by default) with 3 or 4 lines each, a few thousand voided and some open ones,
// discounts on one in ten, their payments (one in three split over two methods, tips), the
// lines' theoretical cost as inventario records it at close, and the sales report's read model
// computed from them. Then GET /api/v1/reportes/ventas over the whole year for every grouping,
// one request at a time (BENCH_REPORTES_REQUESTS each, 30 by default, after 3 to warm up), with
// the features cobros and inventario on (the heaviest answer: payments and costs), and the two
// other reports. Prints a table of p50 / p95 / max per grouping against the 300 ms p50 asked,
// and EXPLAIN (ANALYZE, BUFFERS) of the heaviest statements (BENCH_EXPLAIN=0: not).
require('reflect-metadata');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { freePort, run, start, withClient } = require('./support/processes');
const { fmt, runMain, runStandalone } = require('./support/standalone');
const { call, latencyFigures } = require('./support/requests');

const DIST = join(__dirname, '..', 'dist');
const HOST = '127.0.0.1';
const SLUG = 'reportes';
const COMANDAS = Number(process.env.BENCH_REPORTES_COMANDAS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REPORTES_REQUESTS ?? 30);
const WARMUP = 3;
const EXPLAIN = process.env.BENCH_EXPLAIN !== '0';
const TARGET_P50_MS = 300;
/** Every grouping of the report, as the service lists them. */
const { AGRUPACIONES: AGRUPAR } = require(join(DIST, 'reportes', 'dto', 'reportes-input.dto'));
/** The statements whose plans are printed: one pass over the comandas, over the lines, over the payments. */
const EXPLAINED = ['dia', 'producto', 'metodo'];

/**
 * The year of sales, set-based: the menu, the floor and the staff, then the comandas (closes
 * weighted to lunch and dinner in the tenant's time zone), their lines, totals, discounts and
 * frozen rates, payments, and the consumption's cost of each closed line. Triggers are off while
 * it writes (session_replication_role: the audit trail's NOTIFY has no listener here).
 */
async function seedReportes(client, { timeZone, comandas }) {
  const started = performance.now();
  const q = (sql, params) => client.query(sql, params);
  await q(`SET session_replication_role = replica`);
  await q(`
    INSERT INTO categorias (nombre)
      SELECT 'Categoría ' || g FROM generate_series(1, 8) AS g;
    INSERT INTO productos (nombre, precio, id_categoria, activo)
      SELECT 'Plato ' || g, round((8 + (g * 37) % 55)::numeric + (g % 4) * 0.25, 2), 1 + g % 8, true
        FROM generate_series(1, 60) AS g;
    INSERT INTO mesas (numero) SELECT g FROM generate_series(1, 24) AS g;
    INSERT INTO usuarios (documento, nombre, apellido)
      SELECT lpad(g::text, 8, '5'), 'Mozo ' || g, 'Apellido ' || g FROM generate_series(1, 12) AS g;
    INSERT INTO mate_primas (nombre, unidad) VALUES ('Insumo', 'kg');
    INSERT INTO proveedores (razon_social) VALUES ('Mercado Mayorista');
  `);
  // closes on the 365 local days before today, at 12:00-15:59 or 19:00-23:59 local time
  await q(
    `INSERT INTO comandas (id_mesa, id_usuario, estado, fec_apertura, fec_cierre, eliminada, fec_eliminacion)
     SELECT CASE WHEN g % 9 = 0 THEN NULL ELSE 1 + g % 24 END,
            CASE WHEN g % 23 = 0 THEN NULL ELSE 1 + (g * 7) % 12 END,
            CASE WHEN g > $1 + 3000 THEN 'abierta' ELSE 'cerrada' END,
            t - interval '50 minutes', CASE WHEN g > $1 + 3000 THEN NULL ELSE t END,
            g > $1 AND g <= $1 + 3000, CASE WHEN g > $1 AND g <= $1 + 3000 THEN t END
       FROM generate_series(1, $1 + 3500) AS g,
            LATERAL (SELECT (((now() AT TIME ZONE $2)::date - 365 + ((g::bigint * 7919) % 365)::integer)::timestamp
                             + CASE WHEN g % 5 < 2 THEN interval '12 hours' ELSE interval '19 hours' END
                             + ((g::bigint * 104729) % (4 * 3600 + 3599)) * interval '1 second'
                            ) AT TIME ZONE $2 AS t) AS x`,
    [comandas, timeZone],
  );
  await q(`
    INSERT INTO deta_comandas (id_comanda, id_producto, cantidad, precio_unitario, fec_registro)
      SELECT c.id_comanda, p.id_producto, 1 + (c.id_comanda + n) % 3, p.precio, c.fec_apertura
        FROM comandas c
        CROSS JOIN LATERAL generate_series(1, 3 + (c.id_comanda % 2)::integer) AS n
        JOIN productos p ON p.id_producto = 1 + ((c.id_comanda * 31 + n * 17) % 60);
    UPDATE comandas c SET total = l.total
      FROM (SELECT id_comanda, sum(subtotal) AS total FROM deta_comandas GROUP BY 1) l
     WHERE l.id_comanda = c.id_comanda AND c.estado = 'cerrada';
    INSERT INTO cuentas_comanda (id_comanda, descuento_tipo, descuento_valor, descuento_motivo,
                                 tasa_igv, tasa_recargo, paso_redondeo)
      SELECT id_comanda,
             CASE WHEN id_comanda % 20 = 0 THEN 'porcentaje' WHEN id_comanda % 20 = 10 THEN 'monto' END,
             CASE WHEN id_comanda % 20 = 0 THEN 10 WHEN id_comanda % 20 = 10 THEN 5 END,
             CASE WHEN id_comanda % 10 = 0 THEN 'cliente frecuente' END,
             0.18, 0, 0.10
        FROM comandas WHERE estado = 'cerrada';
    INSERT INTO sesiones_caja (id_caja, monto_apertura) VALUES (1, 200);
  `);
  // payments: what is due (total − discount), one in three split 60/40 over two methods
  await q(`
    WITH due AS (
      SELECT c.id_comanda, c.fec_cierre,
             c.total - CASE cc.descuento_tipo WHEN 'porcentaje' THEN round(c.total * cc.descuento_valor / 100, 2)
                                              WHEN 'monto' THEN least(cc.descuento_valor, c.total) ELSE 0 END AS monto
        FROM comandas c JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
       WHERE c.estado = 'cerrada' AND NOT c.eliminada AND c.total > 0)
    INSERT INTO pagos (id_comanda, id_sesion, id_metodo_pago, monto, propina, fec_pago)
      SELECT id_comanda, 1, 1 + id_comanda % 4,
             CASE WHEN id_comanda % 3 = 0 THEN round(monto * 0.6, 2) ELSE monto END,
             CASE WHEN id_comanda % 7 = 0 THEN 5 ELSE 0 END, fec_cierre
        FROM due
      UNION ALL
      SELECT id_comanda, 1, 1 + (id_comanda + 1) % 4, monto - round(monto * 0.6, 2), 0, fec_cierre
        FROM due WHERE id_comanda % 3 = 0 AND monto - round(monto * 0.6, 2) > 0;
    INSERT INTO consumos_venta (id_item, id_comanda, id_producto, cantidad, costo_teorico, fec)
      SELECT d.id_deta_comanda, d.id_comanda, d.id_producto, d.cantidad, round(d.subtotal * 0.31, 4), c.fec_cierre
        FROM deta_comandas d JOIN comandas c ON c.id_comanda = d.id_comanda
       WHERE c.estado = 'cerrada' AND NOT c.eliminada;
    INSERT INTO compras (id_proveedor, fec_compra, total)
      SELECT 1, now() - g * interval '1 day', 300 + g % 200 FROM generate_series(0, 364) AS g;
  `);
  await q(`SET session_replication_role = DEFAULT`);
  const seededAt = performance.now();
  // the report's read model (its triggers were quiet with the others): every closed comanda
  // computed once, as the migration does for the comandas a tenant already has
  await q(`INSERT INTO reportes_cambios (id_comanda)
             SELECT id_comanda FROM comandas WHERE estado = 'cerrada' AND NOT eliminada`);
  await q('SELECT reportes_refrescar($1)', [timeZone]);
  const modelAt = performance.now();
  await q('VACUUM ANALYZE');
  const [counts] = (
    await q(`
      SELECT (SELECT count(*) FROM comandas WHERE estado = 'cerrada' AND NOT eliminada)::int AS cerradas,
             (SELECT count(*) FROM comandas WHERE eliminada)::int AS anuladas,
             (SELECT count(*) FROM comandas WHERE estado = 'abierta')::int AS abiertas,
             (SELECT count(*) FROM deta_comandas)::int AS lineas,
             (SELECT count(*) FROM pagos)::int AS pagos,
             (SELECT count(*) FROM consumos_venta)::int AS consumos`)
  ).rows;
  return {
    counts,
    seedMs: seededAt - started,
    modelMs: modelAt - seededAt,
    vacuumMs: performance.now() - modelAt,
  };
}

/** The stage's tenant, made by the tenant CLI and seeded, with cobros, inventario and reportes on. */
async function provisionTenant({ serverUrl, cliEnv, prefix, timeZone }) {
  const { withDatabase } = require(join(DIST, 'database', 'pg-url'));
  const tenantCli = join(DIST, 'cli', 'tenant.cli.js');
  await run(tenantCli, ['create', SLUG, '--name', 'Reportes', '--time-zone', timeZone], cliEnv);
  for (const feature of ['cobros', 'inventario', 'reportes'])
    await run(tenantCli, ['feature', SLUG, feature, 'on'], cliEnv);
  const url = withDatabase(serverUrl, `${prefix}${SLUG}`);
  const seeded = await withClient(url, (c) => seedReportes(c, { timeZone, comandas: COMANDAS }));
  return { url, seeded, timeZone };
}

/** The stage's service: the pools asked, rate limit off. */
function startService({ work, cliEnv, serviceConfig, poolMax }) {
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
      },
      'is listening on',
      join(work, 'service-reportes.log'),
    );
    try {
      await service.ready;
    } catch (error) {
      await service.stop();
      throw error;
    }
    return { port, stop: service.stop };
  })();
}

/** Times one route: WARMUP calls, then REQUESTS calls one at a time; every answer must be 200. */
async function timed(port, path) {
  const durations = [];
  let errors = 0;
  let last;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const res = await call(port, { path, tenant: SLUG });
    if (res.status !== 200) errors += 1;
    if (i >= WARMUP) durations.push(res.ms);
    last = res;
  }
  return { ...latencyFigures(durations), errors, last: last.json };
}

/** EXPLAIN (ANALYZE, BUFFERS) of a grouping's statement over the year. */
async function explain(url, agrupar, desde, hasta, timeZone) {
  const { ventasSql } = require(join(DIST, 'reportes', 'reportes.repository'));
  return withClient(url, async (c) => {
    const { rows } = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${ventasSql(agrupar, true)}`, [
      desde,
      hasta,
      timeZone,
    ]);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]);
    return { agrupar, plan, ms };
  });
}

/** The stage: every grouping over the year, then the expenses and attendance reports. */
async function reportesBench({ service, provisioned }) {
  const started = performance.now();
  const { addDays, todayIn } = require(join(DIST, 'common', 'time'));
  const hasta = todayIn(provisioned.timeZone);
  const desde = addDays(hasta, -365);
  const ventas = {};
  for (const agrupar of AGRUPAR)
    ventas[agrupar] = await timed(
      service.port,
      `/api/v1/reportes/ventas?desde=${desde}&hasta=${hasta}&agrupar=${agrupar}`,
    );
  const csv = await timed(
    service.port,
    `/api/v1/reportes/ventas?desde=${desde}&hasta=${hasta}&agrupar=dia_semana_hora`,
  );
  const gastos = await timed(service.port, `/api/v1/reportes/gastos?desde=${desde}&hasta=${hasta}`);
  const asistencia = await timed(service.port, `/api/v1/reportes/asistencia`);
  const plans = [];
  if (EXPLAIN)
    for (const agrupar of EXPLAINED)
      plans.push(await explain(provisioned.url, agrupar, desde, hasta, provisioned.timeZone));
  const comandas = ventas.dia.last?.totales?.comandas;
  const failed =
    Object.values(ventas).some((v) => v.errors > 0) ||
    comandas !== provisioned.seeded.counts.cerradas;
  return {
    desde,
    hasta,
    ventas,
    csv,
    gastos,
    asistencia,
    plans,
    comandas,
    failed,
    seeded: provisioned.seeded,
    seconds: (performance.now() - started) / 1000,
  };
}

function report(r, fmt) {
  const ms = (v) => fmt(v, 1);
  const verdict = (v) => (v.p50 < TARGET_P50_MS ? 'under' : '**over**');
  const c = r.seeded.counts;
  const lines = [
    `\n## Reports: GET /reportes/ventas over a year, every grouping (the stage took ${fmt(r.seconds)} s)\n`,
    `${r.desde} – ${r.hasta}: ${fmt(c.cerradas)} closed comandas (${fmt(c.anuladas)} voided and ${fmt(c.abiertas)} open ` +
      `left out), ${fmt(c.lineas)} lines, ${fmt(c.pagos)} payments, ${fmt(c.consumos)} consumptions; features cobros ` +
      `and inventario on. One request at a time, ${REQUESTS} per row after ${WARMUP} to warm up.\n`,
    '| request | p50 (ms) | p95 (ms) | max (ms) | rows | p50 < 300 ms | errors |',
    '|---|---|---|---|---|---|---|',
    ...AGRUPAR.map((a) => {
      const v = r.ventas[a];
      return `| ventas agrupar=${a} | **${ms(v.p50)}** | ${ms(v.p95)} | ${ms(v.max)} | ${v.last?.filas?.length ?? '?'} | ${verdict(v)} | ${v.errors} |`;
    }),
    `| gastos, the year (12–13 months) | ${ms(r.gastos.p50)} | ${ms(r.gastos.p95)} | ${ms(r.gastos.max)} | ${r.gastos.last?.filas?.length ?? '?'} | ${verdict(r.gastos)} | ${r.gastos.errors} |`,
    `| asistencia, the last 30 days | ${ms(r.asistencia.p50)} | ${ms(r.asistencia.p95)} | ${ms(r.asistencia.max)} | ${r.asistencia.last?.filas?.length ?? '?'} | ${verdict(r.asistencia)} | ${r.asistencia.errors} |`,
    '',
    `totales.comandas of the year's report: ${fmt(r.comandas ?? NaN)} (seeded closed: ${fmt(c.cerradas)}). ` +
      `Seeded in ${fmt(r.seeded.seedMs / 1000, 1)} s, the read model computed in ${fmt(r.seeded.modelMs / 1000, 1)} s ` +
      `(reportes_refrescar over every closed comanda), VACUUM ANALYZE ${fmt(r.seeded.vacuumMs / 1000, 1)} s.`,
  ];
  for (const p of r.plans)
    lines.push(
      `\n### EXPLAIN (ANALYZE, BUFFERS): agrupar=${p.agrupar} over the year (${ms(p.ms)} ms)\n\n\`\`\`\n${p.plan}\n\`\`\``,
    );
  return lines.join('\n');
}

function progressLine(r, fmt) {
  return `reportes: ventas p50 ${AGRUPAR.map((a) => `${a} ${fmt(r.ventas[a].p50)}`).join(', ')} ms`;
}

/** `npm run bench:reportes`: the stage alone, on an embedded PostgreSQL of its own (or BENCH_DATABASE_URL). */
async function main() {
  const { withDatabase } = require(join(DIST, 'database', 'pg-url'));
  const prefix = 'comandas_bench_reportes_';
  const timeZone = 'America/Lima';
  await runStandalone({
    name: 'reportes',
    prefix,
    stage: async ({ serverUrl, work, atEnd }) => {
      const cliEnv = {
        DATABASE_URL: withDatabase(serverUrl, `${prefix}control`),
        TENANT_DB_PREFIX: prefix,
        DEMO_TENANT: 'false',
        LOG_LEVEL: 'warn',
      };
      const provisioned = await provisionTenant({ serverUrl, cliEnv, prefix, timeZone });
      console.error(
        `[bench:reportes] tenant ready: ${fmt(provisioned.seeded.counts.cerradas)} closed comandas seeded in ${fmt(provisioned.seeded.seedMs / 1000, 1)} s`,
      );
      const service = await startService({
        work,
        cliEnv,
        serviceConfig: { CONTROL_POOL_MAX: '4' },
        poolMax: 2,
      });
      atEnd(() => service.stop());
      const result = await reportesBench({ service, provisioned });
      console.error(`[bench:reportes] ${progressLine(result, fmt)}`);
      console.log(
        `# npm run bench:reportes (${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, TENANT_POOL_MAX=2)`,
      );
      console.log(report(result, fmt));
      if (result.failed) {
        console.error('\nThe reportes stage failed: an answer was not as it must be.');
        process.exitCode = 1;
      }
    },
  });
}

if (require.main === module) runMain(main);

module.exports = {
  reportesBench,
  report,
  progressLine,
  provisionTenant,
  startService,
  seedReportes,
};
