// Outbound webhooks (src/webhooks, the feature `webhooks`): a stage of `npm run bench` (after the
// reports) and, alone, `npm run bench:webhooks` (docs/performance.md, "Webhooks: commit to
// delivery, and what the outbox costs the writes").
//
// Two tenants of the same shape: `whk_off`, made by the tenant CLI with the demo data at
// --demo-scale 0.01, and `whk_on`, a copy of its database; both with the feature webhooks on and
// cobros, inventario and cocina off (a close is the comanda's own change, nothing else's), on a
// service of their own with FEATURE_WEBHOOKS=true and WEBHOOKS_ALLOW_PRIVATE=true (the other
// WEBHOOKS_* at their defaults). `whk_on` has one endpoint, made through the API
// (POST /api/v1/webhooks {url, eventos: ['comanda.*']}), pointing to a receiver in this process
// (bench/support/webhook-receiver.js: node:http on 127.0.0.1, 204 at once, each request's arrival
// time, headers and body recorded); `whk_off` has none. A test message (POST
// /webhooks/:id/probar) must arrive before any load, woken by its own request; the dispatcher
// holds no connection of its own (none named comandas-webhooks:*).
//
// A run is BENCH_WEBHOOKS_CHANGES (1,000) changes to one tenant over HTTP, closed loop,
// BENCH_WEBHOOKS_CONCURRENCY (8) at a time: each of the concurrent writers opens a comanda with two
// lines (POST /comandas: `crear`), adds two lines (POST /comandas/:id/items: `agregar_item`) and
// closes it (PUT /comandas/:id {"action":"cerrar"}), then the next one. Each change writes one
// audit entry, so one outbox row on whk_on and one message. After a warm-up run on each tenant
// (BENCH_WEBHOOKS_WARM_UP changes, checked, not measured), BENCH_WEBHOOKS_ROUNDS (4) rounds of one
// run on each tenant, the order alternating (off then on, on then off, ...). A run on whk_on ends
// when every one of its messages has arrived and every outbox row is `entregado` (or after
// MISSING_MS): the next run starts on a quiet service.
//
// Measured, per run: changes per second (the changes over the time from the first request sent
// to the last answer), the writes' own latency, the CPU per change of the service's process, of
// the PostgreSQL sessions on the tenant's database (/proc) and of this process (the writers and the
// receiver), and the outbox trigger's time (pg_stat_user_functions). For each message of a run on
// whk_on:
// its arrival at the receiver − the answer (200/201 headers) of the change that wrote it (matched
// by id_comanda and version, which the answer and the message's data both carry; the answer
// comes after the commit), − the commit itself (PostgreSQL's commit timestamp of the audit entry,
// when the server has track_commit_timestamp on: the bench's embedded servers do), and − the
// body's `timestamp` (the audit entry's time, inside the transaction: a conservative bound);
// and, on PostgreSQL's clock alone, the outbox row's fec_creacion to its fec_entrega; where the
// time goes: commit → claimed (proximo_intento − the lease the claim set), claimed → arrival,
// arrival → recorded entregado. p50 / p95 / p99 / max of each, per run and over all the runs on
// whk_on.
// Counted, per run: audit entries written, outbox rows, rows not `entregado`, lost (an audit
// entry without exactly one row, or a row whose webhook-id never arrived), duplicated (a
// webhook-id received more than once), unexpected (a webhook-id that is no row of the run), wrong
// (a body other than the row's bytes, or not the change's type, comanda and version), bad
// signatures (checked with the standardwebhooks package and the endpoint's secret), out of
// order (a comanda's message arriving after one of a later version); on whk_off, any outbox row.
// Asked: p99 commit → delivery under 500 ms, 0 lost, and changes/s with the endpoint at least
// 0.90 of without (the median of the rounds' ratios). Fails (exits 1) on an error answer, a lost,
// duplicated, unexpected or wrong message, a bad signature or an outbox row on whk_off; the p99
// and the ratio are reported against their targets without failing the run (a noisy machine).
// Alone, diagnoses: BENCH_WEBHOOKS_STATEMENTS=1 loads pg_stat_statements (track = all) and prints
// each tenant's statements per change, BENCH_PROFILE=1 profiles the service,
// BENCH_WEBHOOKS_POOL_MAX sets its TENANT_POOL_MAX (2).
require('reflect-metadata');
const http = require('node:http');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const { Webhook } = require('standardwebhooks');
const { freePort, run, start, withClient } = require('./support/processes');
const { call, percentile } = require('./support/requests');
const { startReceiver } = require('./support/webhook-receiver');
const { fmt, printProfile, runMain, runStandalone } = require('./support/standalone');

