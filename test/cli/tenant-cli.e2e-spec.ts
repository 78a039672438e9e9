import { TestDatabases } from '../support/test-databases';
import { runNode, TENANT_CLI_JS } from '../support/processes';

const stderrLines = (stderr: string) => stderr.trimEnd().split('\n');

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
    [['create', 'x2', '--demo-scale', '0.5'], '--demo-scale goes with --demo'],
    [
      ['create', 'x3', '--demo', '--demo-scale', '0'],
      '--demo-scale must be a number greater than 0',
    ],
    [
      ['create', 'x4', '--demo', '--demo-scale', '2'],
      '--demo-scale must be a number greater than 0',
    ],
    [['create', 'x5', '--demo', '--demo-scale', 'mucho'], '--demo-scale must be a number'],
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
    // a year of 60 to 150 tickets a day
    expect(counts.comandas).toBeGreaterThanOrEqual(365 * 60);
    expect(counts.comandas).toBeLessThanOrEqual(365 * 150);
    expect(counts.productos).toBeGreaterThanOrEqual(25);
  });

  it('provisions a small demo with --demo-scale: one ticket a day in a hundred', async () => {
    const result = await cli(
      'create',
      'muestra-chica',
      '--demo',
      '--demo-scale',
      '0.01',
      '--time-zone',
      'America/Lima',
    );
    expect(result.code).toBe(0);
    const [counts] = await dbs.query<{ comandas: number; dias: number }>(
      dbs.tenantUrl('muestra-chica'),
      `SELECT count(*)::int AS comandas,
              count(DISTINCT (fec_apertura AT TIME ZONE 'America/Lima')::date)::int AS dias
         FROM comandas`,
    );
    expect(counts.dias).toBe(365);
    expect(counts.comandas).toBeGreaterThanOrEqual(365);
    expect(counts.comandas).toBeLessThanOrEqual(2 * 365);
  });
});

