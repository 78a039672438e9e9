// The live stream (GET /api/v1/comandas/stream) under load: a stage of `npm run bench`
// (docs/performance.md, "Live stream"), run by bench/bench.js against its service, its baseline
// and its `main` tenant.
//
// 1. Latency: SUBSCRIBERS streams on one tenant of the one instance (node:http GETs, the SSE
//    frames parsed here), while changes (POST /comandas/:id/items, round-robin over COMANDAS new
//    comandas) leave at RATE per second on a fixed schedule (open loop) for DURATION seconds
//    (and, first, for 10 s with no subscriber: the changes' own latency without the fan-out).
//    Each change carries a unique `nota`; after the run the audit table gives the id_evento of
//    each (its `despues` is the added line, nota included), so an event received by a client is
//    matched to the change that made it exactly, whatever the order or the concurrency.
//    Latency = when the client read the frame − when the change's transaction committed
//    (PostgreSQL's commit timestamp of the entry, pg_xact_commit_timestamp(xmin): the bench's
//    embedded server runs with track_commit_timestamp=on; same machine, same clock). Also
//    reported: − when the change's 201 headers reached the writer (after the commit: an
//    underestimate, and the only figure on a BENCH_DATABASE_URL without commit timestamps) and
//    − when the change was sent (before the commit: an overestimate). Every subscriber must
//    receive every entry written after the start, once, in order per comanda.
// 2. Throughput: the harness's detail scenario (autocannon, the same connections and duration)
//    on the service without subscribers and with the subscribers connected and idle, in ABBA
//    order (without, with, [the latency run], with, without) so that a drift of the machine
//    weighs on both, and the baseline before and after for the ratio the harness reports.
// Fails (the bench exits 1) on a missing, duplicated, unexpected or out-of-order event, a stream
// that is refused or ends, or any error answer (non-2xx) to a change or a detail.
const { Buffer } = require('node:buffer');
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { setInterval, clearInterval } = require('node:timers');
const { setTimeout: sleep } = require('node:timers/promises');
const { openEventStream } = require('./support/event-stream');
const { withClient } = require('./support/processes');
const { percentile } = require('./support/requests');

const env = process.env;
const SUBSCRIBERS = Number(env.BENCH_STREAM_SUBSCRIBERS ?? 200);
const RATE = Number(env.BENCH_STREAM_RATE ?? 100);
const DURATION = Number(env.BENCH_STREAM_DURATION ?? 25);
const COMANDAS = Number(env.BENCH_STREAM_COMANDAS ?? 100);
/** How long after the last change's answer the clients may take to receive everything. */
const DRAIN_MS = 10_000;
const HOST = '127.0.0.1';
const STREAM_PATH = '/api/v1/comandas/stream';

function request(port, { method = 'GET', path, tenant, body, agent }) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: HOST,
        port,
        method,
        path,
        headers: {
          'x-tenant-id': tenant,
          ...(payload && {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * One SSE client. Frames end at a blank line; `:` lines are comments (`: connected`,
 * `: heartbeat`); `id:`, `event:`, `data:` (joined by newlines) and `retry:` are fields. An
 * `event: comanda` frame is recorded as id → the time its last chunk was read; `checkData`
 * also parses its JSON and checks it against the `id:` line (done for one client: 200 clients
 * parsing every event would take the CPU the service needs on this machine).
 */
function subscribe(port, tenant, checkData) {
  const sub = {
    received: new Map(),
    duplicates: 0,
    otherEvents: [],
    badData: 0,
    heartbeats: 0,
    retry: undefined,
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
        else if (line === ': heartbeat') sub.heartbeats += 1;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
      else if (field === 'retry') sub.retry = Number(value);
    }
    if (data === undefined) return;
    if (event !== 'comanda') {
      sub.otherEvents.push({ event, data });
      return;
    }
    const eventId = Number(id);
    if (sub.received.has(eventId)) sub.duplicates += 1;
    else sub.received.set(eventId, at);
    if (checkData) {
      const parsed = JSON.parse(data);
      if (parsed.id_evento !== eventId || typeof parsed.comanda?.version !== 'number')
        sub.badData += 1;
    }
  };
  return openEventStream(sub, { port, path: STREAM_PATH, tenant, onFrame });
}

/** Opens `count` streams, 20 at a time; resolves when each has its `: connected` frame. */
async function openSubscribers(port, tenant, count) {
  const subs = [];
  for (let i = 0; i < count; i += 20) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 20); j += 1)
      batch.push(subscribe(port, tenant, j === 0));
    subs.push(...batch);
    await Promise.all(batch.map((s) => s.ready));
  }
  return subs;
}

function closeSubscribers(subs) {
  for (const sub of subs) {
    sub.closing = true;
    sub.req.destroy();
  }
}

