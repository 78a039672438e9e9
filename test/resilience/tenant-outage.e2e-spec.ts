import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { withDatabase } from '../../src/database/pg-url';
import { freePort, runNode, TENANT_CLI_JS } from '../support/processes';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A tenant whose database lives on a second PostgreSQL server, stopped and started again while
 * the service runs: its requests get 503 with Retry-After (never a hang, never a 500), the
 * other tenants are served meanwhile, health reports it, and it recovers by itself.
 */
describe('a tenant database outage', () => {
  let t: TestApp;
  let dir: string;
  let remote: EmbeddedPostgres;

  const comandas = (tenant: string) =>
    request(t.http).get('/api/v1/comandas').set('X-Tenant-ID', tenant);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'comandas-outage-'));
    await chmod(dir, 0o755);
    remote = new EmbeddedPostgres({
      dataDir: join(dir, 'data'),
      port: await freePort(),
      settings: { fsync: 'off' },
    });
    const server = await remote.start();
    t = await startTestApp({ DB_CONNECT_TIMEOUT_MS: '2000' });
    await t.dbs.createTenant('local');
    const created = await runNode(
      TENANT_CLI_JS,
      ['create', 'remoto', '--database-url', withDatabase(server.adminUrl, 'comandas_remoto')],
      t.dbs.env(),
    );
    expect(created.stderr).not.toContain('Failed');
    expect(created.code).toBe(0);
  });

  afterAll(async () => {
    await t?.close();
    await remote?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down, serves the other tenants, and recovers', async () => {
    await comandas('remoto').expect(200);
    await comandas('local').expect(200);
    expect((await request(t.http).get('/api/health').expect(200)).body).toMatchObject({
      status: 'ok',
      tenantsDown: [],
    });

    await remote.stop();
    const started = Date.now();
    const down = await comandas('remoto');
    const answeredInMs = Date.now() - started;
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      code: 'DATABASE_UNAVAILABLE',
      requestId: expect.any(String),
    });
    expect(down.body.error).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|password/);
    expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
    expect(answeredInMs).toBeLessThan(5_000);
    // the next ones too, and the other tenant is not affected
    await comandas('remoto').expect(503);
    await comandas('local').expect(200);
    const degraded = await request(t.http).get('/api/health').expect(200);
    expect(degraded.body).toMatchObject({ status: 'degraded', tenantsDown: ['remoto'] });

    await remote.start();
    let recovered = 0;
    for (let attempt = 0; attempt < 20 && recovered !== 200; attempt += 1) {
      recovered = (await comandas('remoto')).status;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(recovered).toBe(200);
    expect((await request(t.http).get('/api/health').expect(200)).body).toMatchObject({
      status: 'ok',
      tenantsDown: [],
    });
  });

  it('answers 503, not 500, while the control database refuses new connections', async () => {
    const control = t.dbs.controlDatabase;
    await t.dbs.query(t.dbs.serverUrl, `ALTER DATABASE "${control}" ALLOW_CONNECTIONS false`);
    try {
      // the pool's connections go too: the next catalog read needs a new one
      await t.dbs.query(
        t.dbs.serverUrl,
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
        [control],
      );
      const res = await comandas('local');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await t.dbs.query(t.dbs.serverUrl, `ALTER DATABASE "${control}" ALLOW_CONNECTIONS true`);
    }
    let recovered = 0;
    for (let attempt = 0; attempt < 20 && recovered !== 200; attempt += 1) {
      recovered = (await comandas('local')).status;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(recovered).toBe(200);
  });
});
