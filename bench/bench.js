// npm run bench: the service against a bare baseline running the same SQL, on one PostgreSQL.
//
// 1. PostgreSQL: an embedded server of its own (or BENCH_DATABASE_URL: any server where the user
//    may create databases; the bench's databases are named comandas_bench_*).
// 2. Tenants: `main` with 100,000 comandas and their lines (plus the demo data) and 5,000
//    products, and 1,000 small tenants (t0001..t1000, demo data) for the many-tenant scenarios.
// 3. Servers: the service (dist/main.js, LOG_LEVEL=info, logs to a file) and the baseline
//    (bench/baseline-server.js: node:http + pg running the service's own SQL); both must answer
//    the same bytes before any load.
// 4. Load: autocannon, BENCH_CONNECTIONS connections for BENCH_DURATION seconds per scenario,
//    baseline and service one after the other (comanda routes, generic routes); then 100
//    tenants round-robin, the detail at a fixed rate of half the baseline's peak, the live
//    stream (bench/stream.js: 200 subscribers while 100 changes/s are made; the detail without
//    and with them), 1,000 tenants round-robin on a second service at the default settings,
//    staff sign-in on a third service with AUTH_MODE=jwt (bench/sign-in.js: one sign-in's time,
//    and a burst of them against another route's latency), money on a fourth service and a
//    baseline of its own with FEATURE_COBROS=true (bench/cobros.js: pay-and-close against the
//    baseline, the X and the Z of a session of 5,000 payments), stock on a fifth service
//    (bench/inventario.js: closes of two tenants of the same shape with the feature inventario
//    off and on, the consumption report over 100,000 closed lines), the kitchen on a sixth
//    service with FEATURE_COCINA=true (bench/cocina.js: 20 kitchen screens on 3 stations while
//    50 sends/s go to the kitchen), the reports on a seventh service (bench/reportes.js: GET
//    /reportes/ventas over a year of 100,000 closed comandas for every grouping, one request at a
//    time), outbound webhooks on an eighth service with FEATURE_WEBHOOKS=true (bench/webhooks.js:
//    1,000 comanda changes a run with one endpoint against none, commit → delivery to a local
//    receiver, lost and duplicated messages), and a cold and a warm start of the service.
// Prints a markdown table; exits 1 if the service answered any error, the PostgreSQL
// connections exceeded the configured cap, a stream subscriber missed an event, a sign-in
// failed or the money or stock stages' answers were not as they must be. BENCH_PROFILE=1 also
// writes a CPU profile of the service under the detail and list load and prints where its time
// goes; BENCH_STREAM=0 leaves the live stream out, BENCH_SIGN_IN=0 the sign-in stage (alone:
// npm run bench:sign-in), BENCH_COBROS=0 the money stage (alone: npm run bench:cobros),
// BENCH_INVENTARIO=0 the stock stage (alone: npm run bench:inventario), BENCH_COCINA=0 the
// kitchen stage (alone: npm run bench:cocina), BENCH_REPORTES=0 the reports stage (alone: npm run
// bench:reportes), BENCH_WEBHOOKS=0 the webhooks stage (alone: npm run bench:webhooks).
require('reflect-metadata');
const { randomBytes } = require('node:crypto');
const { chmodSync, copyFileSync, mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const autocannon = require('autocannon');
const { seedComandaVolume } = require('./support/comandas-volume');
const { freePort, run, start, withClient } = require('./support/processes');
const { roundRobin, sessionsOpened, smallTenant, smallTenants } = require('./support/tenants');
const { summariseProfile } = require('./support/cpu-profile');
const { pacedLoad } = require('./support/paced-load');
const stream = require('./stream');
const signIn = require('./sign-in');
const cobros = require('./cobros');
const inventario = require('./inventario');
const cocina = require('./cocina');
const reportes = require('./reportes');
const webhooks = require('./webhooks');

const ROOT = join(__dirname, '..');
const BASELINE_APP = 'comandas-bench-baseline';
const DIST = join(ROOT, 'dist');
const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 16);
const COMANDAS = Number(env.BENCH_COMANDAS ?? 100_000);
const TENANTS = Number(env.BENCH_TENANTS ?? 100);
const MANY_TENANTS = Math.max(TENANTS, Number(env.BENCH_MANY_TENANTS ?? 1000));
const PRODUCTS = 5_000;
const PROFILE = env.BENCH_PROFILE === '1';
const STREAM = env.BENCH_STREAM !== '0';
const SIGN_IN = env.BENCH_SIGN_IN !== '0';
const COBROS = env.BENCH_COBROS !== '0';
const INVENTARIO = env.BENCH_INVENTARIO !== '0';
const COCINA = env.BENCH_COCINA !== '0';
const REPORTES = env.BENCH_REPORTES !== '0';
const WEBHOOKS = env.BENCH_WEBHOOKS !== '0';
const PREFIX = 'comandas_bench_';
const TIME_ZONE = 'America/Lima';
const MAX_CONNECTIONS = 320; // of the embedded server

