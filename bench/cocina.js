// The kitchen's screens (src/cocina, the feature `cocina`): a stage of `npm run bench` (after the
// stock stage) and, alone, `npm run bench:cocina` (docs/performance.md, "Kitchen (cocina)").
//
// One tenant, `cocina`, made by the tenant CLI with the demo data (`create --demo`), the feature
// switched on by the CLI's override and by FEATURE_COCINA=true on a service of its own. Three
// stations: Cocina (preparacion, every category of course 1 but the drinks), Bar (preparacion,
// Bebidas) and Expo (expo: sees every station's events). BENCH_COCINA_SCREENS (20) kitchen
// screens, SSE subscribers of GET /api/v1/cocina/stream?estacion=<id> (node:http GETs, the frames
// parsed here), spread over the three stations in turn. Comandas are created first
// (POST /comandas, RATE × (DURATION + WARM_UP_S) of them), a third with two dishes (Cocina only),
// a third with a drink (Bar only), a third with a dish and a drink (both); then
// POST /comandas/:id/enviar, one per comanda, leave at BENCH_COCINA_RATE (50) per second on a fixed
// schedule (open loop) for WARM_UP_S + BENCH_COCINA_DURATION (15) seconds, the first WARM_UP_S
// not measured (but checked). Each answer lists the tickets written (id_envio, id_estacion); each
// event's data lists the tickets it wrote (`envios`): an event is the send's whose tickets it
// names, whatever the order or the concurrency.
// Measured, for every send and every screen that must show it (the screens of the stations its
// tickets went to, and every Expo screen): the time from the enviar's answer (its 200 headers at
// the sender: after the commit) to the event's arrival at the screen, p50 / p95 / p99; and from
// the commit itself (PostgreSQL's commit timestamp of the audit entry, when the server has
// track_commit_timestamp on: the bench's embedded server does). Counted: missing (a screen that
// must show a send did not receive it within MISSING_MS of the answer), duplicated (one event id
// twice on a screen), misrouted (a preparation screen received a send none of whose tickets went
// to its station), unexpected (an event that names no ticket of the sends).
// Asked: p99 under 50 ms, 0 missing, 0 duplicated, 0 misrouted. Fails (exits 1) on a missing,
// duplicated, misrouted or unexpected event, a stream refused or ended, or any error answer; the
// p99 is reported against its target without failing the run (a noisy machine).
require('reflect-metadata');
const http = require('node:http');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { setInterval, clearInterval } = require('node:timers');
const { setTimeout: sleep } = require('node:timers/promises');
const { freePort, run, start, withClient } = require('./support/processes');
const { call, percentile } = require('./support/requests');
const { openEventStream } = require('./support/event-stream');
const { fmt, runMain, runStandalone } = require('./support/standalone');

const DIST = join(__dirname, '..', 'dist');
const env = process.env;
const SCREENS = Number(env.BENCH_COCINA_SCREENS ?? 20);
const RATE = Number(env.BENCH_COCINA_RATE ?? 50);
const DURATION = Number(env.BENCH_COCINA_DURATION ?? 15);
const WARM_UP_S = 2;
/** A screen that has not received a send this long after its answer missed it. */
const MISSING_MS = 5_000;
const TARGET_P99_MS = 50;
const HOST = '127.0.0.1';
const TENANT = 'cocina';
const STREAM_PATH = '/api/v1/cocina/stream';

/**
 * The tenant of the stage: the demo data, made by the tenant CLI, the feature `cocina` on (the
 * override; the service also runs with FEATURE_COCINA=true).
 */
async function provisionTenant({ serverUrl, cliEnv, prefix, timeZone }) {
  const { withDatabase } = require(join(DIST, 'database', 'pg-url'));
  const tenantCli = join(DIST, 'cli', 'tenant.cli.js');
  await run(
    tenantCli,
    ['create', TENANT, '--demo', '--name', 'Cocina', '--time-zone', timeZone],
    cliEnv,
  );
  await run(tenantCli, ['feature', TENANT, 'cocina', 'on'], cliEnv);
  return { tenant: TENANT, url: withDatabase(serverUrl, `${prefix}${TENANT}`) };
}

