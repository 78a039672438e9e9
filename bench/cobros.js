// Money (src/cobros, FEATURE_COBROS=true): a stage of `npm run bench` (on `main`, after the
// sign-in stage) and, alone, `npm run bench:cobros` (docs/performance.md, "Cobros").
//
// 1. Pay-and-close: PUT /api/v1/comandas/:id {"action":"cerrar","pagos":[one cash payment]}, the
//    whole bill in cash with change (recibido: the next multiple of 50), each request on an open
//    comanda of its own: BENCH_COBROS_COMANDAS of them are added to the tenant first (1 to 4
//    lines at the menu's prices), and one session of till 1 is opened through the service
//    (POST /cajas/1/sesiones). A service and a baseline of their own, both with
//    FEATURE_COBROS=true: the baseline (bench/baseline-server.js) drives the service's own
//    ComandasService and CobrosService through a pg pool, so it runs the same statements in one
//    transaction; both must first answer the same bytes (a comanda closed by one, read back
//    from the other, and the reverse). autocannon, BENCH_CONNECTIONS connections for
//    BENCH_DURATION seconds as the harness's scenarios, after 3 s of warm-up each, four runs in
//    the order baseline, service, service, baseline (the ratio is of the means: a drift of the
//    machine weighs on both). Around each run, the CPU time of the server process and of its
//    PostgreSQL sessions (/proc, by application_name; when PostgreSQL runs on this machine), per
//    request: what the ratio is made of, and steadier than req/s on a machine doing other work.
//    Afterwards every comanda a request was sent for must be closed with exactly one payment of
//    the session (or be untouched), none closed without one, and the closed ones at least the
//    answers 200.
// 2. The X and the Z of a busy session: BENCH_COBROS_PAYMENTS (5,000) payments per session,
//    seeded in SQL (set-based) on closed comandas of the tenant, a sixth of the bills split in
//    two payments, one in 40 with a card payment declined and voided first, a tip on one bill in
//    three, the five methods of the migration, a refund on about one payment in a hundred, 12 cash
//    movements; BENCH_COBROS_HISTORY (10) closed sessions of that size on till 2 before it (the
//    tables as after some days of use). The Z's session (till 2) is closed through the service
//    (POST /sesiones-caja/:id/cerrar, the cash counted as expected: its time is reported), another
//    of the same size stays open (till 3: the X). Then GET /api/v1/sesiones-caja/:id and
//    .../reporte with Accept: text/plain, of the Z and of the X, one request at a time, in turn,
//    BENCH_COBROS_REPORTS (200) of each after 20 of warm-up: p50 and p95. Every answer is checked
//    (200; the JSON's totals equal to what SQL sums from the seeded rows; the text's header). Last,
//    EXPLAIN (ANALYZE, BUFFERS) of the report's three statements on the Z (their execution times
//    are reported; BENCH_COBROS_EXPLAIN=1 prints the plans).
// Fails (the bench exits 1) on any answer other than 200 (201 for the close), different answers
// from the baseline and the service, a comanda paid and closed other than once, or report
// figures that are not the seeded rows'. Alone, BENCH_PROFILE=1 runs the service with
// --cpu-prof and prints where its time went over the whole stage.
require('reflect-metadata');
const { readFileSync } = require('node:fs');
const http = require('node:http');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const autocannon = require('autocannon');
const { freePort, run, start, withClient } = require('./support/processes');
const { queryRunner } = require('./support/query-runner');
const { fmt, printProfile, runMain, runStandalone } = require('./support/standalone');
const { call, latencyFigures, percentile } = require('./support/requests');

const DIST = join(__dirname, '..', 'dist');
const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 16);
const WARM_UP_S = 3;
const OPEN_COMANDAS = Number(env.BENCH_COBROS_COMANDAS ?? 30_000);
const PAYMENTS = Number(env.BENCH_COBROS_PAYMENTS ?? 5_000);
const HISTORY = Number(env.BENCH_COBROS_HISTORY ?? 10);
const REPORTS = Number(env.BENCH_COBROS_REPORTS ?? 200);
const REPORT_WARM_UP = 20;
/** Pay-and-closes whose statements are explained one by one (medians). */
const EXPLAINED = 20;
const EXPLAIN = env.BENCH_COBROS_EXPLAIN === '1';
const PROFILE = env.BENCH_PROFILE === '1';
const HOST = '127.0.0.1';
const BASELINE_APP = 'comandas-bench-baseline';
/** What is asked on this machine: the ratio of pay-and-close, the p50 of a report. */
const TARGET_RATIO = 0.7;
const TARGET_P50_MS = 100;
/** The methods the migration provides, by id: Efectivo (counted in the till), Tarjeta, Yape, Plin, Transferencia. */
const [EFECTIVO, TARJETA] = [1, 2];

