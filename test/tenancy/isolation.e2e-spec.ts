import { TenantContext } from '../../src/tenancy/tenant-context';
import { TenantContextMissingError } from '../../src/tenancy/tenancy.errors';
import { startTestApp, type TestApp } from '../support/test-app';

describe('tenant isolation', () => {
  let t: TestApp;
  let context: TenantContext;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant('tenant-a');
    await t.dbs.createTenant('tenant-b');
    context = t.app.get(TenantContext);
  });

  afterAll(() => t.close());

  it('a row written in tenant A is invisible through tenant B', async () => {
    await context.run('tenant-a', () =>
      context.dataSource.query("INSERT INTO categorias (nombre) VALUES ('Solo de A')"),
    );
    const inA = await context.run('tenant-a', () =>
      context.dataSource.query<{ nombre: string }[]>(
        "SELECT nombre FROM categorias WHERE nombre = 'Solo de A'",
      ),
    );
    const inB = await context.run('tenant-b', () =>
      context.dataSource.query<{ nombre: string }[]>(
        "SELECT nombre FROM categorias WHERE nombre = 'Solo de A'",
      ),
    );
    expect(inA).toEqual([{ nombre: 'Solo de A' }]);
    expect(inB).toEqual([]);
    // and the row really lives in A's database only
    const direct = await t.dbs.query(
      t.dbs.tenantUrl('tenant-b'),
      "SELECT 1 FROM categorias WHERE nombre = 'Solo de A'",
    );
    expect(direct).toHaveLength(0);
  });

  it('each tenant context reaches its own database', async () => {
    const [a, b] = await Promise.all([
      context.run('tenant-a', () =>
        context.dataSource.query<{ db: string }[]>('SELECT current_database() AS db'),
      ),
      context.run('tenant-b', () =>
        context.dataSource.query<{ db: string }[]>('SELECT current_database() AS db'),
      ),
    ]);
    expect(a[0].db).toBe(`${t.dbs.prefix}tenant-a`);
    expect(b[0].db).toBe(`${t.dbs.prefix}tenant-b`);
  });

  it('throws loudly when tenant data is read outside a tenant context', () => {
    expect(() => context.dataSource).toThrow(TenantContextMissingError);
    expect(() => context.tenant).toThrow(TenantContextMissingError);
  });

  it('refuses to enter the context of a suspended or unknown tenant', async () => {
    await t.dbs.createTenant('tenant-s', { status: 'suspended' });
    await expect(context.run('tenant-s', async () => 1)).rejects.toMatchObject({
      code: 'TENANT_SUSPENDED',
    });
    await expect(context.run('ghost', async () => 1)).rejects.toMatchObject({
      code: 'TENANT_NOT_FOUND',
    });
  });
});