const { withDatabase } = require(join(DIST, 'database', 'pg-url'));

/** The tenants of the bench: main (volume) and t0001..t1000 (demo data, cloned from t0001). */
async function provision(serverUrl, cliEnv) {
  const tenantCli = join(DIST, 'cli', 'tenant.cli.js');
  await run(tenantCli, ['create', 'main', '--name', 'Main', '--time-zone', TIME_ZONE], cliEnv);
  const started = Date.now();
  const counts = await withClient(withDatabase(serverUrl, `${PREFIX}main`), (c) =>
    seedComandaVolume(c, COMANDAS, TIME_ZONE),
  );
  // the generic routes read productos: a menu of 5,000 products
  await withClient(withDatabase(serverUrl, `${PREFIX}main`), (c) =>
    c.query(
      `INSERT INTO productos (nombre, img_producto, precio, id_categoria)
       SELECT 'Producto de carta ' || n, CASE WHEN n % 3 = 0 THEN 'img/p' || n || '.webp' END,
              (n % 400) + 0.5, (SELECT min(id_categoria) FROM categorias)
         FROM generate_series(1, $1 - (SELECT count(*) FROM productos)) n`,
      [PRODUCTS],
    ),
  );
  const seeded = Date.now() - started;
  const cloned = Date.now();
  await smallTenants({
    serverUrl,
    cliEnv,
    prefix: PREFIX,
    count: MANY_TENANTS,
    timeZone: TIME_ZONE,
  });
  return { counts, seeded, clonedMs: Date.now() - cloned };
}

/** ids of closed, not deleted comandas with lines: each PUT run takes its own. */
async function closedComandas(serverUrl, demo) {
  return withClient(withDatabase(serverUrl, `${PREFIX}main`), async (c) => {
    const { rows } = await c.query(
      `SELECT id_comanda::int AS id FROM comandas
        WHERE estado = 'cerrada' AND NOT eliminada AND id_comanda > $1 ORDER BY id_comanda`,
      [demo],
    );
    return rows.map((r) => r.id);
  });
}

const random = (n) => 1 + Math.floor(Math.random() * n);

function scenarios(putIds) {
  return {
    detail: {
      title: 'GET /comandas/:id (random ids)',
      requests: [
        { setupRequest: (req) => ({ ...req, path: `/api/v1/comandas/${random(COMANDAS)}` }) },
      ],
    },
    list: { title: 'GET /comandas?limit=50', requests: [{ path: '/api/v1/comandas?limit=50' }] },
    listFiltered: {
      title: 'GET /comandas?limit=50&id_mesa=3',
      requests: [{ path: '/api/v1/comandas?limit=50&id_mesa=3' }],
    },
    genericList: {
      title: 'GET /table/productos?limit=100 (generic)',
      requests: [{ path: '/api/v1/table/productos?limit=100' }],
    },
    genericSchema: {
      title: 'GET /schema/productos (generic)',
      requests: [{ path: '/api/v1/schema/productos' }],
    },
    putCycle: {
      title: 'PUT abrir / cerrar cycles',
      // each connection reopens and closes its own comanda, so no two requests conflict
      requests: ['abrir', 'cerrar'].map((action) => ({
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action }),
        setupRequest: (req, context) => {
          if (context.id === undefined) context.id = putIds.next().value;
          return { ...req, path: `/api/v1/comandas/${context.id}` };
        },
      })),
    },
  };
}