/** The service of the stage: FEATURE_COCINA=true. */
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
        FEATURE_COCINA: 'true',
      },
      'is listening on',
      join(work, 'service-cocina.log'),
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

/** A request that must answer `status`; its JSON. */
async function must(port, status, options) {
  const res = await call(port, { tenant: TENANT, ...options });
  if (res.status !== status)
    throw new Error(
      `${options.method ?? 'GET'} ${options.path} answered ${res.status}: ${res.text}`,
    );
  return res.json;
}

/**
 * The stations (Cocina, Bar, Expo) and the products each preparation station gets: the active
 * products of course-1 categories, Bebidas to Bar, the others to Cocina.
 */
async function setUpStations(port, tenantUrl) {
  const { rows } = await withClient(tenantUrl, (c) =>
    c.query(
      `SELECT c.id_categoria, c.nombre = 'Bebidas' AS bar,
              array_agg(p.id_producto ORDER BY p.id_producto) AS productos
         FROM categorias c JOIN productos p ON p.id_categoria = c.id_categoria
        WHERE c.activo AND p.activo AND coalesce(c.curso_defecto, 1) = 1
        GROUP BY 1, 2 ORDER BY 1`,
    ),
  );
  const bar = rows.filter((r) => r.bar);
  const food = rows.filter((r) => !r.bar);
  if (bar.length === 0 || food.length === 0)
    throw new Error('the demo data has no Bebidas or no other category of course 1');
  const existing = await must(port, 200, { path: '/api/v1/cocina/estaciones' });
  const cocina = existing.find((e) => e.nombre === 'Cocina');
  if (!cocina) throw new Error(`no Cocina station: ${JSON.stringify(existing)}`);
  // the demo restaurant has its Bar and Expo already; another tenant gets them
  const created = {};
  for (const [nombre, tipo] of [
    ['Bar', 'preparacion'],
    ['Expo', 'expo'],
  ]) {
    const station =
      existing.find((e) => e.nombre === nombre && e.tipo === tipo) ??
      (await must(port, 201, {
        method: 'POST',
        path: '/api/v1/cocina/estaciones',
        body: { nombre, tipo },
      }));
    created[nombre] = station.id_estacion;
  }
  for (const [id, categorias] of [
    [cocina.id_estacion, food.map((r) => r.id_categoria)],
    [created.Bar, bar.map((r) => r.id_categoria)],
  ])
    await must(port, 200, {
      method: 'PUT',
      path: `/api/v1/cocina/estaciones/${id}/categorias`,
      body: { categorias },
    });
  return {
    stations: [
      { nombre: 'Cocina', id: cocina.id_estacion, expo: false },
      { nombre: 'Bar', id: created.Bar, expo: false },
      { nombre: 'Expo', id: created.Expo, expo: true },
    ],
    dishes: food.flatMap((r) => r.productos),
    drinks: bar.flatMap((r) => r.productos),
  };
}

/**
 * `count` open comandas, four requests at a time: comanda i has two dishes (i % 3 = 0), a drink
 * (1) or a dish and a drink (2).
 */
async function createComandas(port, count, { dishes, drinks }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const ids = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const dish = (k) => ({ id_producto: dishes[(i * 3 + k) % dishes.length], cantidad: 1 });
      const drink = { id_producto: drinks[i % drinks.length], cantidad: 1 };
      const items = [[dish(0), dish(1)], [drink], [dish(0), drink]][i % 3];
      const json = await must(port, 201, {
        method: 'POST',
        path: '/api/v1/comandas',
        body: { id_mesa: 1 + (i % 12), items },
        agent,
      });
      ids[i] = json.id_comanda;
    }
  };
  await Promise.all([1, 2, 3, 4].map(worker));
  agent.destroy();
  return ids;
}