/**
 * `rate` changes per second for `durationS` seconds on a fixed schedule, whether or not the
 * earlier ones were answered (bench/support/paced-load.js, with a body); change n adds a line
 * with nota `${tag}${n}` to comanda ids[n % ids.length].
 */
function pacedChanges({ port, tenant, ids, rate, durationS, tag }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(rate * durationS);
  const changes = [];
  let sent = 0;
  let done = 0;
  return new Promise((resolve) => {
    const settle = () => {
      done += 1;
      if (done < total) return;
      agent.destroy();
      resolve(changes);
    };
    const fire = (n) => {
      const change = { sentAt: performance.now(), answeredAt: NaN, status: 0, error: undefined };
      changes[n] = change;
      const body = JSON.stringify({ id_producto: 1, cantidad: 1, nota: `${tag}${n}` });
      const req = http.request(
        {
          agent,
          host: HOST,
          port,
          method: 'POST',
          path: `/api/v1/comandas/${ids[n % ids.length]}/items`,
          headers: {
            'x-tenant-id': tenant,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          // the headers: the transaction has committed
          change.answeredAt = performance.now();
          change.status = res.statusCode;
          if (res.statusCode >= 300) {
            // the error's code and message, for the report
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c) => (text += c));
            res.on('end', () => {
              change.error = `${res.statusCode} ${text.slice(0, 200)}`;
              settle();
            });
            return;
          }
          res.resume();
          res.on('end', settle);
        },
      );
      req.on('error', (error) => {
        change.error = error.message;
        settle();
      });
      req.end(body);
    };
    const start = performance.now();
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
      while (sent < due) fire(sent++);
      if (sent >= total) clearInterval(timer);
    }, 1);
  });
}

/**
 * Date.now() − performance.now(), to the microsecond: read when Date.now() has just ticked to
 * a new millisecond. Turns the clients' performance.now() readings into epoch milliseconds,
 * comparable with PostgreSQL's commit timestamps (the same system clock).
 */
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

/** Waits until every subscriber holds every expected id, or `ms` passed. */
async function drain(subs, expected, ms) {
  const deadline = performance.now() + ms;
  for (;;) {
    const complete = subs.every((s) => expected.every((e) => s.received.has(e.id)));
    if (complete || performance.now() > deadline) return complete;
    await sleep(50);
  }
}

/** Latency, completeness and order of what the subscribers received. */
function analyse(subs, expected, changes, tag, offset) {
  const byId = new Map(expected.map((e) => [e.id, e]));
  const fromCommit = [];
  const fromAnswer = [];
  const fromSend = [];
  let missing = 0;
  let unexpected = 0;
  let outOfOrder = 0;
  let lastArrival = 0;
  for (const sub of subs) {
    for (const e of expected) if (!sub.received.has(e.id)) missing += 1;
    const lastOfComanda = new Map();
    for (const [id, at] of sub.received) {
      const e = byId.get(id);
      if (!e) {
        unexpected += 1;
        continue;
      }
      if ((lastOfComanda.get(e.comanda) ?? 0) > id) outOfOrder += 1;
      lastOfComanda.set(e.comanda, id);
      lastArrival = Math.max(lastArrival, at);
      if (e.committedAt !== null) fromCommit.push(at + offset - e.committedAt);
      const n = e.nota?.startsWith(tag) ? Number(e.nota.slice(tag.length)) : NaN;
      const change = changes[n];
      if (!change) continue;
      fromAnswer.push(at - change.answeredAt);
      fromSend.push(at - change.sentAt);
    }
  }
  const sorted = (list) => Float64Array.from(list).sort();
  const c = sorted(fromCommit);
  const a = sorted(fromAnswer);
  const s = sorted(fromSend);
  const negative = a.findIndex((x) => x >= 0);
  return {
    samples: a.length,
    commitSamples: c.length,
    commitP50: percentile(c, 50),
    commitP99: percentile(c, 99),
    commitMax: c.length ? c[c.length - 1] : NaN,
    answerP50: percentile(a, 50),
    answerP99: percentile(a, 99),
    beforeAnswer: negative === -1 ? a.length : negative,
    sendP50: percentile(s, 50),
    sendP99: percentile(s, 99),
    missing,
    unexpected,
    outOfOrder,
    lastArrival,
  };
}

/**
 * Runs the stage. `measure(port)`: the harness's detail load on a port ({rps, p50, p99,
 * errors}); `databaseUrl`: the tenant's database (the audit table is the truth of what was
 * written).
 */
