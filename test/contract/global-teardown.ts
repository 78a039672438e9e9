import globalTeardown from '../support/global-teardown';
import { ENV_RUN_ID, ENV_SERVER_URL } from '../support/test-server';

/**
 * Stops the PostgreSQL the contract global setup started, if it started one (nothing against a
 * running instance, nothing when it used the e2e project's), and drops its databases.
 */
export default async function contractGlobalTeardown(): Promise<void> {
  const mine = globalThis.__COMANDAS_CONTRACT_PG__;
  if (!mine) return;
  const saved = {
    serverUrl: process.env[ENV_SERVER_URL],
    runId: process.env[ENV_RUN_ID],
    embedded: globalThis.__COMANDAS_TEST_PG__,
    dir: globalThis.__COMANDAS_TEST_PG_DIR__,
  };
  // the support teardown works on these: point them at what this setup started
  process.env[ENV_SERVER_URL] = mine.serverUrl;
  process.env[ENV_RUN_ID] = mine.runId;
  globalThis.__COMANDAS_TEST_PG__ = mine.embedded;
  globalThis.__COMANDAS_TEST_PG_DIR__ = mine.dir;
  try {
    await globalTeardown();
  } finally {
    globalThis.__COMANDAS_CONTRACT_PG__ = undefined;
    const restore = (name: string, value: string | undefined) => {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    };
    restore(ENV_SERVER_URL, saved.serverUrl);
    restore(ENV_RUN_ID, saved.runId);
    const others = saved.embedded !== mine.embedded;
    globalThis.__COMANDAS_TEST_PG__ = others ? saved.embedded : undefined;
    globalThis.__COMANDAS_TEST_PG_DIR__ = saved.dir !== mine.dir ? saved.dir : undefined;
  }
}
