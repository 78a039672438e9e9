import { createServer, type Server } from 'node:net';
import { TestDatabases } from '../support/test-databases';
import { freePort, MAIN_JS, runNode } from '../support/processes';

describe('start-up refuses bad configuration', () => {
  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535 (got "eighty")'],
    [{ FEATURE_RPC: 'maybe' }, 'FEATURE_RPC must be true or false'],
    [{ FEATURE_GENERIC_TABLES: 'on' }, 'FEATURE_GENERIC_TABLES must be true or false'],
    [{ TENANT_POOL_MAX: '0' }, 'TENANT_POOL_MAX must be an integer from 1 to 100'],
    [
      { DATABASE_URL: 'mysql://root@localhost/x' },
      'DATABASE_URL must be a postgres:// or postgresql:// URL',
    ],
    [{ DEFAULT_TIME_ZONE: 'Lima' }, 'DEFAULT_TIME_ZONE must be an IANA time zone'],
    [{ NODE_ENV: 'production' }, 'AUTH_MODE=off with NODE_ENV=production would answer anyone'],
    [
      { AUTH_MODE: 'jwt' },
      'AUTH_MODE=jwt needs AUTH_JWT_SECRET (HS256) or AUTH_JWT_PUBLIC_KEY_FILE',
    ],
    [
      { AUTH_MODE: 'jwt', AUTH_JWT_PUBLIC_KEY_FILE: '/nonexistent/public.pem' },
      'AUTH_JWT_PUBLIC_KEY_FILE must be a PEM public key or certificate, or a JWKS file of RSA keys (got "/nonexistent/public.pem"): cannot be read (ENOENT)',
    ],
  ])('%j stops the process with exit code 1 and names the variable', async (env, message) => {
    const result = await runNode(MAIN_JS, [], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain(message);
  });

  describe('with a database', () => {
    let dbs: TestDatabases;
    let blocker: Server;
    let port: number;

    beforeAll(async () => {
      dbs = await TestDatabases.create();
      port = await freePort();
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      await new Promise((resolve) => blocker.close(resolve));
      await dbs.drop();
    });

    it('exits with 1 and a clear message when PORT is taken', async () => {
      const result = await runNode(
        MAIN_JS,
        [],
        dbs.env({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
      );
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain(`PORT ${port} is already in use`);
    });

    it('exits with 1 when the database cannot be reached, without hanging', async () => {
      const unreachable = `postgres://nobody@127.0.0.1:${await freePort()}/comandas_control`;
      // runNode rejects if the process is still running after 20 s (a hang)
      const result = await runNode(
        MAIN_JS,
        [],
        { DATABASE_URL: unreachable, LOG_LEVEL: 'info', DB_CONNECT_TIMEOUT_MS: '1000' },
        20_000,
      );
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain('ECONNREFUSED');
    });
  });
});