/**
 * One kitchen screen: an SSE client of a station. Every `event: cocina` frame is recorded with
 * the time its last chunk was read, its id and its data's comanda, tickets and stations.
 */
function subscribe(port, station) {
  const sub = {
    station,
    events: [],
    ids: new Set(),
    duplicates: 0,
    otherEvents: 0,
    badData: 0,
    ended: false,
    closing: false,
    error: undefined,
    req: undefined,
  };
  const onFrame = (frame, at, connected) => {
    let id;
    let event = 'message';
    let data;
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) {
        if (line === ': connected') connected();
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    }
    if (data === undefined) return;
    if (event !== 'cocina') {
      sub.otherEvents += 1;
      return;
    }
    const eventId = Number(id);
    if (sub.ids.has(eventId)) {
      sub.duplicates += 1;
      return;
    }
    sub.ids.add(eventId);
    let parsed;
    try {
      parsed = JSON.parse(data);
    } catch {
      sub.badData += 1;
      return;
    }
    if (parsed.id_evento !== undefined && parsed.id_evento !== eventId) sub.badData += 1;
    sub.events.push({
      id: eventId,
      at,
      comanda: parsed.id_comanda,
      envios: Array.isArray(parsed.envios) ? parsed.envios : [],
      estaciones: Array.isArray(parsed.estaciones) ? parsed.estaciones : [],
    });
  };
  return openEventStream(sub, {
    port,
    path: `${STREAM_PATH}?estacion=${station.id}`,
    tenant: TENANT,
    onFrame,
    what: 'the kitchen stream',
  });
}

/**
 * RATE sends per second on a fixed schedule, whether or not the earlier ones were answered:
 * send n is POST /comandas/ids[n]/enviar. Each records when it left, when its headers came back
 * and the tickets of its answer.
 */
function pacedSends(port, ids, rate) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = ids.length;
  const sends = [];
  let sent = 0;
  let done = 0;
  return new Promise((resolve) => {
    const settle = () => {
      done += 1;
      if (done < total) return;
      agent.destroy();
      resolve(sends);
    };
    const fire = (n) => {
      const send = {
        n,
        comanda: ids[n],
        sentAt: performance.now(),
        answeredAt: NaN,
        status: 0,
        error: undefined,
        envios: [],
        stations: [],
      };
      sends[n] = send;
      const req = http.request(
        {
          agent,
          host: HOST,
          port,
          method: 'POST',
          path: `/api/v1/comandas/${ids[n]}/enviar`,
          headers: { 'x-tenant-id': TENANT, 'content-length': 0 },
        },
        (res) => {
          send.answeredAt = performance.now(); // the headers: the transaction has committed
          send.status = res.statusCode;
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            if (res.statusCode !== 200) send.error = `${res.statusCode} ${text.slice(0, 200)}`;
            else {
              try {
                const { envios } = JSON.parse(text);
                send.envios = envios.map((e) => e.id_envio);
                send.stations = [...new Set(envios.map((e) => e.id_estacion))];
              } catch (error) {
                send.error = `unreadable answer: ${error.message}`;
              }
            }
            settle();
          });
        },
      );
      req.on('error', (error) => {
        send.error = error.message;
        settle();
      });
      req.end();
    };
    const startedAt = performance.now();
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - startedAt) / 1000) * rate));
      while (sent < due) fire(sent++);
      if (sent >= total) clearInterval(timer);
    }, 1);
  });
}

/** Date.now() − performance.now(), read as Date.now() ticks (as bench/stream.js). */
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

/** Does `sub` have to show `send`? Its station got a ticket of it, or it is an expo screen. */
const mustShow = (sub, send) => sub.station.expo || send.stations.includes(sub.station.id);

