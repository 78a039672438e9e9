import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ensureDatabase, runMigrations } from '../../src/database/database-target';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import {
  controlMigrations,
  tenantMigrations,
} from '../../src/database/migrations/module-migrations';
import '../../src/modules';
import { withDatabase } from '../../src/database/pg-url';
import { freePort } from './processes';
import { ENV_RUN_ID, ENV_SERVER_URL, templateNames } from './test-server';

declare global {
  var __COMANDAS_TEST_PG__: EmbeddedPostgres | undefined;
  var __COMANDAS_TEST_PG_DIR__: string | undefined;
}

/**
 * Starts the PostgreSQL of the e2e suites: TEST_DATABASE_URL when set, otherwise a throwaway
 * embedded server. Builds two migrated template databases (control, tenant) that each test
 * file clones into databases of its own.
 */
export default async function globalSetup(): Promise<void> {
  const runId = randomBytes(3).toString('hex');
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dir = join(tmpdir(), `comandas-test-pg-${process.pid}-${runId}`);
    globalThis.__COMANDAS_TEST_PG_DIR__ = dir;
    const embedded = new EmbeddedPostgres({
      dataDir: join(dir, 'data'),
      port: await freePort(),
      settings: {
        fsync: 'off',
        synchronous_commit: 'off',
        full_page_writes: 'off',
        max_connections: '300',
      },
    });
    const connection = await embedded.start();
    globalThis.__COMANDAS_TEST_PG__ = embedded;
    serverUrl = connection.adminUrl;
  }
  serverUrl = withDatabase(serverUrl, 'postgres');
  const names = templateNames(runId);
  await ensureDatabase(serverUrl, names.control, 5_000);
  await runMigrations(withDatabase(serverUrl, names.control), controlMigrations(), 5_000);
  await ensureDatabase(serverUrl, names.tenant, 5_000);
  await runMigrations(withDatabase(serverUrl, names.tenant), tenantMigrations(), 5_000);
  // Templates must have no open connection when cloned: make sure the pool is gone.
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ANY($1) AND pid <> pg_backend_pid()',
    [[names.control, names.tenant]],
  );
  await client.end();
  process.env[ENV_SERVER_URL] = serverUrl;
  process.env[ENV_RUN_ID] = runId;
}
