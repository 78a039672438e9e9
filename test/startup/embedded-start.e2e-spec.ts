import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { isAlive } from '../../src/database/embedded-postgres';
import {
  freePort,
  MAIN_JS,
  ORMCONFIG_JS,
  RunningProcess,
  runNode,
  TENANT_CLI_JS,
  TYPEORM_CLI_JS,
} from '../support/processes';
import { revertNewestTenantMigration } from '../support/test-databases';

/**
 * `npm start` without DATABASE_URL: the embedded PostgreSQL, the demo tenant, a clean stop,
 * a restart on the same data, recovery after a kill, and clear errors on a port clash.
 */
describe('start with the embedded PostgreSQL', () => {
  let workDir: string;
  let env: Record<string, string>;
  let base: string;

  const pidOfPostgres = async () => {
    const file = join(workDir, 'pg', 'postmaster.pid');
    return existsSync(file) ? Number((await readFile(file, 'utf8')).split('\n')[0]) : undefined;
  };
  /** Whether the process still runs a little after a stop returned (exit is asynchronous). */
  const stillAliveAfterStop = async (pid: number) => {
    for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
    return isAlive(pid);
  };

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'comandas-start-'));
    const port = await freePort();
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(await freePort()),
      EMBEDDED_PG_DATA_DIR: join(workDir, 'pg'),
      LOG_LEVEL: 'info',
      DEFAULT_TIME_ZONE: 'America/Lima',
    };
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await RunningProcess.stopAll();
    await rm(workDir, { recursive: true, force: true });
  });

  it('initialises, provisions the demo tenant, serves it and stops cleanly on SIGTERM', async () => {
    const service = new RunningProcess(MAIN_JS, env);
    await service.waitForOutput('is listening on', 90_000);
    expect(service.stdout).toContain(`/api/docs`);
    expect(service.stdout).toContain(`curl -H 'X-Tenant-ID: demo'`);

    await request(base).get('/api/health').expect(200);
    const tenant = await request(base).get('/api/v1/tenant').set('X-Tenant-ID', 'demo').expect(200);
    expect(tenant.body).toMatchObject({ slug: 'demo', status: 'active', timeZone: 'America/Lima' });

    // the CLI shares the running embedded server
    const list = await runNode(TENANT_CLI_JS, ['list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^demo\s+Cevichería Demo\s+active/m);
    // so does the TypeORM CLI (npm run typeorm), for the control database and a tenant's
    const show = (extra: Record<string, string> = {}) =>
      runNode(TYPEORM_CLI_JS, ['-d', ORMCONFIG_JS, 'migration:show'], { ...env, ...extra });
    const control = await show();
    expect(control.code).toBe(0);
    expect(control.stdout).toMatch(/^\[X\] 1 TenantCatalog1764000000000$/m);
    const demo = await show({ ORM_TARGET: 'tenant', ORM_TENANT: 'demo' });
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/^\[X\] 1 DomainSchema1764000000000$/m);
    expect(demo.stdout).not.toContain('[ ]');

    const postgres = await pidOfPostgres();
    expect(postgres && isAlive(postgres)).toBe(true);
    service.child.kill('SIGTERM');
    const result = await service.exited;
    expect(result.code).toBe(0);
    expect(await stillAliveAfterStop(postgres!)).toBe(false);
    expect(await pidOfPostgres()).toBeUndefined();
  });

  it('restarts on the same data without provisioning again', async () => {
    const service = new RunningProcess(MAIN_JS, env);
    await service.waitForOutput('is listening on', 60_000);
    expect(service.stdout).not.toContain('Provisioning the demo tenant');
    expect(service.stdout).not.toContain('Initialising the embedded PostgreSQL');
    await request(base).get('/api/v1/tenant').set('X-Tenant-ID', 'demo').expect(200);
    service.child.kill('SIGINT');
    expect((await service.exited).code).toBe(0);
  });

  it('migrates its tenants at start, as a developer expects after updating the code', async () => {
    const before = new RunningProcess(MAIN_JS, env);
    await before.waitForOutput('is listening on', 60_000);
    // the demo's database as it was before the code's newest migration was written
    const { user, password } = JSON.parse(
      await readFile(join(workDir, 'pg.credentials.json'), 'utf8'),
    ) as { user: string; password: string };
    const demoUrl = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${env.EMBEDDED_PG_PORT}/comandas_demo`;
    const newest = await revertNewestTenantMigration(demoUrl);
    before.child.kill('SIGTERM');
    expect((await before.exited).code).toBe(0);

    const service = new RunningProcess(MAIN_JS, env);
    await service.waitForOutput('is listening on', 60_000);
    expect(service.stdout).toContain(`Tenant demo migrated: ${newest}`);
    await request(base).get('/api/v1/comandas').set('X-Tenant-ID', 'demo').expect(200);
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
  });

  it('recovers after the service was killed and left PostgreSQL running', async () => {
    const killed = new RunningProcess(MAIN_JS, env);
    await killed.waitForOutput('is listening on', 60_000);
    const orphan = await pidOfPostgres();
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(isAlive(orphan!)).toBe(true);

    const service = new RunningProcess(MAIN_JS, env);
    await service.waitForOutput('is listening on', 60_000);
    expect(service.stdout).toContain('no longer running');
    await request(base).get('/api/health').expect(200);
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
    expect(await stillAliveAfterStop(orphan!)).toBe(false);
  });

  it('refuses a second instance on the same data directory', async () => {
    const first = new RunningProcess(MAIN_JS, env);
    await first.waitForOutput('is listening on', 60_000);
    const second = await runNode(MAIN_JS, [], { ...env, PORT: String(await freePort()) }, 30_000);
    expect(second.code).toBe(1);
    expect(second.stdout + second.stderr).toContain('is in use by another process');
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
  });

  it('explains a clash on the embedded PostgreSQL port', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const result = await runNode(MAIN_JS, [], { ...env, EMBEDDED_PG_PORT: String(port) }, 30_000);
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain(
        `Port ${port} (EMBEDDED_PG_PORT) is already in use`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
