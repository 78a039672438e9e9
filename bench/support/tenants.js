// The small tenants of the benchmarks: t0001 made by `npm run tenant -- create --demo
// --demo-scale 0.01` (the demo restaurant with one ticket a day: about 365 comandas), the
// others cloned from it, and autocannon requests spread over them in turn.
const { join } = require('node:path');
const { run, withClient } = require('./processes');

const DIST = join(__dirname, '..', '..', 'dist');
const { withDatabase } = require(join(DIST, 'database', 'pg-url'));

/** Slug of the n-th small tenant: t0001, t0002 ... */
const smallTenant = (n) => `t${String(n).padStart(4, '0')}`;

/**
 * Creates t0001 with the tenant CLI, clones t0002..t<count> from it (four sessions at a time:
 * the copies wait on the disk more than on the CPU), opens one session on each (as a tenant in
 * service has had: the first session of a new database builds its catalog cache file, which
 * would otherwise be measured as the service's cost) and adds them to the catalog.
 */
async function smallTenants({ serverUrl, cliEnv, prefix, count, timeZone }) {
  const first = smallTenant(1);
  const tenantCli = join(DIST, 'cli', 'tenant.cli.js');
  await run(
    tenantCli,
    ['create', first, '--demo', '--demo-scale', '0.01', '--time-zone', timeZone],
    cliEnv,
  );
  // four workers over t0002..t<count>, each with its own admin session
  const fourWorkers = async (work) => {
    let next = 2;
    const worker = (admin) => async () => {
      for (let i = next++; i <= count; i = next++) await work(admin, i);
    };
    await Promise.all([1, 2, 3, 4].map(() => withClient(serverUrl, (admin) => worker(admin)())));
  };
  await fourWorkers((admin, i) =>
    admin.query(`CREATE DATABASE "${prefix}${smallTenant(i)}" TEMPLATE "${prefix}${first}"`),
  );
  await fourWorkers((_admin, i) =>
    withClient(withDatabase(serverUrl, `${prefix}${smallTenant(i)}`), (c) =>
      c.query('SELECT count(*) FROM comandas'),
    ),
  );
  await withClient(cliEnv.DATABASE_URL, (control) =>
    control.query(
      `INSERT INTO tenants (slug, name, database_name, status, time_zone, features, migrated_at)
       SELECT s, 'Bench ' || s, $1 || s, status, time_zone, features, migrated_at
         FROM tenants, generate_series(2, $2) n, LATERAL (SELECT 't' || lpad(n::text, 4, '0') AS s) x
        WHERE slug = $3`,
      [prefix, count, first],
    ),
  );
}

const random = (n) => 1 + Math.floor(Math.random() * n);

/** autocannon requests: the detail of one of 300 comandas, tenants t0001..tN in turn. */
function roundRobin(tenants) {
  let next = 0;
  return {
    requests: [
      {
        setupRequest: (req) => {
          next = (next % tenants) + 1;
          return {
            ...req,
            path: `/api/v1/comandas/${random(300)}`,
            headers: { ...req.headers, 'x-tenant-id': smallTenant(next) },
          };
        },
      },
    ],
  };
}

/** Sessions PostgreSQL has opened so far on the databases named `prefix`... (pg_stat_database). */
function sessionsOpened(serverUrl, prefix) {
  return withClient(serverUrl, async (c) => {
    const { rows } = await c.query(
      'SELECT coalesce(sum(sessions), 0)::int AS n FROM pg_stat_database WHERE datname LIKE $1',
      [`${prefix}%`],
    );
    return rows[0].n;
  });
}

module.exports = { smallTenant, smallTenants, roundRobin, sessionsOpened };
