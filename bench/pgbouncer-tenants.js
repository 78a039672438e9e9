// npm run bench:pgbouncer: many tenants round-robin on a service at the default settings
// (TENANT_DATASOURCE_MAX=20, TENANT_POOL_MAX=5), the tenants' databases reached three ways:
//   straight  : the service connects to PostgreSQL itself (SCRAM, the server's default);
//   scram     : through PgBouncer (transaction pooling), SCRAM between the service and PgBouncer;
//   trust     : through PgBouncer, the service trusted by PgBouncer (PgBouncer keeps SCRAM towards
//               PostgreSQL).
// For each: the detail on one tenant, then spread over all of them in turn (autocannon, 16
// connections, 8 s after 3 s of warm-up), and the sessions PostgreSQL opened meanwhile. The
// figures behind docs/performance.md, "1,000 tenants".
// Needs the pgbouncer program (Debian: apt-get install pgbouncer); without it, says so and
// exits 2. BENCH_PGBOUNCER_TENANTS (300): PostgreSQL gets max_connections = tenants + 150, one
// server session per tenant database being what PgBouncer keeps (default_pool_size = 1).
require('reflect-metadata');
const { execFileSync, spawn } = require('node:child_process');
const {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { URL } = require('node:url');
const { setTimeout: sleep } = require('node:timers/promises');
const autocannon = require('autocannon');
const { freePort, start, withClient } = require('./support/processes');
const { roundRobin, sessionsOpened, smallTenants } = require('./support/tenants');

const DIST = join(__dirname, '..', 'dist');
const TENANTS = Number(process.env.BENCH_PGBOUNCER_TENANTS ?? 300);
const PREFIX = 'comandas_bench_';
const { withDatabase } = require(join(DIST, 'database', 'pg-url'));

function pgbouncerProgram() {
  try {
    return execFileSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** As root, PgBouncer runs as the postgres OS user (it refuses root), like the embedded server. */
function osUser() {
  if (process.getuid?.() !== 0) return {};
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
  };
}

/** PgBouncer on `port` in front of the server; its files in `dir` (writable by its user). */
async function pgbouncer(program, dir, name, { port, server, auth }) {
  const ini = join(dir, `${name}.ini`);
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${server.port} user=${server.user} password=${server.password}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      `auth_type = ${auth}`,
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 1',
      'max_client_conn = 2000',
      'server_idle_timeout = 600',
      // the pools send the statement timeout as a start-up parameter (see the docs)
      'ignore_startup_parameters = extra_float_digits,statement_timeout',
      `logfile = ${join(dir, `${name}.log`)}`,
      '',
    ].join('\n'),
  );
  const child = spawn(program, [ini], { stdio: 'ignore', ...osUser() });
  for (let i = 0; i < 50; i += 1) {
    const up = await withClient(
      `postgres://${server.user}:${server.password}@127.0.0.1:${port}/${PREFIX}control`,
      () => true,
    ).catch(() => false);
    if (up) return child;
    await sleep(100);
  }
  child.kill();
  throw new Error(`PgBouncer did not start:\n${readFileSync(join(dir, `${name}.log`), 'utf8')}`);
}

async function load(port, requests, duration) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 16,
    duration,
    requests: requests.requests,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

