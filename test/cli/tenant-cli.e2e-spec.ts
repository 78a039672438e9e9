import { TestDatabases } from '../support/test-databases';
import { runNode, TENANT_CLI_JS } from '../support/processes';

describe('tenant CLI (npm run tenant)', () => {
  let dbs: TestDatabases;
  const cli = (...args: string[]) => runNode(TENANT_CLI_JS, args, dbs.env());

  beforeAll(async () => {
    dbs = await TestDatabases.create();
  });

  afterAll(() => dbs.drop());

  it('creates a tenant with its migrated database, idempotently', async () => {
    const first = await cli('create', 'la-mar', '--name', 'La Mar', '--time-zone', 'America/Lima');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Created tenant la-mar');
    expect(first.stdout).toContain('Migrations applied: DomainSchema');
    expect(await dbs.existingDatabases()).toContain(`${dbs.prefix}la-mar`);
    const tables = await dbs.query<{ n: number }>(
      dbs.tenantUrl('la-mar'),
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'comandas'",
    );
    expect(tables[0].n).toBe(1);

    const again = await cli('create', 'la-mar', '--name', 'La Mar');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Already existed: tenant la-mar');
    expect(again.stdout).not.toContain('Migrations applied');
    const rows = await dbs.query(
      dbs.controlUrl,
      "SELECT slug, name, status, time_zone FROM tenants WHERE slug = 'la-mar'",
    );
    expect(rows).toEqual([
      { slug: 'la-mar', name: 'La Mar', status: 'active', time_zone: 'America/Lima' },
    ]);
  });

  it('lists the tenants', async () => {
    const result = await cli('list');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^SLUG\s+NAME\s+STATUS/m);
    expect(result.stdout).toMatch(/^la-mar\s+La Mar\s+active\s+America\/Lima/m);
    const json = await cli('list', '--json');
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ slug: 'la-mar', status: 'active' }),
    ]);
  });

  it('migrates one tenant or all of them', async () => {
    await cli('create', 'pardos');
    const one = await cli('migrate', 'pardos');
    expect(one).toMatchObject({ code: 0, stdout: 'pardos: up to date\n' });
    // empty the database by hand (schema and migration history): migrate must rebuild it
    await dbs.query(dbs.tenantUrl('pardos'), 'DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    const all = await cli('migrate', '--all');
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('la-mar: up to date');
    expect(all.stdout).toMatch(/pardos: applied DomainSchema/);
  });

  it('suspends and resumes a tenant', async () => {
    expect((await cli('suspend', 'pardos')).stdout).toBe('Tenant pardos is suspended\n');
    expect(
      (await dbs.query(dbs.controlUrl, "SELECT status FROM tenants WHERE slug = 'pardos'"))[0],
    ).toEqual({ status: 'suspended' });
    expect((await cli('resume', 'pardos')).stdout).toBe('Tenant pardos is active\n');
  });

  it('sets and clears a per-tenant feature override', async () => {
    expect((await cli('feature', 'pardos', 'rpc', 'on')).code).toBe(0);
    expect(
      (await dbs.query(dbs.controlUrl, "SELECT features FROM tenants WHERE slug = 'pardos'"))[0],
    ).toEqual({ features: { rpc: true } });
    await cli('feature', 'pardos', 'rpc', 'default');
    expect(
      (await dbs.query(dbs.controlUrl, "SELECT features FROM tenants WHERE slug = 'pardos'"))[0],
    ).toEqual({ features: {} });
    const bad = await cli('feature', 'pardos', 'teleport', 'on');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown feature "teleport"');
  });

  it('refuses to drop without --yes, then drops the database and the catalog row', async () => {
    const refused = await cli('drop', 'pardos');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('confirm with --yes');
    expect(await dbs.existingDatabases()).toContain(`${dbs.prefix}pardos`);

    const dropped = await cli('drop', 'pardos', '--yes');
    expect(dropped.code).toBe(0);
    expect(await dbs.existingDatabases()).not.toContain(`${dbs.prefix}pardos`);
    expect(await dbs.query(dbs.controlUrl, "SELECT 1 FROM tenants WHERE slug = 'pardos'")).toEqual(
      [],
    );
  });

  it.each([
    [['create', 'Bad Slug'], 'is not a valid tenant slug'],
    [['suspend', 'ghost'], 'Tenant "ghost" does not exist'],
    [['drop', 'ghost', '--yes'], 'Tenant "ghost" does not exist'],
    [['explode'], 'Unknown command "explode"'],
    [['migrate'], 'migrate needs a tenant slug or --all'],
    [['create', 'x1', '--colour', 'red'], "Unknown option '--colour'"],
    [['create', 'tz-bad', '--time-zone', 'Mars/Base'], '"Mars/Base" is not an IANA time zone'],
  ])('exits with 2 and says why for %j', async (args, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('provisions demo data with --demo', async () => {
    const result = await cli('create', 'muestra', '--demo');
    expect(result.code).toBe(0);
    const [counts] = await dbs.query<{ comandas: number; productos: number }>(
      dbs.tenantUrl('muestra'),
      'SELECT (SELECT count(*)::int FROM comandas) AS comandas, (SELECT count(*)::int FROM productos) AS productos',
    );
    expect(counts.comandas).toBeGreaterThanOrEqual(300);
    expect(counts.productos).toBeGreaterThanOrEqual(25);
  });
});