async function streamBench({ servicePort, baselinePort, tenant, databaseUrl, measure }) {
  const started = performance.now();
  const problems = [];
  const tag = `stream-bench-${Date.now().toString(36)}-`;

  // comandas of our own (their lines grow by RATE × DURATION / COMANDAS), open, one line each
  const ids = [];
  for (let i = 0; i < COMANDAS; i += 1) {
    const { status, text } = await request(servicePort, {
      method: 'POST',
      path: '/api/v1/comandas',
      tenant,
      body: { id_mesa: 1 + (i % 12), items: [{ id_producto: 1, cantidad: 1 }] },
    });
    if (status !== 201) throw new Error(`POST /comandas answered ${status}: ${text}`);
    ids.push(JSON.parse(text).id_comanda);
  }

  // the same changes with no subscriber (no feed yet), for 10 s: what the changes cost alone
  const alone = await pacedChanges({
    port: servicePort,
    tenant,
    ids,
    rate: RATE,
    durationS: Math.min(10, DURATION),
    tag: `${tag}alone-`,
  });
  const aloneLatency = Float64Array.from(alone.map((c) => c.answeredAt - c.sentAt)).sort();
  const aloneFailed = alone.filter((c) => c.error || c.status < 200 || c.status >= 300);
  if (aloneFailed.length > 0)
    problems.push(
      `${aloneFailed.length} changes without subscribers failed (${aloneFailed[0].error ?? aloneFailed[0].status})`,
    );

  const throughput = { base: [], without: [], with: [] };
  const detail = async (kind, port) => {
    const result = await measure(port);
    throughput[kind].push(result);
    if (result.errors > 0) problems.push(`${result.errors} errors in the detail load (${kind})`);
  };
  await detail('base', baselinePort);
  await detail('without', servicePort);

  const opening = performance.now();
  const subs = await openSubscribers(servicePort, tenant, SUBSCRIBERS);
  const openMs = performance.now() - opening;
  await detail('with', servicePort);

  const { startId, commitTimes } = await withClient(databaseUrl, async (c) => ({
    startId: Number(
      (await c.query('SELECT coalesce(max(id_evento), 0) AS n FROM comanda_eventos')).rows[0].n,
    ),
    commitTimes: (await c.query('SHOW track_commit_timestamp')).rows[0].track_commit_timestamp,
  }));
  const offset = wallClockOffset();
  const changes = await pacedChanges({
    port: servicePort,
    tenant,
    ids,
    rate: RATE,
    durationS: DURATION,
    tag,
  });
  const answered = performance.now();
  // every change has been answered, so committed (or rolled back): the audit table is final
  const expected = await withClient(databaseUrl, async (c) =>
    (
      await c.query(
        `SELECT id_evento::float8 AS id, id_comanda::int AS comanda, despues->>'nota' AS nota,
                ${commitTimes === 'on' ? 'extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000' : 'NULL'}::float8 AS committed
           FROM comanda_eventos WHERE id_evento > $1 ORDER BY id_evento`,
        [startId],
      )
    ).rows.map((r) => ({ id: r.id, comanda: r.comanda, nota: r.nota, committedAt: r.committed })),
  );
  const complete = await drain(subs, expected, DRAIN_MS);
  const latency = analyse(subs, expected, changes, tag, offset);
  const drainMs = Math.max(0, latency.lastArrival - answered);

  const failedChanges = changes.filter((c) => c.error || c.status < 200 || c.status >= 300);
  const serverErrors = changes.filter((c) => c.status >= 500).length;
  const writeLatency = Float64Array.from(changes.map((c) => c.answeredAt - c.sentAt)).sort();
  const subscriberTrouble = {
    ended: subs.filter((s) => s.ended).length,
    errors: subs.filter((s) => s.error).length,
    duplicates: subs.reduce((n, s) => n + s.duplicates, 0),
    otherEvents: subs.reduce((n, s) => n + s.otherEvents.length, 0),
    badData: subs.reduce((n, s) => n + s.badData, 0),
    heartbeats: subs.reduce((n, s) => n + s.heartbeats, 0),
  };

  await detail('with', servicePort);
  closeSubscribers(subs);
  await sleep(500);
  await detail('without', servicePort);
  await detail('base', baselinePort);

  if (failedChanges.length > 0) {
    const kinds = new Map();
    for (const c of failedChanges) {
      const key = c.error ?? `status ${c.status}`;
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    problems.push(
      `${failedChanges.length} changes failed (${[...kinds].map(([k, n]) => `${k}: ${n}`).join(', ')})`,
    );
  }
  if (expected.length !== changes.length - failedChanges.length)
    problems.push(`${expected.length} audit entries for ${changes.length} changes`);
  if (!complete || latency.missing > 0) problems.push(`${latency.missing} events missing`);
  if (latency.unexpected > 0) problems.push(`${latency.unexpected} unexpected events`);
  if (latency.outOfOrder > 0) problems.push(`${latency.outOfOrder} events out of order`);
  for (const [what, n] of Object.entries(subscriberTrouble)) {
    if (what !== 'heartbeats' && n > 0) problems.push(`subscribers: ${n} ${what}`);
  }
  if (subs[0]?.retry !== 2000) problems.push(`retry field ${subs[0]?.retry}, expected 2000`);

  const mean = (list) => list.reduce((sum, r) => sum + r.rps, 0) / list.length;
  return {
    failed: problems.length > 0 || serverErrors > 0,
    problems,
    subscribers: SUBSCRIBERS,
    rate: RATE,
    duration: DURATION,
    comandas: COMANDAS,
    openMs,
    commitTimes: commitTimes === 'on',
    changes: changes.length,
    events: expected.length,
    deliveries: latency.samples,
    latency,
    drainMs,
    write: { p50: percentile(writeLatency, 50), p99: percentile(writeLatency, 99) },
    alone: {
      changes: alone.length,
      p50: percentile(aloneLatency, 50),
      p99: percentile(aloneLatency, 99),
    },
    serverErrors: serverErrors + alone.filter((c) => c.status >= 500).length,
    failedChanges: failedChanges.length,
    subscriberTrouble,
    throughput,
    baseRps: mean(throughput.base),
    withoutRps: mean(throughput.without),
    withRps: mean(throughput.with),
    seconds: (performance.now() - started) / 1000,
  };
}

/** The stage's lines of the bench's report (markdown). */
function report(r, fmt) {
  const ms = (x) => (Number.isNaN(x) ? 'n/a' : fmt(x, 1));
  const l = r.latency;
  const rps = (list) => list.map((x) => fmt(x.rps)).join(' / ');
  const ratio = r.withRps / r.withoutRps;
  const lines = [
    `\n## Live stream: ${r.subscribers} subscribers on one tenant, ${r.rate} changes/s for ` +
      `${r.duration} s (the stage took ${fmt(r.seconds)} s)\n`,
    `${r.subscribers} streams opened in ${fmt(r.openMs)} ms. ${fmt(r.changes)} changes ` +
      `(POST /comandas/:id/items over ${r.comandas} comandas), ${fmt(r.events)} audit entries, ` +
      `${fmt(r.deliveries)} deliveries measured.\n`,
    '| live stream | figure |',
    '|---|---|',
    `| delivery latency, commit (PostgreSQL commit timestamp) → client, p50 / p99 | ` +
      (r.commitTimes
        ? `**${ms(l.commitP50)} / ${ms(l.commitP99)} ms** (max ${ms(l.commitMax)}) |`
        : 'n/a (the server has track_commit_timestamp off) |'),
    `| the same from the change's answer (201 headers at the writer), p50 / p99 | ` +
      `${ms(l.answerP50)} / ${ms(l.answerP99)} ms (${fmt(l.beforeAnswer)} deliveries read before the answer) |`,
    `| the same from the change's request being sent, p50 / p99 | ${ms(l.sendP50)} / ${ms(l.sendP99)} ms |`,
    `| the changes' own latency (sent → 201 headers), p50 / p99 | ${ms(r.write.p50)} / ${ms(r.write.p99)} ms ` +
      `(the same rate without subscribers, ${fmt(r.alone.changes)} changes before: ${ms(r.alone.p50)} / ${ms(r.alone.p99)} ms) |`,
    `| last event received after the last answer | ${fmt(r.drainMs)} ms |`,
    `| missing / duplicated / out of order per comanda / unexpected | **${l.missing}** / ` +
      `${r.subscriberTrouble.duplicates} / ${l.outOfOrder} / ${l.unexpected} |`,
    `| changes answered 5xx / other errors / streams ended or failed | ${r.serverErrors} / ` +
      `${r.failedChanges - r.serverErrors} / ${r.subscriberTrouble.ended + r.subscriberTrouble.errors} |`,
    `| GET /comandas/:id (autocannon as above), baseline req/s (first / last) | ${rps(r.throughput.base)} |`,
    `| the service, no subscriber (first / last) | ${rps(r.throughput.without)} ` +
      `(ratio to the baseline ${fmt(r.withoutRps / r.baseRps, 2)}) |`,
    `| the service, ${r.subscribers} idle subscribers (before / after the changes) | ` +
      `${rps(r.throughput.with)} (ratio to the baseline ${fmt(r.withRps / r.baseRps, 2)}) |`,
    `| with / without subscribers (means) | **${fmt(ratio, 2)}** (${ratio >= 0.9 ? 'within' : 'beyond'} the 10 % allowed) |`,
  ];
  if (r.problems.length > 0) lines.push(`\nLive stream problems: ${r.problems.join('; ')}.`);
  return lines.join('\n');
}

module.exports = { streamBench, report, openSubscribers, closeSubscribers, pacedChanges };