async function main() {
  const program = pgbouncerProgram();
  if (!program) {
    console.error(
      'bench:pgbouncer needs the pgbouncer program (Debian: apt-get install pgbouncer).',
    );
    process.exit(2);
  }
  const work = mkdtempSync(join(tmpdir(), 'comandas-pgbouncer-'));
  chmodSync(work, 0o755);
  const stops = [];
  const { EmbeddedPostgres } = require(join(DIST, 'database', 'embedded-postgres'));
  const embedded = new EmbeddedPostgres({
    dataDir: join(work, 'pg'),
    port: await freePort(),
    settings: { max_connections: String(TENANTS + 150) },
  });
  let failed = false;
  try {
    const serverUrl = (await embedded.start()).adminUrl;
    const url = new URL(serverUrl);
    const server = {
      port: url.port,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    };
    const controlUrl = withDatabase(serverUrl, `${PREFIX}control`);
    const cliEnv = {
      DATABASE_URL: controlUrl,
      TENANT_DB_PREFIX: PREFIX,
      DEMO_TENANT: 'false',
      LOG_LEVEL: 'warn',
    };
    const started = Date.now();
    await smallTenants({ serverUrl, cliEnv, prefix: PREFIX, count: TENANTS, timeZone: 'UTC' });
    console.error(`${TENANTS} tenants ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);

    const dir = join(work, 'pgbouncer');
    mkdirSync(dir);
    const { uid, gid } = osUser();
    if (uid !== undefined) chownSync(dir, uid, gid);
    writeFileSync(join(dir, 'userlist.txt'), `"${server.user}" "${server.password}"\n`);
    const modes = [
      { name: 'straight to PostgreSQL, SCRAM' },
      { name: 'through PgBouncer, SCRAM to PgBouncer', auth: 'scram-sha-256' },
      { name: 'through PgBouncer, the service trusted', auth: 'trust' },
    ];
    const rows = [];
    for (const mode of modes) {
      // one PgBouncer at a time: each keeps its server sessions open until it stops
      let bouncer;
      let tenantUrl = null;
      if (mode.auth) {
        const port = await freePort();
        bouncer = await pgbouncer(program, dir, mode.auth, { port, server, auth: mode.auth });
        const started = bouncer;
        stops.push(async () => started.kill());
        const password = mode.auth === 'trust' ? '' : `:${server.password}`;
        tenantUrl = `postgres://${server.user}${password}@127.0.0.1:${port}/`;
      }
      await withClient(controlUrl, (c) =>
        c.query(
          `UPDATE tenants SET database_url = CASE WHEN $1::text IS NULL THEN NULL
                                                  ELSE $1 || database_name END`,
          [tenantUrl],
        ),
      );
      const port = await freePort();
      const service = start(
        join(DIST, 'main.js'),
        [],
        {
          ...cliEnv,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          RATE_LIMIT_MAX: '0',
        },
        'is listening on',
        join(work, 'service.log'),
      );
      await service.ready;
      await load(port, roundRobin(1), 3);
      const one = await load(port, roundRobin(1), 8);
      await load(port, roundRobin(TENANTS), 3);
      const before = await sessionsOpened(serverUrl, PREFIX);
      const many = await load(port, roundRobin(TENANTS), 8);
      await service.stop();
      bouncer?.kill();
      await sleep(1_500); // closed sessions report their statistics
      const sessions = (await sessionsOpened(serverUrl, PREFIX)) - before;
      if (one.errors > 0 || many.errors > 0) failed = true;
      rows.push({ mode: mode.name, one, many, sessions });
      console.error(`${mode.name}: ${many.rps.toFixed(0)} req/s against ${one.rps.toFixed(0)}`);
    }

    console.log(
      `# npm run bench:pgbouncer (${new Date().toISOString().slice(0, 16)}Z, node ${process.version}): ` +
        `${TENANTS} tenants, service at the defaults (TENANT_DATASOURCE_MAX=20, TENANT_POOL_MAX=5)\n`,
    );
    console.log(
      '| tenants reached | one tenant req/s | all in turn req/s | of one | p50 / p99 (ms) | PostgreSQL sessions opened /s | errors |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const { mode, one, many, sessions } of rows) {
      console.log(
        `| ${mode} | ${one.rps.toFixed(0)} | ${many.rps.toFixed(0)} | **${(many.rps / one.rps).toFixed(2)}** | ` +
          `${many.p50} / ${many.p99} | ${(sessions / 8).toFixed(0)} | ${one.errors + many.errors} |`,
      );
    }
    if (failed) {
      console.error('\nThe service answered errors.');
      process.exitCode = 1;
    }
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
    await embedded.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
