import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import { quoteIdent } from '../../src/database/sql';
import { ENV_RUN_ID, ENV_SERVER_URL } from './test-server';

/** Drops every database of this run (on a shared TEST_DATABASE_URL) and stops the embedded server. */
export default async function globalTeardown(): Promise<void> {
  const serverUrl = process.env[ENV_SERVER_URL];
  const runId = process.env[ENV_RUN_ID];
  if (serverUrl && runId && process.env.TEST_DATABASE_URL) {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`t${runId}\\_%`],
    );
    for (const { datname } of rows)
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
    await client.end();
  }
  await globalThis.__COMANDAS_TEST_PG__?.stop();
  if (globalThis.__COMANDAS_TEST_PG_DIR__) {
    await rm(globalThis.__COMANDAS_TEST_PG_DIR__, { recursive: true, force: true });
  }
}