describe('tenant CLI with tenants whose database server does not answer', () => {
  let dbs: TestDatabases;
  const cli = (...args: string[]) => runNode(TENANT_CLI_JS, args, dbs.env());
  /** slug → [URL given to create, the URL as the CLI shows it, the reason it shows] */
  let unreachable: Record<string, [string, string, string]>;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    // the test server itself, with a role that does not exist: an authentication failure
    const stranger = new URL(dbs.serverUrl);
    stranger.username = 'nadie_aqui';
    stranger.password = 'secreto';
    stranger.pathname = `/${dbs.prefix}ajeno`;
    const shown = new URL(stranger);
    shown.password = '***';
    unreachable = {
      ajeno: [stranger.toString(), shown.toString(), 'nadie_aqui'],
      lejos: [
        'postgres://u:secreto@db2.invalid:5432/lejos',
        'postgres://u:***@db2.invalid:5432/lejos',
        'ENOTFOUND',
      ],
      norte: [
        'postgres://u:secreto@127.0.0.1:1/norte',
        'postgres://u:***@127.0.0.1:1/norte',
        'ECONNREFUSED',
      ],
    };
  });

  afterAll(() => dbs.drop());

  const status = async (slug: string) =>
    (
      await dbs.query<{ status: string }>(
        dbs.controlUrl,
        'SELECT status FROM tenants WHERE slug = $1',
        [slug],
      )
    ).map((r) => r.status);

  it('create names the server that did not answer and how to finish or remove the tenant', async () => {
    for (const [slug, [url, shown, reason]] of Object.entries(unreachable)) {
      const result = await cli('create', slug, '--database-url', url);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`tenant ${slug}`);
      expect(result.stderr).toContain(shown);
      expect(result.stderr).toContain(reason);
      expect(result.stderr).toContain('run create again');
      expect(result.stderr).toContain(`drop ${slug} --yes`);
      expect(result.stderr).not.toContain('secreto');
      expect(await status(slug)).toEqual(['provisioning']);
    }
  });

  it('list never shows the password of a tenant database URL', async () => {
    const table = await cli('list');
    const json = await cli('list', '--json');
    expect(table.stdout).toContain(unreachable.norte[1]);
    expect(JSON.parse(json.stdout)).toContainEqual(
      expect.objectContaining({ slug: 'norte', databaseUrl: unreachable.norte[1] }),
    );
    expect(table.stdout + json.stdout).not.toContain('secreto');
  });

  it('migrate --all migrates every reachable tenant and names the ones that failed', async () => {
    expect((await cli('create', 'bueno')).code).toBe(0);
    // empty bueno by hand: migrate --all must rebuild it although ajeno, sorted first, fails
    await dbs.query(dbs.tenantUrl('bueno'), 'DROP SCHEMA public CASCADE; CREATE SCHEMA public');

    const all = await cli('migrate', '--all');
    expect(all.code).toBe(1);
    expect(all.stdout).toMatch(/^bueno: applied DomainSchema/);
    expect(all.stdout.trimEnd().split('\n')).toHaveLength(1);
    const lines = stderrLines(all.stderr);
    expect(lines).toHaveLength(4);
    for (const [i, [slug, [, shown, reason]]] of Object.entries(unreachable).entries()) {
      expect(lines[i]).toMatch(new RegExp(`^${slug}: FAILED: `));
      expect(lines[i]).toContain(shown);
      expect(lines[i]).toContain(reason);
    }
    expect(lines[3]).toBe('migrate --all: 3 of 4 tenants FAILED: ajeno, lejos, norte');
    expect(all.stderr).not.toContain('secreto');
    const [{ n }] = await dbs.query<{ n: number }>(
      dbs.tenantUrl('bueno'),
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'comandas'",
    );
    expect(n).toBe(1);

    const one = await cli('migrate', 'norte');
    expect(one.code).toBe(1);
    expect(one.stderr).toContain('tenant norte');
    expect(one.stderr).toContain(unreachable.norte[1]);
    expect(one.stderr).toContain('ECONNREFUSED');
  });

  it('drop removes a tenant whose server does not answer and says that its database is left', async () => {
    await dbs.query(
      dbs.controlUrl,
      "INSERT INTO devices (serial, tenant_id, driver) SELECT 'CQZ0000000001', id, 'zkteco-push' FROM tenants WHERE slug = 'norte'",
    );
    for (const [slug, [, shown, reason]] of Object.entries(unreachable)) {
      const dropped = await cli('drop', slug, '--yes');
      expect(dropped.code).toBe(0);
      expect(dropped.stdout).toBe(`Dropped tenant ${slug} from the catalog\n`);
      const database = slug === 'ajeno' ? `${dbs.prefix}ajeno` : slug;
      expect(dropped.stderr).toContain(`database "${database}" was NOT deleted`);
      expect(dropped.stderr).toContain(shown);
      expect(dropped.stderr).toContain(reason);
      expect(dropped.stderr).toContain('delete it by hand');
      expect(dropped.stderr).not.toContain('secreto');
      expect(await status(slug)).toEqual([]);
    }
    expect(await dbs.query(dbs.controlUrl, 'SELECT serial FROM devices')).toEqual([]);

    // a reachable server: its database goes as before, and nothing is said on stderr
    const bueno = await cli('drop', 'bueno', '--yes');
    expect(bueno).toMatchObject({
      code: 0,
      stdout: 'Dropped tenant bueno and its database\n',
      stderr: '',
    });
    expect(await dbs.existingDatabases()).not.toContain(`${dbs.prefix}bueno`);
    expect(await cli('migrate', '--all')).toMatchObject({ code: 0, stderr: '' });
  });

  it('drop still fails with exit 1 when the control database does not answer', async () => {
    await cli('create', 'sur', '--database-url', 'postgres://u:p@127.0.0.1:1/sur');
    const result = await runNode(
      TENANT_CLI_JS,
      ['drop', 'sur', '--yes'],
      dbs.env({ DATABASE_URL: 'postgres://u:p@127.0.0.1:1/control' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(await status('sur')).toEqual(['provisioning']);
  });
});
