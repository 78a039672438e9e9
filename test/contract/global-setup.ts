import type { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import globalSetup from '../support/global-setup';
import { ENV_RUN_ID, ENV_SERVER_URL } from '../support/test-server';
import { runsRemote } from './env';

/** What this setup started, for its teardown (another project's setup may replace the globals). */
export interface ContractTestServer {
  serverUrl: string;
  runId: string;
  embedded?: EmbeddedPostgres;
  dir?: string;
}

declare global {
  var __COMANDAS_CONTRACT_PG__: ContractTestServer | undefined;
}

/**
 * In process, the contract suite needs the test PostgreSQL of the e2e suites (its databases are
 * made like theirs); against a running instance (E2E_BASE_URL) it needs no database at all.
 * When another project of the same jest run (e2e) has already started that PostgreSQL, the suite
 * uses it; otherwise it starts its own and remembers it for its teardown.
 */
export default async function contractGlobalSetup(): Promise<void> {
  if (runsRemote()) return;
  if (process.env[ENV_SERVER_URL] && process.env[ENV_RUN_ID]) return;
  await globalSetup();
  globalThis.__COMANDAS_CONTRACT_PG__ = {
    serverUrl: process.env[ENV_SERVER_URL]!,
    runId: process.env[ENV_RUN_ID]!,
    embedded: globalThis.__COMANDAS_TEST_PG__,
    dir: globalThis.__COMANDAS_TEST_PG_DIR__,
  };
}