/** A service and a baseline with FEATURE_COBROS=true on one tenant database. */
function startServers({ work, cliEnv, serviceConfig, tenantUrl, poolMax, nodeArgs = [] }) {
  return (async () => {
    const [baselinePort, servicePort] = [await freePort(), await freePort()];
    const baseline = start(
      join(__dirname, 'baseline-server.js'),
      [],
      {
        BASELINE_DB_URL: tenantUrl,
        BASELINE_PORT: String(baselinePort),
        BASELINE_POOL_MAX: String(poolMax),
        BASELINE_APPLICATION_NAME: BASELINE_APP,
        FEATURE_COBROS: 'true',
      },
      'baseline listening',
      join(work, 'baseline-cobros.log'),
    );
    const service = start(
      join(DIST, 'main.js'),
      [],
      {
        ...cliEnv,
        ...serviceConfig,
        TENANT_POOL_MAX: String(poolMax),
        PORT: String(servicePort),
        HOST,
        LOG_LEVEL: 'info',
        RATE_LIMIT_MAX: '0',
        FEATURE_COBROS: 'true',
      },
      'is listening on',
      join(work, 'service-cobros.log'),
      nodeArgs,
    );
    const stop = async () => {
      await service.stop();
      await baseline.stop();
    };
    try {
      await Promise.all([baseline.ready, service.ready]);
    } catch (error) {
      await stop();
      throw error;
    }
    return {
      baselinePort,
      servicePort,
      pids: { baseline: baseline.child.pid, service: service.child.pid },
      stop,
    };
  })();
}

/**
 * Adds `count` open comandas (1 to 4 lines of the menu's first 30 active products, at their
 * prices), totals set; answers each one's id and its PUT body: the whole bill in cash (monto: the
 * total, as PostgreSQL writes it), recibido the next multiple of 50 above it.
 */
async function addOpenComandas(tenantUrl, count) {
  return withClient(tenantUrl, async (c) => {
    await c.query('BEGIN');
    const {
      rows: [{ before }],
    } = await c.query('SELECT coalesce(max(id_comanda), 0)::bigint AS before FROM comandas');
    await c.query(
      `INSERT INTO comandas (id_mesa, id_usuario, fec_apertura)
       SELECT 1 + n % 12, 1 + n % 8, now() - (n % 180) * interval '1 minute'
         FROM generate_series(1, $1) n`,
      [count],
    );
    await c.query(
      `WITH menu AS (
         SELECT id_producto, precio, row_number() OVER (ORDER BY id_producto) - 1 AS i
           FROM productos WHERE activo ORDER BY id_producto LIMIT 30)
       INSERT INTO deta_comandas (id_comanda, id_producto, cantidad, precio_unitario, id_usuario)
       SELECT c.id_comanda, m.id_producto, 1 + k % 2, m.precio, c.id_usuario
         FROM comandas c
        CROSS JOIN generate_series(1, 1 + (c.id_comanda % 4)::int) k
         JOIN menu m ON m.i = (c.id_comanda * 7 + k) % (SELECT count(*) FROM menu)
        WHERE c.id_comanda > $1`,
      [before],
    );
    await c.query(
      `UPDATE comandas c SET total = s.sum
         FROM (SELECT id_comanda, sum(subtotal) AS sum FROM deta_comandas
                WHERE id_comanda > $1 GROUP BY 1) s
        WHERE s.id_comanda = c.id_comanda`,
      [before],
    );
    await c.query('COMMIT');
    await c.query('ANALYZE comandas, deta_comandas');
    const { rows } = await c.query(
      `SELECT id_comanda::int AS id, total::text AS monto,
              ((floor(total / 50) + 1) * 50)::text AS recibido
         FROM comandas WHERE id_comanda > $1 AND total > 0 ORDER BY id_comanda`,
      [before],
    );
    return {
      before: Number(before),
      comandas: rows.map((r) => ({
        id: r.id,
        // the amounts as PostgreSQL wrote them: JSON numbers, no arithmetic here
        body: `{"action":"cerrar","pagos":[{"id_metodo_pago":${EFECTIVO},"monto":${r.monto},"recibido":${r.recibido}}]}`,
      })),
    };
  });
}

/** The comandas in turn, each once; past the last, `exhausted` and the last again (a 409). */
function queueOf(comandas) {
  let next = 0;
  return {
    exhausted: false,
    next() {
      if (next >= comandas.length) {
        this.exhausted = true;
        return comandas[comandas.length - 1];
      }
      return comandas[next++];
    },
    get used() {
      return Math.min(next, comandas.length);
    },
  };
}

/** Two runs as one: the means of their req/s and CPU per request, the errors of both. */
function mean([a, b]) {
  const both = (key) => (a.cpu?.[key] + b.cpu?.[key]) / 2;
  return {
    rps: (a.rps + b.rps) / 2,
    errors: a.errors + b.errors,
    cpu: { server: both('server'), postgres: both('postgres') },
  };
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
 * The CPU time so far of a server process and of the PostgreSQL sessions it holds on the tenant
 * database (by application_name; readable when PostgreSQL runs on this machine).
 */
async function cpuOf(server, tenantUrl) {
  const pids = await withClient(tenantUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1`,
      [server.applicationName],
    );
    return rows.map((r) => r.pid);
  });
  const backends = new Map(pids.map((pid) => [pid, cpuMs(pid)]));
  return { server: cpuMs(server.pid), backends };
}

/**
 * CPU per request between two readings: the server's, and its PostgreSQL sessions' (a session
 * opened meanwhile counts whole; one closed meanwhile is lost, as rare as a pool's idle timeout).
 */
function cpuPerRequest(before, after, requests) {
  let postgres = 0;
  let readable = after.backends.size > 0;
  for (const [pid, ms] of after.backends) {
    if (ms === undefined) readable = false;
    else postgres += ms - (before.backends.get(pid) ?? 0);
  }
  return {
    server: (after.server - before.server) / requests,
    postgres: readable ? postgres / requests : NaN,
  };
}

async function payAndCloseLoad(port, tenant, queue, duration, measured) {
  const used = queue.used;
  const before = measured && (await cpuOf(measured.server, measured.tenantUrl));
  const result = await autocannon({
    url: `http://${HOST}:${port}`,
    connections: CONNECTIONS,
    duration,
    headers: { 'x-tenant-id': tenant, 'content-type': 'application/json' },
    requests: [
      {
        method: 'PUT',
        setupRequest: (req) => {
          const comanda = queue.next();
          return { ...req, path: `/api/v1/comandas/${comanda.id}`, body: comanda.body };
        },
      },
    ],
  });
  let cpu;
  if (measured) {
    await sleep(300); // the requests in flight as the run ended finish
    const after = await cpuOf(measured.server, measured.tenantUrl);
    cpu = cpuPerRequest(before, after, queue.used - used);
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    errors: result.errors + result.timeouts + result.non2xx,
    cpu,
  };
}