const DIST = join(__dirname, '..', 'dist');
const env = process.env;
const CHANGES = Number(env.BENCH_WEBHOOKS_CHANGES ?? 1000);
const CONCURRENCY = Number(env.BENCH_WEBHOOKS_CONCURRENCY ?? 8);
const ROUNDS = Math.max(1, Number(env.BENCH_WEBHOOKS_ROUNDS ?? 4));
const WARM_UP = Number(env.BENCH_WEBHOOKS_WARM_UP ?? 200);
const PROFILE = env.BENCH_PROFILE === '1';
/** Alone: the service's TENANT_POOL_MAX (2, as inside npm run bench; the service's default is 5). */
const POOL_MAX = Number(env.BENCH_WEBHOOKS_POOL_MAX ?? 2);
/** Alone: pg_stat_statements loaded, the statements' time per change printed (a diagnosis). */
const STATEMENTS = env.BENCH_WEBHOOKS_STATEMENTS === '1';
/** A message not received (or a row not entregado) this long after the run's last answer is lost. */
const MISSING_MS = 30_000;
/** The test message must arrive within the dispatcher's poll (5 s by default) and this margin. */
const FIRST_MESSAGE_MS = 20_000;
const TARGET_P99_MS = 500;
/** WEBHOOKS_LEASE_MS of the service (its default): a claim sets proximo_intento to now + this. */
const LEASE_MS = 60_000;
const TARGET_RATIO = 0.9;
const HOST = '127.0.0.1';
const OFF = 'whk_off';
const ON = 'whk_on';
/** The changes of one comanda, in order: its audit entries' actions. */
const CYCLE = ['crear', 'agregar_item', 'agregar_item', 'cerrar'];

/**
 * The two tenants: whk_off made by the tenant CLI (demo data at 0.01: the menu, the tables, about
 * 365 comandas), whk_on a copy of its database; webhooks on, cobros, inventario and cocina off.
 */
async function provisionTenants({ serverUrl, cliEnv, prefix, timeZone }) {
  const { withDatabase } = require(join(DIST, 'database', 'pg-url'));
  const tenantCli = join(DIST, 'cli', 'tenant.cli.js');
  await run(
    tenantCli,
    [
      'create',
      OFF,
      '--name',
      'Webhooks off',
      '--time-zone',
      timeZone,
      '--demo',
      '--demo-scale',
      '0.01',
    ],
    cliEnv,
  );
  const urls = {
    [OFF]: withDatabase(serverUrl, `${prefix}${OFF}`),
    [ON]: withDatabase(serverUrl, `${prefix}${ON}`),
  };
  await withClient(serverUrl, async (admin) => {
    await admin.query(
      `CREATE DATABASE "${prefix}${ON}" TEMPLATE "${prefix}${OFF}" STRATEGY = FILE_COPY`,
    );
    // the outbox trigger's time, per change (pg_stat_user_functions)
    for (const slug of [OFF, ON])
      await admin.query(`ALTER DATABASE "${prefix}${slug}" SET track_functions = 'pl'`);
  });
  // each opened once: the first session of a database builds its catalog cache file
  for (const slug of [OFF, ON])
    await withClient(urls[slug], (c) => c.query('SELECT count(*) FROM comandas'));
  await withClient(cliEnv.DATABASE_URL, (control) =>
    control.query(
      `INSERT INTO tenants (slug, name, database_name, status, time_zone, features, migrated_at)
       SELECT $1, 'Webhooks on', $2, status, time_zone, features, migrated_at
         FROM tenants WHERE slug = $3`,
      [ON, `${prefix}${ON}`, OFF],
    ),
  );
  for (const slug of [OFF, ON]) {
    await run(tenantCli, ['feature', slug, 'webhooks', 'on'], cliEnv);
    for (const feature of ['cobros', 'inventario', 'cocina'])
      await run(tenantCli, ['feature', slug, feature, 'off'], cliEnv);
  }
  return { urls, databases: { [OFF]: `${prefix}${OFF}`, [ON]: `${prefix}${ON}` } };
}

/** The service of the stage: FEATURE_WEBHOOKS=true, endpoints on 127.0.0.1 allowed. */
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
        FEATURE_WEBHOOKS: 'true',
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOKS_LEASE_MS: String(LEASE_MS),
        FEATURE_COBROS: 'false',
        FEATURE_INVENTARIO: 'false',
        FEATURE_COCINA: 'false',
      },
      'is listening on',
      join(work, 'service-webhooks.log'),
      nodeArgs,
    );
    try {
      await service.ready;
    } catch (error) {
      await service.stop();
      throw error;
    }
    return { port, pid: service.child.pid, stop: service.stop, poolMax };
  })();
}

/** A request that must answer `status`; its JSON. */
async function must(port, tenant, status, options) {
  const agent = new http.Agent({ keepAlive: false });
  const res = await call(port, { ...options, tenant, agent });
  agent.destroy();
  if (res.status !== status)
    throw new Error(`${options.method} ${options.path} answered ${res.status}: ${res.text}`);
  return res.json;
}

/** Active products and tables of the demo menu (the same ids on both tenants). */
async function menu(url) {
  return withClient(url, async (c) => {
    const products = await c.query(
      'SELECT id_producto FROM productos WHERE activo ORDER BY id_producto LIMIT 24',
    );
    const tables = await c.query('SELECT id_mesa FROM mesas WHERE activo ORDER BY id_mesa');
    if (products.rows.length === 0 || tables.rows.length === 0)
      throw new Error('the demo data has no active product or table');
    return {
      products: products.rows.map((r) => r.id_producto),
      tables: tables.rows.map((r) => r.id_mesa),
    };
  });
}