/** Each screen's arrivals by send (the send whose tickets the event names). */
function arrivals(subs, sends) {
  const sendOfEnvio = new Map();
  for (const send of sends) for (const e of send.envios) sendOfEnvio.set(e, send);
  let unexpected = 0;
  let misrouted = 0;
  let wrongData = 0;
  for (const sub of subs) {
    sub.bySend = new Map();
    for (const event of sub.events) {
      const send = event.envios.map((e) => sendOfEnvio.get(e)).find(Boolean);
      if (!send) {
        unexpected += 1;
        continue;
      }
      if (!mustShow(sub, send)) misrouted += 1;
      if (
        event.comanda !== send.comanda ||
        event.envios.length !== send.envios.length ||
        event.estaciones.some((s) => !send.stations.includes(s))
      )
        wrongData += 1;
      if (sub.bySend.has(send.n)) sub.duplicateSends = (sub.duplicateSends ?? 0) + 1;
      else sub.bySend.set(send.n, event);
    }
  }
  return { unexpected, misrouted, wrongData };
}

/** Waits until every screen holds every send it must show, or `ms` passed. */
async function drain(subs, sends, ms) {
  const deadline = performance.now() + ms;
  for (;;) {
    arrivals(subs, sends);
    const complete = subs.every((sub) =>
      sends.every((send) => !mustShow(sub, send) || sub.bySend.has(send.n)),
    );
    if (complete || performance.now() > deadline) return complete;
    await sleep(100);
  }
}

/**
 * The stage, on a service started by startService and the tenant of provisionTenant: the
 * stations, the comandas, the screens, then the sends.
 */