/**
 * The baseline and the service answer a pay-and-close with the same bytes: a comanda closed by
 * one is read back (GET) from the other, and the reverse.
 */
async function sameAnswers(ports, tenant, queue, problems) {
  const pairs = [
    [ports.baselinePort, ports.servicePort],
    [ports.servicePort, ports.baselinePort],
  ];
  for (const [writer, reader] of pairs) {
    const comanda = queue.next();
    const put = await call(writer, {
      method: 'PUT',
      path: `/api/v1/comandas/${comanda.id}`,
      tenant,
      body: JSON.parse(comanda.body),
    });
    if (put.status !== 200 || put.json?.estado !== 'cerrada' || put.json?.estado_pago !== 'pagada')
      throw new Error(`Pay-and-close answered ${put.status} on port ${writer}: ${put.text}`);
    const get = await call(reader, { path: `/api/v1/comandas/${comanda.id}`, tenant });
    if (get.text !== put.text)
      problems.push(
        `the baseline and the service answer pay-and-close differently:\n${put.text.slice(0, 400)}\n${get.text.slice(0, 400)}`,
      );
  }
  return pairs.length;
}

/**
 * The till sessions of the report measurements: HISTORY closed ones and the Z's (open for now)
 * on a till of their own, the X's on another, PAYMENTS payments each on closed comandas without
 * payments (set-based), refunds and movements. Answers the sessions and what was seeded.
 */
