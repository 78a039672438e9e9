/** Environment the global setup hands to every test file (jest workers inherit it). */
export const ENV_SERVER_URL = 'COMANDAS_TEST_SERVER_URL';
export const ENV_RUN_ID = 'COMANDAS_TEST_RUN_ID';

export function templateNames(runId: string) {
  return { control: `t${runId}_tpl_control`, tenant: `t${runId}_tpl_tenant` };
}

export function testServer(): { serverUrl: string; runId: string } {
  const serverUrl = process.env[ENV_SERVER_URL];
  const runId = process.env[ENV_RUN_ID];
  if (!serverUrl || !runId)
    throw new Error('The e2e global setup did not run (see jest.config.js)');
  return { serverUrl, runId };
}