/**
 * `changes` changes to `tenant`, `concurrency` writers at a time, each on comandas of its own
 * through CYCLE: every change is recorded with its action, the comanda and version of its
 * answer, and when it was sent and answered.
 */
async function writeLoad(port, tenant, { changes, concurrency, products, tables }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const done = [];
  let issued = 0;
  const product = (n) => products[n % products.length];
  const writer = async () => {
    let comanda;
    let step = 0;
    for (let n = issued++; n < changes; n = issued++) {
      const accion = CYCLE[step];
      const options =
        accion === 'crear'
          ? {
              method: 'POST',
              path: '/api/v1/comandas',
              body: {
                id_mesa: tables[n % tables.length],
                items: [
                  { id_producto: product(n), cantidad: 1 },
                  { id_producto: product(n + 7), cantidad: 2 },
                ],
              },
            }
          : accion === 'agregar_item'
            ? {
                method: 'POST',
                path: `/api/v1/comandas/${comanda}/items`,
                body: { id_producto: product(n + 3), cantidad: 1 },
              }
            : { method: 'PUT', path: `/api/v1/comandas/${comanda}`, body: { action: 'cerrar' } };
      const res = await call(port, { ...options, tenant, agent });
      const expected = accion === 'cerrar' ? 200 : 201;
      const change = {
        n,
        accion,
        sentAt: res.sentAt,
        answeredAt: res.answeredAt,
        status: res.status,
        comanda: res.json?.id_comanda,
        version: res.json?.version,
        error: undefined,
      };
      if (res.status !== expected || change.comanda === undefined || change.version === undefined) {
        change.error = `${options.method} ${options.path} answered ${res.status}: ${res.text.slice(0, 200)}`;
        step = 0; // the next change opens a comanda of its own
      } else {
        comanda = change.comanda;
        step = (step + 1) % CYCLE.length;
      }
      done.push(change);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, writer));
  agent.destroy();
  return done.sort((a, b) => a.n - b.n);
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
 * Where a run starts: the last audit entry and outbox row of the tenant, and the CPU time so far
 * of the service's process and of every other session on the tenant's database.
 */
async function marks(url, pid) {
  return withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT (SELECT coalesce(max(id_evento), 0)::float8 FROM comanda_eventos) AS evento,
              (SELECT coalesce(max(id_mensaje), 0)::float8 FROM webhook_mensajes) AS mensaje,
              (SELECT coalesce(array_agg(pid), '{}') FROM pg_stat_activity
                WHERE datname = current_database() AND backend_type = 'client backend'
                  AND pid <> pg_backend_pid()) AS pids`,
    );
    const { rows: functions } = await c.query(
      `SELECT funcname, calls::int, total_time, self_time FROM pg_stat_user_functions
        WHERE funcname IN ('webhooks_comanda_eventos', 'webhooks_encolar')`,
    );
    const [m] = rows;
    const own = process.cpuUsage();
    return {
      evento: m.evento,
      mensaje: m.mensaje,
      server: cpuMs(pid),
      bench: (own.user + own.system) / 1000,
      backends: new Map(m.pids.map((p) => [p, cpuMs(p)])),
      functions: Object.fromEntries(functions.map((f) => [f.funcname, f])),
    };
  });
}

/** CPU per change between two marks: the service's process and the tenant's sessions. */
function cpuPerChange(before, after, changes) {
  let postgres = 0;
  let readable = after.backends.size > 0;
  for (const [pid, ms] of after.backends) {
    if (ms === undefined) readable = false;
    else postgres += ms - (before.backends.get(pid) ?? 0);
  }
  const fn = (name) =>
    ((after.functions[name]?.total_time ?? 0) - (before.functions[name]?.total_time ?? 0)) /
    changes;
  return {
    server: (after.server - before.server) / changes,
    bench: (after.bench - before.bench) / changes,
    postgres: readable ? postgres / changes : NaN,
    trigger: fn('webhooks_comanda_eventos'),
  };
}

/** Date.now() − performance.now(), read as Date.now() ticks (as bench/cocina.js). */
function wallClockOffset() {
  const from = Date.now();
  let now = from;
  let mono = performance.now();
  while (now === from) {
    mono = performance.now();
    now = Date.now();
  }
  return now - mono;
}

/** Milliseconds since the epoch of the body's timestamp (microseconds: YYYY-MM-DDTHH:MI:SS.USZ). */
function bodyTime(timestamp) {
  if (typeof timestamp !== 'string' || timestamp.length < 27) return NaN;
  return Date.parse(`${timestamp.slice(0, 23)}Z`) + Number(timestamp.slice(23, 26)) / 1000;
}

/** p50 / p95 / p99 / max (and the count) of a list of milliseconds. */
function figures(list) {
  const s = Float64Array.from(list).sort();
  return {
    n: s.length,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1] : NaN,
  };
}

/** The median of a list of numbers. */
function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)];
}

/**
 * Waits until `count` distinct webhook-ids arrived from index `from` of the receiver's list, then
 * until the tenant's outbox rows after `mensaje` are all entregado (MISSING_MS in all).
 */
async function drain(receiver, from, count, url, mensaje) {
  const deadline = performance.now() + MISSING_MS;
  for (;;) {
    const ids = new Set();
    for (let i = from; i < receiver.received.length; i += 1) ids.add(receiver.received[i].id);
    if (ids.size >= count || performance.now() > deadline) break;
    await sleep(20);
  }
  return withClient(url, async (c) => {
    for (;;) {
      const { rows } = await c.query(
        `SELECT count(*) FILTER (WHERE estado <> 'entregado')::int AS pending
           FROM webhook_mensajes WHERE id_mensaje > $1`,
        [mensaje],
      );
      if (rows[0].pending === 0 || performance.now() > deadline) return;
      await sleep(50);
    }
  });
}

/**
 * What became of a run's changes on whk_on: its audit entries (with their commit times), its
 * outbox rows and the requests the receiver got meanwhile, matched and counted; the latencies.
 */
async function checkDeliveries({ url, before, changes, arrivals, secret, offset }) {
  const { events, rows, commitTimes } = await withClient(url, async (c) => {
    const commitTimes =
      (await c.query('SHOW track_commit_timestamp')).rows[0].track_commit_timestamp === 'on';
    const events = (
      await c.query(
        `SELECT id_evento::float8 AS id, id_comanda::int AS comanda, accion,
                ${commitTimes ? 'extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000' : 'NULL'}::float8 AS committed
           FROM comanda_eventos WHERE id_evento > $1`,
        [before.evento],
      )
    ).rows;
    const rows = (
      await c.query(
        `SELECT id_mensaje::float8 AS id, webhook_id, tipo, estado, intentos, cuerpo,
                (cuerpo::json -> 'data' ->> 'id_evento')::float8 AS evento,
                extract(epoch FROM fec_entrega - fec_creacion) * 1000 AS recorded_ms,
                extract(epoch FROM proximo_intento) * 1000 - $2 AS claimed,
                extract(epoch FROM fec_entrega) * 1000 AS recorded
           FROM webhook_mensajes WHERE id_mensaje > $1`,
        [before.mensaje, LEASE_MS],
      )
    ).rows;
    return { events, rows, commitTimes };
  });

  const rowsByEvent = new Map();
  for (const row of rows) {
    const list = rowsByEvent.get(row.evento) ?? [];
    list.push(row);
    rowsByEvent.set(row.evento, list);
  }
  const rowById = new Map(rows.map((r) => [r.webhook_id, r]));
  const eventById = new Map(events.map((e) => [e.id, e]));
  const changeByKey = new Map();
  for (const change of changes)
    if (!change.error) changeByKey.set(`${change.comanda}:${change.version}`, change);

  // the requests, by webhook-id: the first arrival counts, the others are duplicates
  const firstArrival = new Map();
  let duplicated = 0;
  let unexpected = 0;
  for (const a of arrivals) {
    if (!rowById.has(a.id)) {
      unexpected += 1;
      continue;
    }
    if (firstArrival.has(a.id)) duplicated += 1;
    else firstArrival.set(a.id, a);
  }

  const verifier = new Webhook(secret);
  const fromAnswer = [];
  const fromCommit = [];
  const fromTimestamp = [];
  const recorded = [];
  const toClaim = [];
  const claimToArrival = [];
  const arrivalToRecord = [];
  let lost = 0;
  let notOneRow = 0;
  let notDelivered = 0;
  let wrong = 0;
  let badSignatures = 0;
  let beforeAnswer = 0;
  const firstWrong = [];
  const perComanda = new Map();
  for (const event of events) {
    const list = rowsByEvent.get(event.id) ?? [];
    if (list.length !== 1) {
      notOneRow += 1;
      if (list.length === 0) lost += 1;
      continue;
    }
    const [row] = list;
    if (row.estado !== 'entregado') notDelivered += 1;
    else recorded.push(Number(row.recorded_ms));
    const arrival = firstArrival.get(row.webhook_id);
    if (!arrival) {
      lost += 1;
      continue;
    }
    let body;
    try {
      body = JSON.parse(arrival.body);
    } catch {
      body = undefined;
    }
    const data = body?.data ?? {};
    const change = changeByKey.get(`${data.id_comanda}:${data.version}`);
    const problem =
      arrival.body !== row.cuerpo
        ? 'a body other than the outbox row'
        : !change
          ? `no change answered comanda ${data.id_comanda} version ${data.version}`
          : body.type !== `comanda.${change.accion}` || event.accion !== change.accion
            ? `type ${body.type} for a change ${change.accion}`
            : data.id_comanda !== event.comanda || data.id_evento !== event.id
              ? 'another comanda or audit entry'
              : undefined;
    if (problem) {
      wrong += 1;
      if (firstWrong.length < 3) firstWrong.push(`${row.webhook_id}: ${problem}`);
    }
    try {
      verifier.verify(arrival.body, {
        'webhook-id': arrival.id,
        'webhook-timestamp': arrival.timestamp,
        'webhook-signature': arrival.signature,
      });
    } catch {
      badSignatures += 1;
    }
    if (change) {
      const ms = arrival.at - change.answeredAt;
      if (ms < 0) beforeAnswer += 1;
      fromAnswer.push(ms);
      const seen = perComanda.get(change.comanda) ?? [];
      seen.push({ version: change.version, at: arrival.at });
      perComanda.set(change.comanda, seen);
    }
    if (event.committed !== null) {
      fromCommit.push(arrival.at + offset - event.committed);
      toClaim.push(row.claimed - event.committed);
    }
    claimToArrival.push(arrival.at + offset - row.claimed);
    if (row.recorded !== null) arrivalToRecord.push(row.recorded - (arrival.at + offset));
    fromTimestamp.push(arrival.at + offset - bodyTime(body?.timestamp));
  }
  let outOfOrder = 0;
  for (const list of perComanda.values()) {
    list.sort((a, b) => a.at - b.at);
    for (let i = 1; i < list.length; i += 1)
      if (list[i].version < list[i - 1].version) outOfOrder += 1;
  }
  const answered = changes.filter((c) => !c.error).length;
  const lastAnswer = Math.max(...changes.map((c) => c.answeredAt).filter((x) => !Number.isNaN(x)));
  const lastArrival = Math.max(...[...firstArrival.values()].map((a) => a.at));
  return {
    events: events.length,
    answered,
    rows: rows.length,
    received: arrivals.length,
    lost,
    notOneRow,
    notDelivered,
    duplicated,
    unexpected,
    wrong,
    firstWrong,
    badSignatures,
    outOfOrder,
    beforeAnswer,
    orphanRows: rows.filter((r) => !eventById.has(r.evento)).length,
    retried: rows.filter((r) => r.intentos > 1).length,
    drainMs: Math.max(0, lastArrival - lastAnswer),
    commitTimes,
    lists: {
      fromAnswer,
      fromCommit,
      fromTimestamp,
      recorded,
      toClaim,
      claimToArrival,
      arrivalToRecord,
    },
  };
}

/**
 * One run of `count` changes on `slug`: the load, then (on whk_on) the wait for its deliveries,
 * the CPU per change and (measured runs on whk_on) the deliveries checked.
 */
async function oneRun(ctx, slug, count) {
  const { service, urls, receiver } = ctx;
  const url = urls[slug];
  const before = await marks(url, service.pid);
  const from = receiver.received.length;
  const changes = await writeLoad(service.port, slug, {
    changes: count,
    concurrency: CONCURRENCY,
    products: ctx.menu.products,
    tables: ctx.menu.tables,
  });
  const answered = changes.filter((c) => !c.error).length;
  if (slug === ON) await drain(receiver, from, answered, url, before.mensaje);
  await sleep(1_200); // the requests' last statements; the sessions report their statistics
  const after = await marks(url, service.pid);
  const firstSent = Math.min(...changes.map((c) => c.sentAt));
  const lastAnswer = Math.max(...changes.map((c) => c.answeredAt).filter((x) => !Number.isNaN(x)));
  const errors = changes.filter((c) => c.error);
  const result = {
    slug,
    changes: changes.length,
    errors: errors.length,
    firstError: errors[0]?.error,
    rate: changes.length / ((lastAnswer - firstSent) / 1000),
    write: figures(changes.filter((c) => !c.error).map((c) => c.answeredAt - c.sentAt)),
    cpu: cpuPerChange(before, after, changes.length),
  };
  if (slug === ON) {
    result.deliveries = await checkDeliveries({
      url,
      before,
      changes,
      arrivals: receiver.received.slice(from),
      secret: ctx.secret,
      offset: ctx.offset,
    });
  } else {
    result.outbox = await withClient(url, async (c) => {
      const { rows } = await c.query(
        'SELECT count(*)::int AS n FROM webhook_mensajes WHERE id_mensaje > $1',
        [before.mensaje],
      );
      return rows[0].n;
    });
    result.received = receiver.received.length - from;
  }
  return result;
}

/**
 * pg_stat_statements over the measured rounds, per tenant database: the statements by total
 * time, per change (`changes` on each tenant), with their calls per change (a diagnosis).
 */
async function topStatements(url, databases, changes) {
  return withClient(url, async (c) => {
    const out = {};
    for (const [slug, datname] of Object.entries(databases)) {
      const { rows } = await c.query(
        `SELECT s.toplevel, s.calls::float8 / $2 AS calls, s.total_exec_time / $2 AS ms,
                regexp_replace(left(s.query, 160), '\\s+', ' ', 'g') AS query
           FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
          WHERE d.datname = $1
          ORDER BY s.total_exec_time DESC LIMIT 25`,
        [datname, changes],
      );
      const { rows: sums } = await c.query(
        `SELECT sum(s.total_exec_time) FILTER (WHERE s.toplevel) / $2 AS ms,
                sum(s.calls) FILTER (WHERE s.toplevel)::float8 / $2 AS calls,
                sum(s.wal_records) FILTER (WHERE s.toplevel)::float8 / $2 AS wal_records,
                sum(s.wal_bytes) FILTER (WHERE s.toplevel)::float8 / $2 AS wal_bytes
           FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
          WHERE d.datname = $1`,
        [datname, changes],
      );
      out[slug] = { top: rows, total: sums[0] };
    }
    return out;
  });
}

/** The problems of a run, in words. */
function runProblems(r, label) {
  const problems = [];
  if (r.errors > 0) problems.push(`${label}: ${r.errors} writes failed (first: ${r.firstError})`);
  if (r.outbox > 0) problems.push(`${label}: ${r.outbox} outbox rows without an endpoint`);
  if (r.received > 0)
    problems.push(`${label}: ${r.received} messages received without an endpoint`);
  const d = r.deliveries;
  if (d) {
    if (d.events !== d.answered)
      problems.push(`${label}: ${d.events} audit entries for ${d.answered} changes answered`);
    for (const [what, n] of [
      ['lost', d.lost],
      ['audit entries without exactly one outbox row', d.notOneRow],
      ['outbox rows not entregado', d.notDelivered],
      ['duplicated', d.duplicated],
      ['unexpected', d.unexpected],
      ['wrong', d.wrong],
      ['bad signatures', d.badSignatures],
      ['out of order', d.outOfOrder],
      ['outbox rows of no audit entry of the run', d.orphanRows],
    ])
      if (n > 0) problems.push(`${label}: ${n} ${what}`);
    if (d.firstWrong.length > 0) problems.push(`${label}: ${d.firstWrong.join('; ')}`);
  }
  return problems;
}

/**
 * The stage, on a service started by startService and the tenants of provisionTenants: the
 * receiver, the endpoint on whk_on, its test message, the warm-up, then the rounds.
 */
async function webhooksBench({ service, provisioned, statementsUrl }) {
  const started = performance.now();
  const problems = [];
  const { urls } = provisioned;
  const receiver = await startReceiver();
  try {
    const endpoint = await must(service.port, ON, 201, {
      method: 'POST',
      path: '/api/v1/webhooks',
      body: { url: receiver.url, eventos: ['comanda.*'], descripcion: 'bench/webhooks.js' },
    });
    const created = performance.now();
    await must(service.port, ON, 202, {
      method: 'POST',
      path: `/api/v1/webhooks/${endpoint.id_webhook}/probar`,
    });
    while (receiver.received.length === 0) {
      if (performance.now() - created > FIRST_MESSAGE_MS)
        throw new Error(`the test message did not arrive within ${FIRST_MESSAGE_MS} ms`);
      await sleep(20);
    }
    const firstMessageMs = receiver.received[0].at - created;
    // the wake-ups cost no connection (docs/webhooks.md): the LISTEN per tenant is gone
    const listeners = await withClient(urls[ON], async (c) => {
      const { rows } = await c.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE $1`,
        ['comandas-webhooks%'],
      );
      return rows[0].n;
    });
    if (listeners !== 0)
      problems.push(
        `${listeners} connections of the dispatcher after the test message (0 expected)`,
      );

    const ctx = {
      service,
      urls,
      receiver,
      secret: endpoint.secreto,
      menu: await menu(urls[OFF]),
      offset: wallClockOffset(),
    };
    const warm = {};
    for (const slug of [OFF, ON]) {
      warm[slug] = await oneRun(ctx, slug, WARM_UP);
      problems.push(...runProblems(warm[slug], `warm-up on ${slug}`));
    }
    if (statementsUrl)
      await withClient(statementsUrl, async (c) => {
        await c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
        await c.query('SELECT pg_stat_statements_reset()');
      });
    const rounds = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      const order = i % 2 === 0 ? [OFF, ON] : [ON, OFF];
      const runs = {};
      for (const slug of order) {
        runs[slug] = await oneRun(ctx, slug, CHANGES);
        problems.push(...runProblems(runs[slug], `round ${i + 1} on ${slug}`));
      }
      rounds.push({
        order,
        off: runs[OFF],
        on: runs[ON],
        ratio: runs[ON].rate / runs[OFF].rate,
      });
    }

    const statements = statementsUrl
      ? await topStatements(statementsUrl, provisioned.databases, ROUNDS * CHANGES)
      : undefined;
    const all = (key) => rounds.flatMap((r) => r.on.deliveries.lists[key]);
    const sum = (key) => rounds.reduce((n, r) => n + r.on.deliveries[key], 0);
    const latency = {
      fromAnswer: figures(all('fromAnswer')),
      fromCommit: figures(all('fromCommit')),
      fromTimestamp: figures(all('fromTimestamp')),
      recorded: figures(all('recorded')),
      toClaim: figures(all('toClaim')),
      claimToArrival: figures(all('claimToArrival')),
      arrivalToRecord: figures(all('arrivalToRecord')),
    };
    const commitTimes = rounds.every((r) => r.on.deliveries.commitTimes);
    const judged = commitTimes ? latency.fromCommit : latency.fromAnswer;
    const ratio = median(rounds.map((r) => r.ratio));
    const totals = {
      events: sum('events'),
      rows: sum('rows'),
      received: sum('received'),
      lost: sum('lost'),
      duplicated: sum('duplicated'),
      notDelivered: sum('notDelivered'),
      badSignatures: sum('badSignatures'),
      outOfOrder: sum('outOfOrder'),
      retried: sum('retried'),
      beforeAnswer: sum('beforeAnswer'),
    };
    return {
      failed: problems.length > 0,
      problems,
      changes: CHANGES,
      concurrency: CONCURRENCY,
      poolMax: service.poolMax,
      firstMessageMs,
      warm,
      rounds,
      ratio,
      latency,
      commitTimes,
      totals,
      statements,
      targets: {
        p99: judged.p99 < TARGET_P99_MS,
        lost: totals.lost === 0,
        ratio: ratio >= TARGET_RATIO,
      },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await receiver.close();
  }
}