async function seedSessions(tenantUrl) {
  return withClient(tenantUrl, async (c) => {
    await c.query('BEGIN');
    await c.query(
      `CREATE TEMP TABLE bench_cobro_comandas ON COMMIT DROP AS
       SELECT id_comanda, total, id_usuario, row_number() OVER (ORDER BY id_comanda) AS j
         FROM comandas c
        WHERE estado = 'cerrada' AND NOT eliminada AND total > 0
          AND NOT EXISTS (SELECT 1 FROM pagos p WHERE p.id_comanda = c.id_comanda)`,
    );
    const {
      rows: [{ available }],
    } = await c.query('SELECT count(*)::int AS available FROM bench_cobro_comandas');
    // about 1.19 payments per bill (a sixth split in two, one in 40 with a voided one first):
    // PAYMENTS / 1.15 bills per session are enough
    const perSession = Math.ceil(PAYMENTS / 1.15);
    const history = Math.min(HISTORY, Math.floor(available / perSession) - 2);
    if (history < 0)
      throw new Error(
        `The tenant has ${available} closed comandas without payments: ${2 * perSession} are needed for ${PAYMENTS} payments in each of two sessions`,
      );
    const {
      rows: [till2, till3],
    } = await c.query(
      `INSERT INTO cajas (nombre, ultimo_z) VALUES ('Caja 2', $1), ('Caja 3', 0)
       RETURNING id_caja`,
      [history],
    );
    // till 2: the closed sessions of the days before (Z 1..history), then today's (the Z)
    const { rows: sessions } = await c.query(
      `INSERT INTO sesiones_caja (id_caja, estado, monto_apertura, id_usuario_apertura, fec_apertura,
                                  numero_z, id_usuario_cierre, fec_cierre)
       SELECT $1, CASE WHEN d <= $2 THEN 'cerrada' ELSE 'abierta' END, 200, 1,
              date_trunc('day', now()) - ($2 + 1 - d) * interval '1 day' + interval '9 hours',
              CASE WHEN d <= $2 THEN d END, CASE WHEN d <= $2 THEN 1 END,
              CASE WHEN d <= $2 THEN date_trunc('day', now()) - ($2 + 1 - d) * interval '1 day' + interval '23 hours' END
         FROM generate_series(1, $2 + 1) d
        ORDER BY d
       RETURNING id_sesion::int AS id`,
      [till2.id_caja, history],
    );
    sessions.sort((a, b) => a.id - b.id); // identities in insert order: the Z's is the last
    const {
      rows: [x],
    } = await c.query(
      `INSERT INTO sesiones_caja (id_caja, monto_apertura, id_usuario_apertura, fec_apertura)
       VALUES ($1, 150, 2, date_trunc('day', now()) - interval '1 day' + interval '9 hours')
       RETURNING id_sesion::int AS id`,
      [till3.id_caja],
    );
    const ids = [...sessions.map((s) => s.id), x.id];
    // each session its own block of comandas; k = 0 is a declined card payment (voided), k = 1
    // and k = 2 the halves of a split bill; LIMIT per session to exactly PAYMENTS
    await c.query(
      `WITH s AS (
         SELECT t.id_sesion, t.q - 1 AS q, sc.fec_apertura
           FROM unnest($1::bigint[]) WITH ORDINALITY AS t(id_sesion, q)
           JOIN sesiones_caja sc ON sc.id_sesion = t.id_sesion),
       c AS (
         SELECT b.id_comanda, b.total, b.id_usuario, b.j - s.q * $2 AS jj, s.id_sesion, s.fec_apertura
           FROM bench_cobro_comandas b JOIN s ON b.j > s.q * $2 AND b.j <= (s.q + 1) * $2),
       p AS (
         SELECT c.*, k, CASE WHEN c.jj % 6 = 0 THEN 2 ELSE 1 END AS n
           FROM c CROSS JOIN LATERAL generate_series(CASE WHEN c.jj % 40 = 0 THEN 0 ELSE 1 END,
                                                     CASE WHEN c.jj % 6 = 0 THEN 2 ELSE 1 END) k),
       r AS (SELECT p.*, row_number() OVER (PARTITION BY id_sesion ORDER BY jj, k) AS i FROM p),
       v AS (
         SELECT r.*,
                CASE WHEN k = 0 THEN ${TARJETA}
                     WHEN k = 2 THEN CASE WHEN jj % 20 < 9 THEN ${TARJETA} ELSE ${EFECTIVO} END
                     WHEN jj % 20 < 9 THEN ${EFECTIVO} WHEN jj % 20 < 16 THEN ${TARJETA}
                     WHEN jj % 20 < 18 THEN 3 WHEN jj % 20 < 19 THEN 4 ELSE 5 END AS metodo,
                CASE WHEN n = 2 AND k = 1 THEN round(total / 2, 2)
                     WHEN n = 2 AND k = 2 THEN total - round(total / 2, 2)
                     ELSE total END AS monto,
                CASE WHEN k = 1 AND jj % 3 = 0 THEN round(total * 0.10, 1) ELSE 0 END AS propina,
                fec_apertura + i * interval '8 seconds' AS fec
           FROM r WHERE i <= $3)
       INSERT INTO pagos (id_comanda, id_sesion, id_metodo_pago, monto, propina, recibido, vuelto,
                          referencia, estado, id_usuario, fec_pago, motivo_anulacion,
                          id_usuario_anulacion, fec_anulacion)
       SELECT id_comanda, id_sesion, metodo, monto, propina,
              CASE WHEN metodo = ${EFECTIVO} THEN (floor((monto + propina) / 10) + 1) * 10 END,
              CASE WHEN metodo = ${EFECTIVO} THEN (floor((monto + propina) / 10) + 1) * 10 - monto - propina ELSE 0 END,
              CASE WHEN metodo <> ${EFECTIVO} THEN 'op ' || id_comanda || '-' || k END,
              CASE WHEN k = 0 THEN 'anulado' ELSE 'aplicado' END,
              id_usuario, fec,
              CASE WHEN k = 0 THEN 'tarjeta rechazada' END,
              CASE WHEN k = 0 THEN id_usuario END,
              CASE WHEN k = 0 THEN fec + interval '1 minute' END
         FROM v ORDER BY id_sesion, i`,
      [ids, perSession, PAYMENTS],
    );
    await c.query(
      `INSERT INTO reembolsos (id_pago, id_comanda, id_sesion, monto, motivo, id_usuario, fec_reembolso)
       SELECT id_pago, id_comanda, id_sesion, least(monto, 15), 'plato devuelto', id_usuario,
              fec_pago + interval '20 minutes'
         FROM pagos
        WHERE id_sesion = ANY($1::bigint[]) AND estado = 'aplicado' AND id_comanda % 97 = 5
        ORDER BY id_pago`,
      [ids],
    );
    await c.query(
      `INSERT INTO movimientos_caja (id_sesion, tipo, monto, motivo, id_usuario, fec_movimiento)
       SELECT s.id_sesion, CASE WHEN g % 3 = 0 THEN 'ingreso' ELSE 'retiro' END,
              CASE WHEN g % 3 = 0 THEN 100 ELSE 500 END,
              CASE WHEN g % 3 = 0 THEN 'sencillo para el cambio' ELSE 'depósito a la bóveda' END,
              1, s.fec_apertura + g * interval '50 minutes'
         FROM sesiones_caja s CROSS JOIN generate_series(1, 12) g
        WHERE s.id_sesion = ANY($1::bigint[])
        ORDER BY s.id_sesion, g`,
      [ids],
    );
    // the closed sessions' counts: what was expected, counted as expected
    await c.query(
      `INSERT INTO sesion_caja_cierres (id_sesion, id_metodo_pago, esperado, contado)
       SELECT s.id_sesion, f.id_metodo_pago, f.esperado, f.esperado
         FROM sesiones_caja s CROSS JOIN LATERAL figuras_sesion_caja(s.id_sesion) f
        WHERE s.id_sesion = ANY($1::bigint[]) AND s.estado = 'cerrada'`,
      [ids],
    );
    await c.query('COMMIT');
    // what autovacuum would have done by the time these tables hold days of payments
    await c.query(
      'VACUUM ANALYZE pagos, reembolsos, movimientos_caja, sesiones_caja, sesion_caja_cierres',
    );
    const {
      rows: [counts],
    } = await c.query(
      `SELECT (SELECT count(*)::int FROM pagos) AS pagos,
              (SELECT count(*)::int FROM pagos WHERE id_sesion = $1) AS z_pagos,
              (SELECT count(*)::int FROM pagos WHERE id_sesion = $1 AND estado = 'anulado') AS z_anulados,
              (SELECT count(*)::int FROM pagos WHERE id_sesion = $1 AND propina > 0) AS z_propinas,
              (SELECT count(*)::int FROM reembolsos WHERE id_sesion = $1) AS z_reembolsos,
              (SELECT count(*)::int FROM movimientos_caja WHERE id_sesion = $1) AS z_movimientos,
              (SELECT count(*)::int FROM pagos WHERE id_sesion = $2) AS x_pagos`,
      [sessions[sessions.length - 1].id, x.id],
    );
    return {
      history,
      z: sessions[sessions.length - 1].id,
      zNumber: history + 1,
      x: x.id,
      counts,
    };
  });
}