async function cocinaBench({ service, provisioned }) {
  const started = performance.now();
  const problems = [];
  const { port } = service;
  const setup = await setUpStations(port, provisioned.url);
  const warmSends = RATE * WARM_UP_S;
  const total = warmSends + RATE * DURATION;
  const creating = performance.now();
  const ids = await createComandas(port, total, setup);
  const createMs = performance.now() - creating;

  const opening = performance.now();
  const subs = [];
  for (let i = 0; i < SCREENS; i += 1)
    subs.push(subscribe(port, setup.stations[i % setup.stations.length]));
  await Promise.all(subs.map((s) => s.ready));
  const openMs = performance.now() - opening;

  const commitTimes = await withClient(
    provisioned.url,
    async (c) => (await c.query('SHOW track_commit_timestamp')).rows[0].track_commit_timestamp,
  );
  const offset = wallClockOffset();
  const sendsStarted = performance.now();
  const sends = await pacedSends(port, ids, RATE);
  const sendSeconds = (performance.now() - sendsStarted) / 1000;
  const lastAnswer = Math.max(...sends.map((s) => s.answeredAt).filter((x) => !Number.isNaN(x)));
  await drain(subs, sends, MISSING_MS);
  const { unexpected, misrouted, wrongData } = arrivals(subs, sends);

  // the commit instant of each send's audit entry (the event id), when the server records it
  const eventIds = [...new Set(subs.flatMap((s) => s.events.map((e) => e.id)))];
  const committed = new Map();
  if (commitTimes === 'on')
    await withClient(provisioned.url, async (c) => {
      const { rows } = await c.query(
        `SELECT id_evento::float8 AS id,
                extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000 AS at
           FROM comanda_eventos WHERE id_evento = ANY ($1::bigint[])`,
        [eventIds],
      );
      for (const r of rows) committed.set(r.id, Number(r.at));
    });

  const fromAnswer = [];
  const fromCommit = [];
  const perStation = new Map(setup.stations.map((s) => [s.nombre, []]));
  let expected = 0;
  let missing = 0;
  let late = 0;
  let beforeAnswer = 0;
  for (const sub of subs) {
    for (const send of sends) {
      if (send.error || !mustShow(sub, send)) continue;
      expected += 1;
      const event = sub.bySend.get(send.n);
      const ms = event ? event.at - send.answeredAt : Infinity;
      if (ms > MISSING_MS) {
        missing += 1;
        if (event) late += 1;
        continue;
      }
      if (send.n < warmSends) continue;
      if (ms < 0) beforeAnswer += 1;
      fromAnswer.push(ms);
      perStation.get(sub.station.nombre).push(ms);
      const at = committed.get(event.id);
      if (at !== undefined) fromCommit.push(event.at + offset - at);
    }
  }
  const sorted = (list) => Float64Array.from(list).sort();
  const figures = (list) => {
    const s = sorted(list);
    return {
      n: s.length,
      p50: percentile(s, 50),
      p95: percentile(s, 95),
      p99: percentile(s, 99),
      max: s.length ? s[s.length - 1] : NaN,
    };
  };
  const measured = sends.filter((s) => s.n >= warmSends);
  const write = figures(measured.map((s) => s.answeredAt - s.sentAt));
  const kinds = { one: 0, two: 0 };
  for (const s of sends) if (!s.error) kinds[s.stations.length === 2 ? 'two' : 'one'] += 1;

  const trouble = {
    duplicated: subs.reduce((n, s) => n + s.duplicates + (s.duplicateSends ?? 0), 0),
    ended: subs.filter((s) => s.ended).length,
    errors: subs.filter((s) => s.error).length,
    otherEvents: subs.reduce((n, s) => n + s.otherEvents, 0),
    badData: subs.reduce((n, s) => n + s.badData, 0) + wrongData,
  };
  for (const sub of subs) {
    sub.closing = true;
    sub.req.destroy();
  }

  const failedSends = sends.filter((s) => s.error);
  if (failedSends.length > 0)
    problems.push(`${failedSends.length} sends failed (first: ${failedSends[0].error})`);
  const empty = sends.filter((s) => !s.error && s.envios.length === 0).length;
  if (empty > 0) problems.push(`${empty} sends wrote no ticket`);
  if (missing > 0) problems.push(`${missing} deliveries missing (${late} of them late)`);
  if (misrouted > 0) problems.push(`${misrouted} events misrouted`);
  if (unexpected > 0) problems.push(`${unexpected} unexpected events`);
  for (const [what, n] of Object.entries(trouble))
    if (n > 0) problems.push(`screens: ${n} ${what}`);

  const latency = figures(fromAnswer);
  return {
    failed: problems.length > 0,
    problems,
    screens: subs.map((s) => s.station.nombre),
    stations: setup.stations,
    rate: RATE,
    duration: DURATION,
    sends: sends.length,
    measuredSends: measured.length,
    achievedRate: sends.length / sendSeconds,
    kinds,
    createMs,
    openMs,
    expected,
    missing,
    late,
    misrouted,
    unexpected,
    trouble,
    beforeAnswer,
    latency,
    commit: commitTimes === 'on' ? figures(fromCommit) : undefined,
    perStation: Object.fromEntries([...perStation].map(([k, v]) => [k, figures(v)])),
    write,
    drainMs: Math.max(0, Math.max(...subs.flatMap((s) => s.events.map((e) => e.at))) - lastAnswer),
    targetMet: latency.p99 < TARGET_P99_MS && missing === 0 && trouble.duplicated === 0,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The stage's lines of the bench's report (markdown). */
function report(r, fmt) {
  const ms = (x) => (Number.isNaN(x) ? 'n/a' : fmt(x, 1));
  const ppp = (f) => `${ms(f.p50)} / ${ms(f.p95)} / ${ms(f.p99)} ms`;
  const count = (name) => r.screens.filter((s) => s === name).length;
  const l = r.latency;
  const lines = [
    `\n## Kitchen (cocina): ${r.screens.length} screens on ${r.stations.length} stations, ${r.rate} sends/s ` +
      `for ${r.duration} s (the stage took ${fmt(r.seconds)} s)\n`,
    `Screens: ${r.stations.map((s) => `${count(s.nombre)} ${s.nombre}${s.expo ? ' (expo)' : ''}`).join(', ')}, ` +
      `opened in ${fmt(r.openMs)} ms. ${fmt(r.sends)} sends (POST /comandas/:id/enviar, ${WARM_UP_S} s of warm-up ` +
      `not measured; ${fmt(r.kinds.one)} to one station, ${fmt(r.kinds.two)} to two; achieved ` +
      `${fmt(r.achievedRate, 1)}/s) on comandas created first (${fmt(r.createMs / 1000, 1)} s); ` +
      `${fmt(r.expected)} deliveries due, ${fmt(l.n)} measured.\n`,
    '| kitchen stream | figure |',
    '|---|---|',
    `| delivery latency, enviar's answer (200 headers) → every screen that must show it, p50 / p95 / p99 | ` +
      `**${ppp(l)}** (max ${ms(l.max)}; ${fmt(r.beforeAnswer)} read before the answer) |`,
    ...Object.entries(r.perStation).map(
      ([name, f]) => `| the same, ${name} screens (${fmt(f.n)}) | ${ppp(f)} |`,
    ),
    `| from the commit (PostgreSQL commit timestamp of the audit entry), p50 / p95 / p99 | ` +
      (r.commit
        ? `${ppp(r.commit)} (max ${ms(r.commit.max)}) |`
        : 'n/a (the server has track_commit_timestamp off) |'),
    `| the sends' own latency (sent → 200 headers), p50 / p95 / p99 | ${ppp(r.write)} |`,
    `| last event received after the last answer | ${fmt(r.drainMs)} ms |`,
    `| missing (not within ${MISSING_MS / 1000} s) / duplicated / misrouted / unexpected | **${r.missing}** / ` +
      `**${r.trouble.duplicated}** / **${r.misrouted}** / ${r.unexpected} |`,
    `| streams ended or failed / frames with wrong data | ${r.trouble.ended + r.trouble.errors} / ${r.trouble.badData} |`,
    `| target: p99 < ${TARGET_P99_MS} ms, 0 missing, 0 duplicated | **${r.targetMet ? 'met' : 'not met'}** |`,
  ];
  if (r.problems.length > 0) lines.push(`\nKitchen problems: ${r.problems.join('; ')}.`);
  return lines.join('\n');
}

/** The stderr line of the stage as it ends. */
function progressLine(r, fmt) {
  const l = r.latency;
  return (
    `cocina: ${r.screens.length} screens, ${fmt(r.achievedRate, 1)} sends/s; answer → screen p50/p95/p99 ` +
    `${fmt(l.p50, 1)}/${fmt(l.p95, 1)}/${fmt(l.p99, 1)} ms; missing ${r.missing}, duplicated ` +
    `${r.trouble.duplicated}, misrouted ${r.misrouted}`
  );
}

/**
 * `npm run bench:cocina`: the stage alone, on an embedded PostgreSQL of its own (commit
 * timestamps on) or BENCH_DATABASE_URL, the pools of the bench's first service (2 connections a
 * tenant).
 */
async function main() {
  const { withDatabase } = require(join(DIST, 'database', 'pg-url'));
  const prefix = 'comandas_bench_cocina_';
  await runStandalone({
    name: 'cocina',
    prefix,
    settings: { track_commit_timestamp: 'on' },
    stage: async ({ serverUrl, work, atEnd }) => {
      const cliEnv = {
        DATABASE_URL: withDatabase(serverUrl, `${prefix}control`),
        TENANT_DB_PREFIX: prefix,
        DEMO_TENANT: 'false',
        LOG_LEVEL: 'warn',
      };
      const provisioned = await provisionTenant({
        serverUrl,
        cliEnv,
        prefix,
        timeZone: 'America/Lima',
      });
      const service = await startService({
        work,
        cliEnv,
        serviceConfig: { CONTROL_POOL_MAX: '4' },
        poolMax: 2,
      });
      atEnd(() => service.stop());
      const result = await cocinaBench({ service, provisioned });
      console.error(`[bench:cocina] ${progressLine(result, fmt)}`);
      console.log(
        `# npm run bench:cocina (${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, TENANT_POOL_MAX=2)`,
      );
      console.log(report(result, fmt));
      if (result.failed) {
        console.error(
          '\nThe cocina stage failed: a screen missed, repeated or misrouted an event.',
        );
        process.exitCode = 1;
      }
    },
  });
}

if (require.main === module) runMain(main);

module.exports = { cocinaBench, report, progressLine, provisionTenant, startService };