/** The stage's lines of the bench's report (markdown). */
function report(r, fmt) {
  const ms = (x) => (Number.isNaN(x) ? 'n/a' : fmt(x, 1));
  const ppp = (f) => `${ms(f.p50)} / ${ms(f.p95)} / ${ms(f.p99)} / ${ms(f.max)}`;
  const ms2 = (x) => (Number.isNaN(x) ? 'n/a' : fmt(x, 2));
  const l = r.latency;
  const t = r.totals;
  const met = (ok) => (ok ? 'met' : '**not met**');
  const lines = [
    `\n## Webhooks: ${fmt(r.changes)} changes a run, ${r.concurrency} at a time, one endpoint against none ` +
      `(the stage took ${fmt(r.seconds)} s)\n`,
    `The test message arrived ${fmt(r.firstMessageMs)} ms after the endpoint was created (woken by the ` +
      `request that queued it). Each run: comandas opened with two lines, two lines added, closed (one audit entry, one ` +
      `message a change); the two tenants in turn, the order alternating; TENANT_POOL_MAX=${r.poolMax}.\n`,
    '| run | without endpoint, changes/s | with, changes/s | with / without | writes p50 / p99 without; with (ms) | ' +
      'CPU per change, service without; with (ms) | PostgreSQL without; with (ms) | outbox trigger without; with (ms) |',
    '|---|---|---|---|---|---|---|---|',
    ...r.rounds.map(
      (x, i) =>
        `| round ${i + 1} (${x.order.map((s) => (s === ON ? 'with' : 'without')).join(' then ')}) | ` +
        `${fmt(x.off.rate)} | ${fmt(x.on.rate)} | ${fmt(x.ratio, 2)} | ` +
        `${ms(x.off.write.p50)} / ${ms(x.off.write.p99)}; ${ms(x.on.write.p50)} / ${ms(x.on.write.p99)} | ` +
        `${ms2(x.off.cpu.server)}; ${ms2(x.on.cpu.server)} | ${ms2(x.off.cpu.postgres)}; ${ms2(x.on.cpu.postgres)} | ` +
        `${ms2(x.off.cpu.trigger)}; ${ms2(x.on.cpu.trigger)} |`,
    ),
    `| **median of the ${r.rounds.length} rounds** | ${fmt(median(r.rounds.map((x) => x.off.rate)))} | ` +
      `${fmt(median(r.rounds.map((x) => x.on.rate)))} | **${fmt(r.ratio, 2)}** | | ` +
      `${ms2(median(r.rounds.map((x) => x.off.cpu.server)))}; ${ms2(median(r.rounds.map((x) => x.on.cpu.server)))} | ` +
      `${ms2(median(r.rounds.map((x) => x.off.cpu.postgres)))}; ${ms2(median(r.rounds.map((x) => x.on.cpu.postgres)))} | ` +
      `${ms2(median(r.rounds.map((x) => x.off.cpu.trigger)))}; ${ms2(median(r.rounds.map((x) => x.on.cpu.trigger)))} |`,
    '',
    `CPU per change of this process (the writers and the receiver), medians: ` +
      `${ms2(median(r.rounds.map((x) => x.off.cpu.bench)))} ms without, ${ms2(median(r.rounds.map((x) => x.on.cpu.bench)))} ms with.`,
    '',
    '| delivery (each message of the runs with the endpoint) | p50 / p95 / p99 / max (ms) |',
    '|---|---|',
    `| commit (PostgreSQL's commit timestamp of the audit entry) → arrival, all ${fmt(l.fromCommit.n)} | ` +
      (r.commitTimes ? `**${ppp(l.fromCommit)}** |` : 'n/a (track_commit_timestamp off) |'),
    ...r.rounds.map(
      (x, i) =>
        `| the same, round ${i + 1} | ${r.commitTimes ? ppp(figures(x.on.deliveries.lists.fromCommit)) : 'n/a'} |`,
    ),
    `| the change's answer (its 2xx headers, after the commit) → arrival | ${ppp(l.fromAnswer)} ` +
      `(${fmt(t.beforeAnswer)} arrived before the answer) |`,
    `| the body's timestamp (the audit entry's time, in the transaction) → arrival: the conservative bound | ${ppp(l.fromTimestamp)} |`,
    `| the outbox row written → recorded entregado (PostgreSQL's clock) | ${ppp(l.recorded)} |`,
    `| where it goes: commit → claimed (proximo_intento − the lease) | ${ppp(l.toClaim)} |`,
    `| where it goes: claimed → arrival | ${ppp(l.claimToArrival)} |`,
    `| after it: arrival → recorded entregado | ${ppp(l.arrivalToRecord)} |`,
    `| last message after the last answer, per run | ${r.rounds.map((x) => fmt(x.on.deliveries.drainMs)).join(', ')} ms |`,
    '',
    '| count (all the runs with the endpoint) | |',
    '|---|---|',
    `| audit entries / outbox rows / requests received | ${fmt(t.events)} / ${fmt(t.rows)} / ${fmt(t.received)} |`,
    `| lost / duplicated / not entregado / bad signatures / out of order | **${t.lost}** / **${t.duplicated}** / ` +
      `${t.notDelivered} / ${t.badSignatures} / ${t.outOfOrder} |`,
    `| messages that took more than one attempt | ${t.retried} |`,
    `| outbox rows and messages of the runs without endpoint | ${r.rounds.reduce((n, x) => n + x.off.outbox + x.off.received, 0)} |`,
    '',
    `| target | |`,
    '|---|---|',
    `| p99 ${r.commitTimes ? 'commit' : 'answer'} → delivery < ${TARGET_P99_MS} ms | ${met(r.targets.p99)} |`,
    `| 0 lost | ${met(r.targets.lost)} |`,
    `| changes/s with the endpoint ≥ ${TARGET_RATIO} of without (median of the rounds) | ${met(r.targets.ratio)} (${fmt(r.ratio, 2)}) |`,
  ];
  if (r.statements)
    for (const [slug, { top, total }] of Object.entries(r.statements)) {
      lines.push(
        `\n### pg_stat_statements on ${slug}, per change: top-level ${ms2(total.ms)} ms in ` +
          `${fmt(total.calls, 1)} statements, ${fmt(total.wal_records, 1)} WAL records, ${fmt(total.wal_bytes)} WAL bytes\n`,
        '| statement | top level | calls per change | ms per change |',
        '|---|---|---|---|',
        ...top.map(
          (x) =>
            `| \`${x.query.replaceAll('|', '\\|')}\` | ${x.toplevel ? 'yes' : 'no'} | ${fmt(x.calls, 2)} | ${fmt(x.ms, 3)} |`,
        ),
      );
    }
  if (r.problems.length > 0) lines.push(`\nWebhooks problems: ${r.problems.join('; ')}.`);
  return lines.join('\n');
}