/** What the report's totals must be: summed by SQL from the session's rows, as text. */
async function expectedTotals(tenantUrl, idSesion) {
  return withClient(tenantUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT count(*) FILTER (WHERE estado = 'aplicado')::int AS pagos,
              count(DISTINCT id_comanda) FILTER (WHERE estado = 'aplicado')::int AS comandas,
              coalesce(sum(monto) FILTER (WHERE estado = 'aplicado'), 0)::text AS ventas,
              coalesce(sum(propina) FILTER (WHERE estado = 'aplicado'), 0)::text AS propinas,
              (SELECT coalesce(sum(monto), 0) FROM reembolsos WHERE id_sesion = $1)::text AS reembolsos
         FROM pagos WHERE id_sesion = $1`,
      [idSesion],
    );
    return rows[0];
  });
}

/** Whether a JSON report's totals are the rows' (numbers compared to PostgreSQL's text). */
function totalsProblem(json, expected, tipo) {
  const t = json?.totales;
  if (json?.tipo !== tipo) return `tipo ${json?.tipo}, not ${tipo}`;
  const same =
    t.pagos === expected.pagos &&
    t.comandas === expected.comandas &&
    t.ventas === Number(expected.ventas) &&
    t.propinas === Number(expected.propinas) &&
    t.reembolsos === Number(expected.reembolsos);
  return same
    ? undefined
    : `totales ${JSON.stringify(t)} against the rows' ${JSON.stringify(expected)}`;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the report's three statements (CajasRepository's session,
 * figures with their totals, movements) on a session: the repository is given a connection that prefixes
 * each with EXPLAIN. Answers each one's plan and execution time.
 */
async function explainReport(tenantUrl, idSesion) {
  const { CajasRepository } = require(join(DIST, 'cobros', 'cajas.repository'));
  return withClient(tenantUrl, async (c) => {
    const plans = [];
    const explaining = {
      query: async (sql, params) => {
        const res = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
        const plan = res.rows.map((r) => r['QUERY PLAN']).join('\n');
        const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]);
        const planning = Number(/Planning Time: ([\d.]+) ms/.exec(plan)?.[1]);
        plans.push({ plan, ms, planning });
        return [{}];
      },
    };
    const repository = new CajasRepository(undefined);
    // twice: the first of a session plans the functions' SQL and reads the catalog
    for (let round = 0; round < 2; round += 1) {
      plans.length = 0;
      await repository.session(idSesion, explaining);
      await repository.figures(explaining, idSesion);
      await repository.movements(explaining, idSesion);
    }
    const [session, figuras, movimientos] = plans;
    return { session, figuras, movimientos };
  });
}

/** The median of a list of numbers. */
const median = (list) =>
  percentile(
    [...list].sort((a, b) => a - b),
    50,
  );

/**
 * PostgreSQL's time in a pay-and-close, statement by statement: the service's own classes
 * (bench/support/service-classes.js) close `comandas` one after the other through one client
 * that runs each statement first as EXPLAIN (ANALYZE, TIMING OFF, SUMMARY) inside a savepoint
 * rolled back, then for real. Answers, per statement in the order run, its first words and the
 * medians of its planning and execution times.
 */
async function explainPayAndClose(tenantUrl, comandas, timeZone) {
  const { serviceClasses } = require('./support/service-classes');
  return withClient(tenantUrl, async (c) => {
    let current;
    const runs = [];
    const query = async (sql, params) => {
      await c.query('SAVEPOINT explained');
      const { rows } = await c.query(
        `EXPLAIN (ANALYZE, TIMING OFF, SUMMARY, FORMAT JSON) ${sql}`,
        params,
      );
      await c.query('ROLLBACK TO SAVEPOINT explained');
      const [plan] = rows[0]['QUERY PLAN'];
      current.push({ sql, planning: plan['Planning Time'], execution: plan['Execution Time'] });
      return (await c.query(sql, params)).rows;
    };
    // the transactions' statements explained too, on the one client (BEGIN and COMMIT are not)
    const dataSource = {
      query,
      createQueryRunner: () => queryRunner({ acquire: async () => ({ client: c, query }) }),
    };
    const { comandas: service } = serviceClasses(dataSource, {
      timeZone,
      env: { ...env, FEATURE_COBROS: 'true' },
    });
    for (const comanda of comandas) {
      current = [];
      await service.update(comanda.id, JSON.parse(comanda.body), undefined, { id_usuario: null });
      runs.push(current);
    }
    return runs[0].map((first, i) => ({
      statement: first.sql.replace(/\s+/g, ' ').trim().slice(0, 72),
      bill: first.sql.includes('cuenta_comanda('),
      planning: median(runs.map((run) => run[i].planning)),
      execution: median(runs.map((run) => run[i].execution)),
    }));
  });
}

