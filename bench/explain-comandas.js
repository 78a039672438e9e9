// EXPLAIN ANALYZE of the comandas queries on a tenant with 100,000 comandas.
// Usage: npm run bench:explain   (BENCH_DATABASE_URL=postgres://... to use an existing server)
// It runs the SQL of src/comandas/comandas.repository.ts itself: the repository is given a
// connection that prefixes every statement with EXPLAIN.
require('reflect-metadata');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { EmbeddedPostgres } = require('../dist/database/embedded-postgres');
const { ensureDatabase, dropDatabase, runMigrations } = require('../dist/database/database-target');
require('../dist/modules'); // the modules' migrations join the history
const { tenantMigrations } = require('../dist/database/migrations/module-migrations');
const { withDatabase } = require('../dist/database/pg-url');
const { ComandasRepository } = require('../dist/comandas/comandas.repository');
const { seedComandaVolume } = require('./support/comandas-volume');

const COMANDAS = Number(process.env.BENCH_COMANDAS ?? 100_000);
const DB = 'comandas_bench_explain';

async function main() {
  let serverUrl = process.env.BENCH_DATABASE_URL;
  let embedded;
  let dir;
  if (!serverUrl) {
    dir = mkdtempSync(join(tmpdir(), 'comandas-explain-'));
    require('node:fs').chmodSync(dir, 0o755);
    embedded = new EmbeddedPostgres({
      dataDir: join(dir, 'pg'),
      port: 54399,
      settings: { fsync: 'off' },
    });
    serverUrl = (await embedded.start()).adminUrl;
  }
  try {
    await dropDatabase(serverUrl, DB, 5000);
    await ensureDatabase(serverUrl, DB, 5000);
    const url = withDatabase(serverUrl, DB);
    await runMigrations(url, tenantMigrations(), 5000);
    const client = new Client({ connectionString: url });
    await client.connect();
    const started = Date.now();
    const counts = await seedComandaVolume(client, COMANDAS);
    console.log(
      `# ${counts.comandas} comandas, ${counts.lineas} lines, generated in ${Date.now() - started} ms\n`,
    );

    const plans = [];
    const explaining = {
      query: async (sql, params) => {
        const res = await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
        plans.push(res.rows.map((r) => r['QUERY PLAN']).join('\n'));
        return [{ total: 0 }];
      },
    };
    const repository = new ComandasRepository({
      get dataSource() {
        return explaining;
      },
    });
    const base = { eliminada: false, timeZone: 'America/Lima' };
    const month = new Date(Date.now() - 30 * 86400e3).toISOString().slice(0, 10);
    const scenarios = [
      ['GET /comandas?limit=50', { ...base }],
      ['GET /comandas?estado=abierta', { ...base, estado: 'abierta' }],
      ['GET /comandas?id_mesa=3', { ...base, id_mesa: 3 }],
      ['GET /comandas?id_usuario=4', { ...base, id_usuario: 4 }],
      [`GET /comandas?desde=${month}`, { ...base, desde: month }],
      ['GET /comandas?eliminada=true', { ...base, eliminada: true }],
    ];
    for (const [name, filter] of scenarios) {
      plans.length = 0;
      await repository.list(filter, 50, 0);
      console.log(`## ${name}\n### page\n${plans[0]}\n### X-Total-Count\n${plans[1]}\n`);
    }
    plans.length = 0;
    await repository.find(50_000, explaining);
    await repository.lines(50_000, explaining);
    console.log(`## GET /comandas/50000\n### comanda\n${plans[0]}\n### lines\n${plans[1]}\n`);
    await client.end();
    await dropDatabase(serverUrl, DB, 5000);
  } finally {
    await embedded?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