async function load(port, scenario, options = {}) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { 'x-tenant-id': 'main' },
    requests: scenario.requests,
    ...options,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** The most client connections PostgreSQL had open while `work` ran (sampled every 100 ms). */
async function peakConnections(serverUrl, work) {
  return withClient(serverUrl, async (c) => {
    let peak = 0;
    let running = true;
    const sampler = (async () => {
      while (running) {
        const { rows } = await c.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE backend_type = 'client backend' AND datname LIKE '${PREFIX}%'
              AND application_name <> '${BASELINE_APP}' AND pid <> pg_backend_pid()`,
        );
        peak = Math.max(peak, rows[0].n);
        await sleep(100);
      }
    })();
    try {
      const result = await work();
      return { result, peak };
    } finally {
      running = false;
      await sampler;
    }
  });
}

/** Cold (initdb, control database, demo tenant) and warm start of `node dist/main.js`. */
async function startupTimes(work) {
  const [port, httpPort] = [await freePort(), await freePort()];
  const childEnv = {
    DATABASE_URL: '',
    EMBEDDED_PG_DATA_DIR: join(work, 'startup-pg'),
    EMBEDDED_PG_PORT: String(port),
    PORT: String(httpPort),
    LOG_LEVEL: 'warn',
  };
  const times = [];
  for (const kind of ['cold', 'warm']) {
    const started = Date.now();
    const service = start(
      join(DIST, 'main.js'),
      [],
      childEnv,
      'is listening on',
      join(work, `start-${kind}.log`),
    );
    await service.ready;
    times.push({ kind, ms: Date.now() - started });
    await service.stop();
  }
  return times;
}

/** The body of a GET, as text. */
async function body(port, path) {
  const res = await globalThis.fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { 'x-tenant-id': 'main' },
  });
  if (!res.ok) throw new Error(`GET ${path} on port ${port}: ${res.status} ${await res.text()}`);
  return res.text();
}

/** The baseline and the service must answer the same JSON, or the ratio compares two things. */
async function sameAnswers(baselinePort, servicePort, paths) {
  for (const path of paths) {
    const [base, svc] = [await body(baselinePort, path), await body(servicePort, path)];
    if (base !== svc) {
      throw new Error(
        `The baseline and the service answer GET ${path} differently:\n${base.slice(0, 400)}\n${svc.slice(0, 400)}`,
      );
    }
  }
}

/** The connection budget a service reports in its health answer. */
async function defaultConnectionCap(port) {
  const res = await globalThis.fetch(`http://127.0.0.1:${port}/api/health`);
  const health = await res.json();
  const budget = health?.connections?.budget;
  if (typeof budget !== 'number')
    throw new Error(`No connection budget in /api/health: ${JSON.stringify(health)}`);
  return budget;
}

/** One line on stderr as each stage ends: a run that fails late still shows what it measured. */
const progress = (line) =>
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

const fmt = (n, digits = 0) =>
  n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The bench's databases (comandas_bench_*), left by an earlier run or made by this one. */
function dropBenchDatabases(serverUrl) {
  return withClient(serverUrl, async (c) => {
    const { rows } = await c.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${PREFIX}%`,
    ]);
    for (const { datname } of rows) await c.query(`DROP DATABASE "${datname}" WITH (FORCE)`);
  });
}

async function main() {
  const benchStarted = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'comandas-bench-'));
  chmodSync(work, 0o755);
  const stoppers = [];
  let embedded;
  let cleanup;
  let failed = false;
  try {
    let serverUrl = env.BENCH_DATABASE_URL;
    let maxConnections = MAX_CONNECTIONS;
    if (!serverUrl) {
      const { EmbeddedPostgres } = require(join(DIST, 'database', 'embedded-postgres'));
      embedded = new EmbeddedPostgres({
        dataDir: join(work, 'pg'),
        port: 54_397,
        // commit timestamps: the live stream's latency is measured from the commit
        settings: { max_connections: String(MAX_CONNECTIONS), track_commit_timestamp: 'on' },
      });
      serverUrl = (await embedded.start()).adminUrl;
    } else {
      maxConnections = await withClient(serverUrl, async (c) =>
        Number((await c.query('SHOW max_connections')).rows[0].max_connections),
      );
    }
    await dropBenchDatabases(serverUrl);
    if (!embedded) cleanup = () => dropBenchDatabases(serverUrl);

    // pools sized so that every tenant's DataSource stays cached within max_connections
    const controlPool = 4;
    const tenantPool = Math.max(
      1,
      Math.min(3, Math.floor((maxConnections - 16 - controlPool) / (TENANTS + 1))),
    );
    const serviceConfig = {
      TENANT_POOL_MAX: String(tenantPool),
      TENANT_DATASOURCE_MAX: String(TENANTS + 1),
      CONTROL_POOL_MAX: String(controlPool),
      // the load comes from one client: a per-client limit would answer 429 to most of it
      RATE_LIMIT_MAX: '0',
    };
    const cap = tenantPool * (TENANTS + 1) + controlPool;
    const cliEnv = {
      DATABASE_URL: withDatabase(serverUrl, `${PREFIX}control`),
      TENANT_DB_PREFIX: PREFIX,
      DEMO_TENANT: 'false',
      LOG_LEVEL: 'warn',
    };
    const provisioned = await provision(serverUrl, cliEnv);
    progress(
      `tenants ready: main seeded in ${fmt(provisioned.seeded / 1000, 1)} s, ${MANY_TENANTS} small ones cloned in ${fmt(provisioned.clonedMs / 1000, 1)} s`,
    );
    const putIds = (await closedComandas(serverUrl, provisioned.counts.demo))[Symbol.iterator]();

    const [baselinePort, servicePort] = [await freePort(), await freePort()];
    const baseline = start(
      join(__dirname, 'baseline-server.js'),
      [],
      {
        BASELINE_DB_URL: withDatabase(serverUrl, `${PREFIX}main`),
        BASELINE_PORT: String(baselinePort),
        BASELINE_POOL_MAX: String(tenantPool),
        BASELINE_APPLICATION_NAME: BASELINE_APP,
        FEATURE_GENERIC_TABLES: 'true',
      },
      'baseline listening',
      join(work, 'baseline.log'),
    );
    stoppers.push(baseline.stop);
    const profileDir = join(work, 'profile');
    const service = start(
      join(DIST, 'main.js'),
      [],
      {
        ...cliEnv,
        ...serviceConfig,
        PORT: String(servicePort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        FEATURE_GENERIC_TABLES: 'true',
        // the live stream stage puts all its subscribers on one tenant: a fan-out measure, more
        // streams than one restaurant's share (SSE_MAX_PER_TENANT, 100 by default)
        SSE_MAX_PER_TENANT: env.BENCH_STREAM_SUBSCRIBERS ?? '200',
      },
      'is listening on',
      join(work, 'service.log'),
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    stoppers.push(service.stop);
    await Promise.all([baseline.ready, service.ready]);
    await sameAnswers(baselinePort, servicePort, [
      '/api/v1/table/productos?limit=100',
      '/api/v1/schema/productos',
      '/api/v1/comandas/4242',
    ]);

    const all = scenarios(putIds);
    for (const port of [baselinePort, servicePort]) {
      await load(port, all.detail, { duration: 3 }); // JIT and pools warm
    }
    const rows = [];
    for (const [key, scenario] of Object.entries(all)) {
      const base = await load(baselinePort, scenario);
      const svc = await load(servicePort, scenario);
      rows.push({ key, title: scenario.title, base, svc });
      progress(`${scenario.title}: baseline ${fmt(base.rps)}, service ${fmt(svc.rps)} req/s`);
      if (svc.errors > 0) failed = true;
    }

    // 100 tenants, round-robin, the detail of one of their first 300 comandas
    const manyTenants = roundRobin(TENANTS);
    // the same requests on one of those tenants alone: the reference of the many-tenant ratio
    const oneSmall = await load(servicePort, roundRobin(1));
    await load(servicePort, manyTenants, { duration: 3 }); // every tenant's DataSource opens
    const many = await peakConnections(serverUrl, () => load(servicePort, manyTenants));
    progress(
      `${TENANTS} tenants: ${fmt(many.result.rps)} req/s against ${fmt(oneSmall.rps)} on one`,
    );
    if (oneSmall.errors > 0 || many.result.errors > 0 || many.peak > cap) failed = true;

    // latency at a fixed offered rate, open loop: half the baseline's peak on the detail
    const rate = Math.round(rows[0].base.rps / 2);
    const detailRequest = () => ({
      path: `/api/v1/comandas/${random(COMANDAS)}`,
      headers: { 'x-tenant-id': 'main' },
    });
    const fixedBase = await pacedLoad({
      port: baselinePort,
      rate,
      durationS: DURATION,
      request: detailRequest,
    });
    const fixedSvc = await pacedLoad({
      port: servicePort,
      rate,
      durationS: DURATION,
      request: detailRequest,
    });
    // and at half the service's own peak: its latency when it is not saturated
    const ownRate = Math.round(rows[0].svc.rps / 2);
    const ownSvc = await pacedLoad({
      port: servicePort,
      rate: ownRate,
      durationS: DURATION,
      request: detailRequest,
    });
    if (fixedSvc.errors > 0 || ownSvc.errors > 0) failed = true;
    progress(
      `paced detail: p99 ${fixedSvc.p99} ms at ${fmt(rate)} req/s, ${ownSvc.p99} ms at ${fmt(ownRate)} req/s`,
    );

    const live = STREAM
      ? await stream.streamBench({
          servicePort,
          baselinePort,
          tenant: 'main',
          databaseUrl: withDatabase(serverUrl, `${PREFIX}main`),
          measure: (port) => load(port, all.detail),
        })
      : undefined;
    if (live?.failed) failed = true;

    await service.stop();
    await baseline.stop();
    stoppers.length = 0;

    // 1,000 tenants on a service at the defaults a user deploys (TENANT_DATASOURCE_MAX=20,
    // TENANT_POOL_MAX=5): the DataSource cache is far smaller than the tenants
    const defaults = start(
      join(DIST, 'main.js'),
      [],
      {
        ...cliEnv,
        PORT: String(servicePort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        RATE_LIMIT_MAX: '0',
      },
      'is listening on',
      join(work, 'service-defaults.log'),
    );
    stoppers.push(defaults.stop);
    await defaults.ready;
    const defaultCap = await defaultConnectionCap(servicePort);
    await load(servicePort, roundRobin(1), { duration: 3 });
    const thousandOne = await load(servicePort, roundRobin(1));
    await load(servicePort, roundRobin(MANY_TENANTS), { duration: 3 });
    const opensBefore = await sessionsOpened(serverUrl, PREFIX);
    const thousand = await peakConnections(serverUrl, () =>
      load(servicePort, roundRobin(MANY_TENANTS)),
    );
    await sleep(1_500); // closed sessions report their statistics
    const opens = (await sessionsOpened(serverUrl, PREFIX)) - opensBefore;
    progress(
      `${MANY_TENANTS} tenants at the defaults: ${fmt(thousand.result.rps)} req/s against ${fmt(thousandOne.rps)} on one; ${fmt(opens / DURATION)} opens/s, peak ${thousand.peak} connections (cap ${defaultCap})`,
    );
    if (thousandOne.errors > 0 || thousand.result.errors > 0 || thousand.peak > defaultCap)
      failed = true;
    await defaults.stop();
    stoppers.length = 0;

    // staff sign-in on t0001, on a service that issues tokens (AUTH_MODE=jwt)
    let signIns;
    if (SIGN_IN) {
      const secret = randomBytes(32).toString('hex');
      const jwt = start(
        join(DIST, 'main.js'),
        [],
        {
          ...cliEnv,
          PORT: String(servicePort),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          RATE_LIMIT_MAX: '0',
          AUTH_MODE: 'jwt',
          AUTH_JWT_SECRET: secret,
          // the sign-in stage names its tablets and its flooder by X-Forwarded-For
          TRUST_PROXY: 'loopback',
        },
        'is listening on',
        join(work, 'service-jwt.log'),
      );
      stoppers.push(jwt.stop);
      await jwt.ready;
      signIns = await signIn.signInBench({
        port: servicePort,
        tenant: smallTenant(1),
        tenantUrl: withDatabase(serverUrl, `${PREFIX}${smallTenant(1)}`),
        cliEnv,
        secret,
      });
      progress(
        `sign-in: PIN p50 ${signIns.pin.p50} ms, password p50 ${signIns.password.p50} ms, ` +
          `PIN p99 ${signIns.attack.signIns.p99} ms under attack; ` +
          `GET /comandas?limit=1 p50 ${signIns.probe.without.p50} ms, ${signIns.probe.with.p50} ms during bursts`,
      );
      if (signIns.failed) failed = true;
      await jwt.stop();
      stoppers.length = 0;
    }

    // money on `main`: a service and a baseline of their own with FEATURE_COBROS=true, the
    // pools of the first service
    let money;
    if (COBROS) {
      const tenantUrl = withDatabase(serverUrl, `${PREFIX}main`);
      const servers = await cobros.startServers({
        work,
        cliEnv,
        serviceConfig,
        tenantUrl,
        poolMax: tenantPool,
      });
      stoppers.push(servers.stop);
      money = await cobros.cobrosBench({ servers, tenant: 'main', tenantUrl });
      const { base, svc } = money.payAndClose;
      const { zJson, xJson } = money.reports.latencies;
      progress(
        `cobros: pay-and-close ${fmt(svc.rps)} req/s against ${fmt(base.rps)} (${fmt(svc.rps / base.rps, 2)}); ` +
          `the Z p50 ${zJson.p50} ms, the X p50 ${xJson.p50} ms`,
      );
      if (money.failed) failed = true;
      await servers.stop();
      stoppers.length = 0;
    }

    // stock: two tenants of their own (inventario off and on, cobros off), a service of its own
    // with the pools of the first service
    let stock;
    if (INVENTARIO) {
      const provisioned = await inventario.provisionTenants({
        serverUrl,
        cliEnv,
        prefix: PREFIX,
        timeZone: TIME_ZONE,
      });
      progress(
        `inventario tenants ready: ${fmt(provisioned.seeded.counts.movimientos)} movements posted in ${fmt(provisioned.seeded.postMs / 1000, 1)} s`,
      );
      const stockService = await inventario.startService({
        work,
        cliEnv,
        serviceConfig,
        poolMax: tenantPool,
      });
      stoppers.push(stockService.stop);
      stock = await inventario.inventarioBench({
        service: stockService,
        provisioned: { ...provisioned, timeZone: TIME_ZONE },
      });
      progress(inventario.progressLine(stock, fmt));
      if (stock.failed) failed = true;
      await stockService.stop();
      stoppers.length = 0;
    }

    // the kitchen: a tenant of its own (demo data, cocina on), a service of its own with
    // FEATURE_COCINA=true and the pools of the first service
    let kitchen;
    if (COCINA) {
      const provisioned = await cocina.provisionTenant({
        serverUrl,
        cliEnv,
        prefix: PREFIX,
        timeZone: TIME_ZONE,
      });
      const kitchenService = await cocina.startService({
        work,
        cliEnv,
        serviceConfig,
        poolMax: tenantPool,
      });
      stoppers.push(kitchenService.stop);
      kitchen = await cocina.cocinaBench({ service: kitchenService, provisioned });
      progress(cocina.progressLine(kitchen, fmt));
      if (kitchen.failed) failed = true;
      await kitchenService.stop();
      stoppers.length = 0;
    }

    // the reports: a tenant of its own (a year of 100,000 closed comandas, cobros and inventario
    // on), a service of its own with the pools of the first service
    let reports;
    if (REPORTES) {
      const provisioned = await reportes.provisionTenant({
        serverUrl,
        cliEnv,
        prefix: PREFIX,
        timeZone: TIME_ZONE,
      });
      progress(
        `reportes tenant ready: ${fmt(provisioned.seeded.counts.cerradas)} closed comandas seeded in ${fmt(provisioned.seeded.seedMs / 1000, 1)} s`,
      );
      const reportsService = await reportes.startService({
        work,
        cliEnv,
        serviceConfig,
        poolMax: tenantPool,
      });
      stoppers.push(reportsService.stop);
      reports = await reportes.reportesBench({ service: reportsService, provisioned });
      progress(reportes.progressLine(reports, fmt));
      if (reports.failed) failed = true;
      await reportsService.stop();
      stoppers.length = 0;
    }

    // outbound webhooks: two tenants of their own (one endpoint, none), a service of its own with
    // FEATURE_WEBHOOKS=true and the pools of the first service
    let hooks;
    if (WEBHOOKS) {
      const provisioned = await webhooks.provisionTenants({
        serverUrl,
        cliEnv,
        prefix: PREFIX,
        timeZone: TIME_ZONE,
      });
      const hooksService = await webhooks.startService({
        work,
        cliEnv,
        serviceConfig,
        poolMax: tenantPool,
      });
      stoppers.push(hooksService.stop);
      hooks = await webhooks.webhooksBench({ service: hooksService, provisioned });
      progress(webhooks.progressLine(hooks, fmt));
      if (hooks.failed) failed = true;
      await hooksService.stop();
      stoppers.length = 0;
    }

    const startup = await startupTimes(work);

    console.log(
      `# npm run bench (${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, ` +
        `${CONNECTIONS} connections x ${DURATION} s per scenario)\n`,
    );
    console.log(
      `main: ${fmt(provisioned.counts.comandas)} comandas, ${fmt(provisioned.counts.lineas)} lines ` +
        `(seeded in ${fmt(provisioned.seeded / 1000, 1)} s); ${TENANTS} small tenants (cloned in ` +
        `${fmt(provisioned.clonedMs / 1000, 1)} s). Service: TENANT_POOL_MAX=${tenantPool}, ` +
        `TENANT_DATASOURCE_MAX=${TENANTS + 1}, CONTROL_POOL_MAX=${controlPool}: cap ${cap} ` +
        `connections, max_connections ${maxConnections}.\n`,
    );
    console.log(
      '| scenario | baseline req/s | service req/s | ratio | service p50 / p99 (ms) | service errors |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const { title, base, svc } of rows) {
      console.log(
        `| ${title} | ${fmt(base.rps)} | ${fmt(svc.rps)} | **${fmt(svc.rps / base.rps, 2)}** | ` +
          `${svc.p50} / ${svc.p99} | ${svc.errors} |`,
      );
    }
    console.log(
      `| GET /comandas/:id on one small tenant (t0001) | – | ${fmt(oneSmall.rps)} | – | ` +
        `${oneSmall.p50} / ${oneSmall.p99} | ${oneSmall.errors} |`,
    );
    console.log(
      `| the same spread round-robin over ${TENANTS} tenants | – | ${fmt(many.result.rps)} | ` +
        `**${fmt(many.result.rps / oneSmall.rps, 2)}** of one tenant | ${many.result.p50} / ${many.result.p99} | ` +
        `${many.result.errors} |`,
    );
    console.log(
      `| GET /comandas/:id paced at ${fmt(rate)} req/s (half the baseline's peak) | p50 / p99 ${fixedBase.p50} / ` +
        `${fixedBase.p99} ms | ${fmt(fixedSvc.rps)} | – | **${fixedSvc.p50} / ${fixedSvc.p99}** | ${fixedSvc.errors} |`,
    );
    console.log(
      `| GET /comandas/:id paced at ${fmt(ownRate)} req/s (half the service's peak) | – | ${fmt(ownSvc.rps)} | – | ` +
        `**${ownSvc.p50} / ${ownSvc.p99}** | ${ownSvc.errors} |`,
    );
    console.log(
      `| GET /comandas/:id on one small tenant, service at the defaults | – | ${fmt(thousandOne.rps)} | – | ` +
        `${thousandOne.p50} / ${thousandOne.p99} | ${thousandOne.errors} |`,
    );
    console.log(
      `| the same spread round-robin over ${fmt(MANY_TENANTS)} tenants, at the defaults | – | ` +
        `${fmt(thousand.result.rps)} | **${fmt(thousand.result.rps / thousandOne.rps, 2)}** of one tenant | ` +
        `${thousand.result.p50} / ${thousand.result.p99} | ${thousand.result.errors} |`,
    );
    console.log(
      `\nPostgreSQL client connections during the ${TENANTS}-tenant run: peak ${many.peak} (cap ${cap}).`,
    );
    console.log(
      `${fmt(MANY_TENANTS)} tenants at the defaults: ${fmt(opens / DURATION)} connections opened per second ` +
        `(${fmt(opens)} sessions in ${DURATION} s), peak ${thousand.peak} client connections (cap ${defaultCap}).`,
    );
    console.log(
      `Start-up of node dist/main.js to its banner: ${startup
        .map((s) => `${s.kind} ${fmt(s.ms / 1000, 2)} s`)
        .join(', ')} (cold: initdb, control database, demo tenant).`,
    );
    if (live) console.log(stream.report(live, fmt));
    if (signIns) console.log(signIn.report(signIns, fmt));
    if (money) console.log(cobros.report(money, fmt));
    if (stock) console.log(inventario.report(stock, fmt));
    if (kitchen) console.log(cocina.report(kitchen, fmt));
    if (reports) console.log(reportes.report(reports, fmt));
    if (hooks) console.log(webhooks.report(hooks, fmt));
    console.log(`\nThe bench took ${fmt((Date.now() - benchStarted) / 60_000, 1)} min.`);
    if (PROFILE) {
      const [file] = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
      const kept = join(tmpdir(), 'comandas-service.cpuprofile');
      copyFileSync(join(profileDir, file), kept);
      console.log(`\n## Where the service's time goes (CPU profile of the whole run: ${kept})\n`);
      console.log(summariseProfile(kept));
    }
    if (failed) {
      console.error(
        '\nThe service answered errors, exceeded its connection cap, missed stream events, failed a sign-in or answered a money or stock request wrongly, a kitchen screen missed, repeated or misrouted an event, a report answered an error or a wrong count, or a webhook was lost, repeated, wrong or badly signed.',
      );
      process.exitCode = 1;
    }
  } finally {
    for (const stop of stoppers) await stop().catch(() => undefined);
    await cleanup?.().catch((error) =>
      console.error(`Could not drop the bench databases: ${error}`),
    );
    await embedded?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