/**
 * The stage, on a service and a baseline started with FEATURE_COBROS=true (startServers) and one
 * tenant with closed comandas (bench/support/comandas-volume.js).
 */
async function cobrosBench({ servers, tenant, tenantUrl, timeZone = 'America/Lima' }) {
  const started = performance.now();
  const problems = [];
  const { servicePort, baselinePort } = servers;
  const baseline = {
    port: baselinePort,
    pid: servers.pids.baseline,
    applicationName: BASELINE_APP,
  };
  const service = {
    port: servicePort,
    pid: servers.pids.service,
    applicationName: `comandas:${tenant}`,
  };

  // 1. pay-and-close
  const opened = await call(servicePort, {
    method: 'POST',
    path: '/api/v1/cajas/1/sesiones',
    tenant,
    body: { monto_apertura: 200 },
  });
  if (opened.status !== 201)
    throw new Error(`POST /cajas/1/sesiones answered ${opened.status}: ${opened.text}`);
  const session = opened.json.sesion.id_sesion;
  const seededAt = performance.now();
  const pool = await addOpenComandas(tenantUrl, OPEN_COMANDAS);
  const seedMs = performance.now() - seededAt;
  const queue = queueOf(pool.comandas);
  let answered = await sameAnswers({ servicePort, baselinePort }, tenant, queue, problems);
  for (const port of [baselinePort, servicePort]) {
    const warm = await payAndCloseLoad(port, tenant, queue, WARM_UP_S);
    answered += warm.ok;
  }
  // baseline, service, service, baseline: a drift of the machine during the stage weighs on both
  const runs = [];
  for (const server of [baseline, service, service, baseline])
    runs.push(await payAndCloseLoad(server.port, tenant, queue, DURATION, { server, tenantUrl }));
  const base = [runs[0], runs[3]];
  const svc = [runs[1], runs[2]];
  answered += runs.reduce((sum, run) => sum + run.ok, 0);
  if (queue.exhausted)
    problems.push(
      `the ${pool.comandas.length} open comandas ran out (BENCH_COBROS_COMANDAS): the last requests were refused`,
    );
  const errors = (side) => side.reduce((sum, run) => sum + run.errors, 0);
  if (errors(base) + errors(svc) > 0)
    problems.push(`pay-and-close errors: baseline ${errors(base)}, service ${errors(svc)}`);
  // requests still in flight when a run ends are answered to no one but done: every comanda
  // taken is closed with one payment of the session or (its change rolled back) untouched
  await sleep(500);
  const taken = await withClient(tenantUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT (SELECT count(*)::int FROM pagos WHERE id_sesion = $1) AS pagos,
              count(*) FILTER (WHERE c.estado = 'cerrada')::int AS cerradas,
              count(*) FILTER (WHERE c.estado = 'cerrada' AND (p.n <> 1 OR p.otra_sesion))::int AS mal_pagadas,
              count(*) FILTER (WHERE c.estado = 'abierta' AND p.n > 0)::int AS abiertas_con_pago
         FROM comandas c
         CROSS JOIN LATERAL (
           SELECT count(*) AS n, coalesce(bool_or(id_sesion <> $1), false) AS otra_sesion
             FROM pagos WHERE id_comanda = c.id_comanda) p
        WHERE c.id_comanda > $2`,
      [session, pool.before],
    );
    return rows[0];
  });
  if (
    taken.mal_pagadas + taken.abiertas_con_pago > 0 ||
    taken.pagos !== taken.cerradas ||
    taken.cerradas < answered ||
    taken.cerradas > queue.used
  )
    problems.push(
      `${taken.pagos} payments in the session and ${taken.cerradas} comandas closed for ${answered} answers 200 ` +
        `of ${queue.used} requests; ${taken.mal_pagadas} closed without exactly one payment of the session, ` +
        `${taken.abiertas_con_pago} open with one`,
    );

  const explained = await explainPayAndClose(
    tenantUrl,
    Array.from({ length: EXPLAINED }, () => queue.next()),
    timeZone,
  );
  if (queue.exhausted) problems.push('the open comandas ran out before the EXPLAIN');

  // 2. the X and the Z of a session of PAYMENTS payments
  const seedSessionsAt = performance.now();
  const seeded = await seedSessions(tenantUrl);
  const seedSessionsMs = performance.now() - seedSessionsAt;
  const before = await call(servicePort, { path: `/api/v1/sesiones-caja/${seeded.z}`, tenant });
  const cash = before.json?.metodos?.find((m) => m.cuenta_en_caja);
  if (before.status !== 200 || !cash)
    throw new Error(`GET /sesiones-caja/${seeded.z} answered ${before.status}: ${before.text}`);
  const closed = await call(servicePort, {
    method: 'POST',
    path: `/api/v1/sesiones-caja/${seeded.z}/cerrar`,
    tenant,
    body: {
      contado: [{ id_metodo_pago: cash.id_metodo_pago, monto: cash.esperado }],
      nota: 'cierre del día',
    },
  });
  if (closed.status !== 201 || closed.json?.sesion?.numero_z !== seeded.zNumber)
    problems.push(
      `POST /sesiones-caja/${seeded.z}/cerrar answered ${closed.status}: ${closed.text.slice(0, 300)}`,
    );
  const expected = {
    Z: await expectedTotals(tenantUrl, seeded.z),
    X: await expectedTotals(tenantUrl, seeded.x),
  };
  const routes = [
    { key: 'zJson', tipo: 'Z', path: `/api/v1/sesiones-caja/${seeded.z}` },
    {
      key: 'zText',
      tipo: 'Z',
      path: `/api/v1/sesiones-caja/${seeded.z}/reporte`,
      accept: 'text/plain',
    },
    { key: 'xJson', tipo: 'X', path: `/api/v1/sesiones-caja/${seeded.x}` },
    {
      key: 'xText',
      tipo: 'X',
      path: `/api/v1/sesiones-caja/${seeded.x}/reporte`,
      accept: 'text/plain',
    },
  ];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = Object.fromEntries(routes.map((r) => [r.key, []]));
  let reportErrors = 0;
  for (let i = 0; i < REPORT_WARM_UP + REPORTS; i += 1) {
    for (const route of routes) {
      const res = await call(servicePort, { ...route, tenant, agent });
      let problem;
      if (res.status !== 200) problem = `answered ${res.status}: ${res.text.slice(0, 200)}`;
      else if (route.accept)
        problem =
          res.type.startsWith('text/plain') &&
          res.text.includes(`REPORTE ${route.tipo}`) &&
          res.text.includes(`Pagos`)
            ? undefined
            : `answered ${res.type}: ${res.text.slice(0, 200)}`;
      else problem = totalsProblem(res.json, expected[route.tipo], route.tipo);
      if (problem) {
        reportErrors += 1;
        if (problems.length < 20) problems.push(`GET ${route.path} ${problem}`);
      } else if (i >= REPORT_WARM_UP) latencies[route.key].push(res.ms);
    }
  }
  agent.destroy();
  const explain = await explainReport(tenantUrl, seeded.z);

  return {
    failed: problems.length > 0,
    problems,
    payAndClose: {
      base: mean(base),
      svc: mean(svc),
      runs: { base, svc },
      comandas: pool.comandas.length,
      used: queue.used,
      seedMs,
      payments: taken.pagos,
      closed: taken.cerradas,
      answered,
      explained,
    },
    reports: {
      seeded,
      seedMs: seedSessionsMs,
      closeMs: closed.ms,
      expected,
      latencies: Object.fromEntries(routes.map((r) => [r.key, latencyFigures(latencies[r.key])])),
      errors: reportErrors,
      explain,
    },
    seconds: (performance.now() - started) / 1000,
  };
}

/** The stage's lines of the bench's report (markdown). */
function report(r, fmt) {
  const ms = (x) => (Number.isNaN(x) ? 'n/a' : fmt(x, 1));
  const ms2 = (x) => (Number.isNaN(x) ? 'n/a' : fmt(x, 2));
  const { base, svc, runs } = r.payAndClose;
  const ratio = svc.rps / base.rps;
  const latency = (side) => side.map((run) => `${run.p50} / ${run.p99}`).join(', ');
  const x = r.payAndClose.explained;
  const sum = (list, key) => list.reduce((total, item) => total + item[key], 0);
  const bills = x.filter((st) => st.bill);
  const { seeded, latencies: l, explain: e } = r.reports;
  const c = seeded.counts;
  const p50Target = (f) =>
    f.p50 < TARGET_P50_MS
      ? `under the ${TARGET_P50_MS} ms asked`
      : `over the ${TARGET_P50_MS} ms asked`;
  const row = (label, f) =>
    `| ${label} (${f.n}) | **${ms(f.p50)} / ${ms(f.p95)} ms** | ${ms(f.max)} ms | ${p50Target(f)} |`;
  const lines = [
    `\n## Cobros: FEATURE_COBROS=true on \`main\` (the stage took ${fmt(r.seconds)} s)\n`,
    '| scenario | baseline req/s | service req/s | ratio | service p50 / p99 (ms) | service errors |',
    '|---|---|---|---|---|---|',
    `| PUT /comandas/:id cerrar with one cash payment (means of two runs each) | ${fmt(base.rps)} | ` +
      `${fmt(svc.rps)} | **${fmt(ratio, 2)}** (${ratio >= TARGET_RATIO ? 'at or above' : 'below'} the ` +
      `${TARGET_RATIO} asked) | ${latency(runs.svc)} | ${svc.errors} |`,
    '',
    `Pay-and-close, runs in the order baseline, service, service, baseline: ` +
      `${[runs.base[0], runs.svc[0], runs.svc[1], runs.base[1]].map((run) => fmt(run.rps)).join(', ')} req/s; ` +
      `baseline p50 / p99 ${latency(runs.base)} ms, errors ${base.errors}. ${fmt(r.payAndClose.used)} of ` +
      `${fmt(r.payAndClose.comandas)} open comandas used (added in ${fmt(r.payAndClose.seedMs / 1000, 1)} s): ` +
      `${fmt(r.payAndClose.closed)} closed, each with one payment of the session (${fmt(r.payAndClose.payments)}), ` +
      `for ${fmt(r.payAndClose.answered)} answers 200 (the rest were in flight as a run ended).`,
    '',
    `CPU per pay-and-close (means of the two runs): the baseline's process ${ms2(base.cpu.server)} ms ` +
      `and its PostgreSQL sessions ${ms2(base.cpu.postgres)} ms; the service's process ` +
      `${ms2(svc.cpu.server)} ms and its PostgreSQL sessions ${ms2(svc.cpu.postgres)} ms.`,
    '',
    `PostgreSQL's time in one pay-and-close, EXPLAIN ANALYZE of its ${x.length} statements (medians of ` +
      `${EXPLAINED} comandas): planning ${ms2(sum(x, 'planning'))} ms, execution ${ms2(sum(x, 'execution'))} ms; ` +
      `the ${bills.length} that read cuenta_comanda plan in ${bills.map((b) => ms2(b.planning)).join(' / ')} ms.`,
    '',
    `| report of a session of ${fmt(PAYMENTS)} payments, one request at a time | p50 / p95 | max | |`,
    '|---|---|---|---|',
    row('GET /sesiones-caja/:id, the Z (closed)', l.zJson),
    row('GET /sesiones-caja/:id/reporte, the Z, text/plain', l.zText),
    row('GET /sesiones-caja/:id, the X (open)', l.xJson),
    row('GET /sesiones-caja/:id/reporte, the X, text/plain', l.xText),
    `| POST /sesiones-caja/:id/cerrar, the Z's close (once) | ${ms(r.reports.closeMs)} ms | | |`,
    `| the report's SQL (EXPLAIN ANALYZE on the Z), session / figures with totals / movements: execution | ` +
      `${[e.session, e.figuras, e.movimientos].map((s) => ms(s.ms)).join(' / ')} ms | | |`,
    `| the same, planning | ` +
      `${[e.session, e.figuras, e.movimientos].map((s) => ms(s.planning)).join(' / ')} ms | | |`,
    '',
    `The Z's session: ${fmt(c.z_pagos)} payments (${fmt(c.z_anulados)} voided, ${fmt(c.z_propinas)} with a tip), ` +
      `${fmt(r.reports.expected.Z.comandas)} comandas, ${c.z_reembolsos} refunds, ${c.z_movimientos} movements, ` +
      `Z number ${seeded.zNumber} after ${seeded.history} closed sessions of the same size; the X's, ` +
      `${fmt(c.x_pagos)} payments; ${fmt(c.pagos)} payments in the tenant (seeded in ` +
      `${fmt(r.reports.seedMs / 1000, 1)} s). Report answers not as expected: ${r.reports.errors}.`,
  ];
  if (EXPLAIN) {
    lines.push(
      `\n### PostgreSQL's time in one pay-and-close, statement by statement (medians of ${EXPLAINED})\n`,
      '| # | statement | planning (ms) | execution (ms) |',
      '|---|---|---|---|',
      ...x.map(
        (st, i) =>
          `| ${i + 1} | \`${st.statement}\` | ${ms2(st.planning)} | ${ms2(st.execution)} |`,
      ),
    );
    for (const [name, s] of Object.entries(e))
      lines.push(`\n### EXPLAIN (ANALYZE, BUFFERS): ${name}\n\n\`\`\`\n${s.plan}\n\`\`\``);
  }
  if (r.problems.length > 0) lines.push(`\nCobros problems: ${r.problems.join('; ')}.`);
  return lines.join('\n');
}