/** The stderr line of the stage as it ends. */
function progressLine(r, fmt) {
  const f = r.commitTimes ? r.latency.fromCommit : r.latency.fromAnswer;
  return (
    `webhooks: changes/s with/without ${r.rounds.map((x) => `${fmt(x.on.rate)}/${fmt(x.off.rate)}`).join(', ')}, ` +
    `median ratio ${fmt(r.ratio, 2)}; ${r.commitTimes ? 'commit' : 'answer'} → delivery p50/p99 ` +
    `${fmt(f.p50, 1)}/${fmt(f.p99, 1)} ms; lost ${r.totals.lost}, duplicated ${r.totals.duplicated}`
  );
}

/**
 * `npm run bench:webhooks`: the stage alone, on an embedded PostgreSQL of its own (commit
 * timestamps on) or BENCH_DATABASE_URL, the pools of the bench's first service (2 connections a
 * tenant, BENCH_WEBHOOKS_POOL_MAX).
 */
async function main() {
  const { withDatabase } = require(join(DIST, 'database', 'pg-url'));
  const prefix = 'comandas_bench_webhooks_';
  await runStandalone({
    name: 'webhooks',
    prefix,
    settings: {
      track_commit_timestamp: 'on',
      ...(STATEMENTS && {
        shared_preload_libraries: 'pg_stat_statements',
        'pg_stat_statements.track': 'all',
      }),
    },
    stage: async ({ serverUrl, work, atEnd }) => {
      const cliEnv = {
        DATABASE_URL: withDatabase(serverUrl, `${prefix}control`),
        TENANT_DB_PREFIX: prefix,
        DEMO_TENANT: 'false',
        LOG_LEVEL: 'warn',
      };
      const provisioned = await provisionTenants({
        serverUrl,
        cliEnv,
        prefix,
        timeZone: 'America/Lima',
      });
      const profileDir = join(work, 'profile');
      const service = await startService({
        work,
        cliEnv,
        serviceConfig: { CONTROL_POOL_MAX: '4' },
        poolMax: POOL_MAX,
        nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      });
      atEnd(() => service.stop());
      const result = await webhooksBench({
        service,
        provisioned,
        statementsUrl: STATEMENTS ? serverUrl : undefined,
      });
      console.error(`[bench:webhooks] ${progressLine(result, fmt)}`);
      console.log(
        `# npm run bench:webhooks (${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, TENANT_POOL_MAX=${POOL_MAX})`,
      );
      console.log(report(result, fmt));
      if (PROFILE) {
        await service.stop(); // the profile is written as the service exits
        printProfile(profileDir, 'comandas-webhooks.cpuprofile');
      }
      if (result.failed) {
        console.error(
          '\nThe webhooks stage failed: a write failed, or a message was lost, repeated, wrong or badly signed.',
        );
        process.exitCode = 1;
      }
    },
  });
}

if (require.main === module) runMain(main);

module.exports = { webhooksBench, report, progressLine, provisionTenants, startService };
