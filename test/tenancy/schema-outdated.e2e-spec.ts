import request from 'supertest';
import { freePort, MAIN_JS, RunningProcess, runNode, TENANT_CLI_JS } from '../support/processes';
import { NEWEST_TENANT_MIGRATION, TestDatabases } from '../support/test-databases';

/**
 * A tenant whose database is behind the code (the service updated, `npm run tenant -- migrate`
 * not run yet): 503 TENANT_SCHEMA_OUTDATED naming the command, one warning in the log, served
 * again once migrated; MIGRATE_TENANTS_AT_START migrates it at start, with several instances
 * starting at once. The service runs as a process, as deployed (dist/main.js, DATABASE_URL).
 */
describe('a tenant whose schema is behind the code', () => {
  let dbs: TestDatabases;

  interface Service {
    process: RunningProcess;
    base: string;
  }

  const start = async (port: number, env: Record<string, string> = {}): Promise<Service> => {
    const service = new RunningProcess(
      MAIN_JS,
      dbs.env({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }),
    );
    await service.waitForOutput('is listening on');
    return { process: service, base: `http://127.0.0.1:${port}` };
  };

  const stop = async ({ process }: Service) => {
    process.child.kill('SIGTERM');
    expect((await process.exited).code).toBe(0);
  };

  /** A tenant as it was before the code's newest migration was written. */
  const tenantBehind = async (slug: string) => {
    await dbs.createTenant(slug);
    await dbs.revertNewestMigration(slug);
  };

  const newestMigrationRows = async (slug: string) =>
    (
      await dbs.query<{ n: number }>(
        dbs.tenantUrl(slug),
        'SELECT count(*)::int AS n FROM schema_migrations WHERE name = $1',
        [NEWEST_TENANT_MIGRATION],
      )
    )[0].n;

  const comandas = (service: Service, slug: string) =>
    request(service.base).get('/api/v1/comandas').set('X-Tenant-ID', slug);

  beforeAll(async () => {
    dbs = await TestDatabases.create();
  });

  afterAll(async () => {
    await RunningProcess.stopAll();
    await dbs.drop();
  });

  it('answers 503 TENANT_SCHEMA_OUTDATED naming the command, logs it once, and serves it once migrated', async () => {
    await dbs.createTenant('al-dia');
    await tenantBehind('atrasado');
    const service = await start(await freePort());

    for (let i = 0; i < 3; i++) {
      const res = await comandas(service, 'atrasado');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.body).toEqual({
        error:
          'The database of tenant "atrasado" is behind this version of the service: run npm run tenant -- migrate atrasado',
        code: 'TENANT_SCHEMA_OUTDATED',
        detail: { command: 'npm run tenant -- migrate atrasado' },
        requestId: res.headers['x-request-id'],
      });
    }
    // the other tenants are served as usual
    await comandas(service, 'al-dia').expect(200);

    // one warning for the tenant, naming what it lacks and the command, not one per request
    // (the log is written in batches: the line of the last request comes after every warning)
    await service.process.waitForOutput('"tenant":"al-dia"');
    const warnings = service.process.stdout
      .split('\n')
      .filter((line) => line.includes('TENANT_SCHEMA_OUTDATED'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({
      level: 40,
      tenant: 'atrasado',
      missingMigrations: [NEWEST_TENANT_MIGRATION],
      msg: expect.stringContaining('run npm run tenant -- migrate atrasado'),
    });

    const migrate = await runNode(TENANT_CLI_JS, ['migrate', 'atrasado'], dbs.env());
    expect(migrate).toMatchObject({
      code: 0,
      stdout: `atrasado: applied ${NEWEST_TENANT_MIGRATION}\n`,
    });
    await comandas(service, 'atrasado').expect(200);
    await stop(service);
  });

  it('MIGRATE_TENANTS_AT_START=true migrates it before serving', async () => {
    await tenantBehind('uno');
    const service = await start(await freePort(), { MIGRATE_TENANTS_AT_START: 'true' });
    expect(service.process.stdout).toContain(`Tenant uno migrated: ${NEWEST_TENANT_MIGRATION}`);
    expect(await newestMigrationRows('uno')).toBe(1);
    await comandas(service, 'uno').expect(200);
    expect(service.process.stdout).not.toContain('TENANT_SCHEMA_OUTDATED');
    await stop(service);
  });

  it('two instances starting at once both start, and each tenant is migrated once', async () => {
    await tenantBehind('dos');
    await tenantBehind('tres');
    const ports = [await freePort(), await freePort()];
    const services = await Promise.all(
      ports.map((port) => start(port, { MIGRATE_TENANTS_AT_START: 'true' })),
    );
    for (const slug of ['dos', 'tres']) {
      expect(await newestMigrationRows(slug)).toBe(1);
      const migratedBy = services.filter(({ process }) =>
        process.stdout.includes(`Tenant ${slug} migrated: ${NEWEST_TENANT_MIGRATION}`),
      );
      expect(migratedBy).toHaveLength(1);
      for (const service of services) await comandas(service, slug).expect(200);
    }
    for (const service of services) {
      expect(service.process.stdout).not.toContain('could not be migrated');
      await stop(service);
    }
  });
});