/**
 * `npm run bench:cobros`: the stage alone, on an embedded PostgreSQL of its own (or
 * BENCH_DATABASE_URL) with one tenant, `main`, seeded as `npm run bench` seeds it
 * (BENCH_COMANDAS comandas, 100,000), and the pools of its first service (2 connections).
 */
async function main() {
  const { seedComandaVolume } = require('./support/comandas-volume');
  const { withDatabase } = require(join(DIST, 'database', 'pg-url'));
  const prefix = 'comandas_bench_cobros_';
  const tenant = 'main';
  const timeZone = 'America/Lima';
  const comandas = Number(env.BENCH_COMANDAS ?? 100_000);
  await runStandalone({
    name: 'cobros',
    prefix,
    stage: async ({ serverUrl, work, atEnd }) => {
      const cliEnv = {
        DATABASE_URL: withDatabase(serverUrl, `${prefix}control`),
        TENANT_DB_PREFIX: prefix,
        DEMO_TENANT: 'false',
        LOG_LEVEL: 'warn',
      };
      const tenantUrl = withDatabase(serverUrl, `${prefix}${tenant}`);
      await run(
        join(DIST, 'cli', 'tenant.cli.js'),
        ['create', tenant, '--name', 'Main', '--time-zone', timeZone],
        cliEnv,
      );
      const counts = await withClient(tenantUrl, (c) => seedComandaVolume(c, comandas, timeZone));
      const profileDir = join(work, 'profile');
      const servers = await startServers({
        work,
        cliEnv,
        serviceConfig: { CONTROL_POOL_MAX: '4' },
        tenantUrl,
        poolMax: 2,
        nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      });
      atEnd(() => servers.stop());
      const result = await cobrosBench({ servers, tenant, tenantUrl });
      console.log(
        `# npm run bench:cobros (${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, ` +
          `${CONNECTIONS} connections x ${DURATION} s; main: ${fmt(counts.comandas)} comandas, ` +
          `TENANT_POOL_MAX=2)`,
      );
      console.log(report(result, fmt));
      if (PROFILE) {
        await servers.stop(); // the profile is written as the service exits
        printProfile(profileDir, 'comandas-cobros.cpuprofile');
      }
      if (result.failed) {
        console.error('\nThe cobros stage failed: an answer was not as it must be.');
        process.exitCode = 1;
      }
    },
  });
}

if (require.main === module) runMain(main);

module.exports = { cobrosBench, report, startServers, addOpenComandas, seedSessions };
