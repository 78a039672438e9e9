import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { TenantDataSourceManager } from '../../src/tenancy/tenant-datasource.manager';
import { TestDatabases } from '../support/test-databases';

/** Retries `check` until it passes or 5 s have gone by (closing a pool is asynchronous). */
async function eventually(check: () => unknown): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

describe('tenant DataSource cache', () => {
  let dbs: TestDatabases;
  const managers: TenantDataSourceManager[] = [];

  const manager = (
    options: Partial<ConstructorParameters<typeof TenantDataSourceManager>[0]> = {},
  ) => {
    const m = new TenantDataSourceManager({
      poolMax: 2,
      maxDataSources: 10,
      idleTimeoutMs: 0,
      connectTimeoutMs: 3_000,
      statementTimeoutMs: 0,
      ...options,
    });
    managers.push(m);
    return m;
  };
  const target = (slug: string) => ({ slug, url: dbs.tenantUrl(slug) });
  const connectionsOf = async (slug: string) => {
    const rows = await dbs.query<{ n: number }>(
      dbs.serverUrl,
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [`${dbs.prefix}${slug}`],
    );
    return rows[0].n;
  };

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    for (const slug of ['c1', 'c2', 'c3']) await dbs.createTenant(slug);
  });

  afterAll(async () => {
    for (const m of managers) await m.closeAll();
    await dbs.drop();
  });

  afterEach(() => jest.restoreAllMocks());

  it('creates nothing until a tenant is first used', async () => {
    const m = manager();
    expect(m.size).toBe(0);
    expect(await connectionsOf('c1')).toBe(0);
    const lease = await m.acquire(target('c1'));
    expect(m.size).toBe(1);
    expect(lease.dataSource.isInitialized).toBe(true);
    lease.release();
    await m.closeAll();
  });

  it('shares one initialisation among concurrent first requests', async () => {
    const initialize = jest.spyOn(DataSource.prototype, 'initialize');
    const m = manager();
    const leases = await Promise.all(
      Array.from({ length: 20 }, async () => m.acquire(target('c1'))),
    );
    expect(initialize).toHaveBeenCalledTimes(1);
    expect(new Set(leases.map((l) => l.dataSource)).size).toBe(1);
    leases.forEach((l) => l.release());
    await m.closeAll();
  });

  it("keeps each tenant's connections within its pool size", async () => {
    const m = manager({ poolMax: 2 });
    const lease = await m.acquire(target('c2'));
    await Promise.all(
      Array.from({ length: 6 }, () => lease.dataSource.query('SELECT pg_sleep(0.1)')),
    );
    expect(await connectionsOf('c2')).toBeLessThanOrEqual(2);
    lease.release();
    await m.closeAll();
    expect(await connectionsOf('c2')).toBe(0);
  });

  it('opens a tenant seen once with one connection, and grows to its pool size once it is used again', async () => {
    const m = manager({ poolMax: 3 });
    const busy = (lease: { dataSource: DataSource }, n: number, seconds: number) =>
      Promise.all(
        Array.from({ length: n }, () => lease.dataSource.query(`SELECT pg_sleep(${seconds})`)),
      );
    const first = await m.acquire(target('c3'));
    let running = busy(first, 3, 0.4);
    await sleep(200);
    // the queries wait for the one connection: one PostgreSQL session for a tenant seen once
    expect(await connectionsOf('c3')).toBe(1);
    await running;
    first.release();

    const again = m.acquire(target('c3'));
    // open: leased at once, no promise to wait for
    expect(again).not.toBeInstanceOf(Promise);
    const lease = await again;
    running = busy(lease, 6, 1);
    await eventually(async () => expect(await connectionsOf('c3')).toBe(3));
    await running;
    lease.release();
    await m.closeAll();
  });

  it('grows the pool of a DataSource asked for again while it opens', async () => {
    const m = manager({ poolMax: 3 });
    const [a, b] = await Promise.all([
      Promise.resolve(m.acquire(target('c2'))),
      Promise.resolve(m.acquire(target('c2'))),
    ]);
    const running = Promise.all(
      Array.from({ length: 6 }, () => a.dataSource.query('SELECT pg_sleep(1)')),
    );
    await eventually(async () => expect(await connectionsOf('c2')).toBe(3));
    await running;
    a.release();
    b.release();
    await m.closeAll();
  });

  it('cancels a statement that runs past the statement timeout, and only that one', async () => {
    const m = manager({ statementTimeoutMs: 300 });
    const lease = await m.acquire(target('c1'));
    try {
      const slow = await lease.dataSource.query('SELECT pg_sleep(2)').catch((e: unknown) => e);
      expect(slow).toMatchObject({ driverError: { code: '57014' } });
      const [setting] =
        await lease.dataSource.query<{ statement_timeout: string }[]>('SHOW statement_timeout');
      expect(setting.statement_timeout).toBe('300ms');
      expect(await lease.dataSource.query('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    } finally {
      lease.release();
    }
  });

  it('evicts the least recently used DataSource past the cap', async () => {
    const m = manager({ maxDataSources: 2 });
    const use = async (slug: string) => (await m.acquire(target(slug))).release();
    await use('c1');
    await use('c2');
    await use('c1'); // c1 is now the most recent
    const c2Lease = await m.acquire(target('c2'));
    const c2 = c2Lease.dataSource;
    c2Lease.release();
    await use('c1');
    await use('c3'); // evicts c2, the least recently used
    expect(m.cachedTenants()).toEqual(['c1', 'c3']);
    await eventually(() => expect(c2.isInitialized).toBe(false));
    await m.closeAll();
  });

  it('never closes a DataSource under a request that holds it', async () => {
    const m = manager({ maxDataSources: 1 });
    const held = await m.acquire(target('c1'));
    (await m.acquire(target('c2'))).release(); // evicts c1 while it is held
    expect(m.cachedTenants()).toEqual(['c2']);
    await expect(held.dataSource.query('SELECT 1 AS ok')).resolves.toEqual([{ ok: 1 }]);
    held.release();
    await eventually(() => expect(held.dataSource.isInitialized).toBe(false));
    await m.closeAll();
  });

  it('closes DataSources left idle', async () => {
    const m = manager({ idleTimeoutMs: 500 });
    (await m.acquire(target('c3'))).release();
    expect(m.size).toBe(1);
    await sleep(1_000);
    await eventually(async () => {
      expect(m.size).toBe(0);
      expect(await connectionsOf('c3')).toBe(0);
    });
  });

  it('closes a DataSource its schema check refuses, and checks a stamp that passed only once', async () => {
    const refusal = new Error('behind the code');
    let refuse = true;
    const checked: string[] = [];
    const m = manager({
      checkSchema: async (target) => {
        checked.push(`${target.slug}@${target.schemaStamp}`);
        if (refuse) throw refusal;
      },
    });
    await dbs.createTenant('checked');
    const stamped = (stamp: string) => ({ ...target('checked'), schemaStamp: stamp });
    await expect(m.acquire(stamped('a'))).rejects.toBe(refusal);
    expect(m.size).toBe(0);
    await eventually(async () => expect(await connectionsOf('checked')).toBe(0));
    // refused is not down: health does not list it
    expect(await m.unreachable(1_000)).toEqual([]);

    refuse = false;
    (await m.acquire(stamped('b'))).release();
    await m.forget('checked');
    // opened again with the stamp that passed: not checked again; a new stamp is
    (await m.acquire(stamped('b'))).release();
    await m.forget('checked');
    (await m.acquire(stamped('c'))).release();
    expect(checked).toEqual(['checked@a', 'checked@b', 'checked@c']);
    await m.closeAll();
  });

  it('does not cache a failed initialisation', async () => {
    const m = manager();
    await expect(m.acquire(target('late'))).rejects.toMatchObject({ code: '3D000' });
    expect(m.size).toBe(0);
    await dbs.createTenant('late');
    const lease = await m.acquire(target('late'));
    expect(await lease.dataSource.query('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    lease.release();
    await m.closeAll();
  });
});
