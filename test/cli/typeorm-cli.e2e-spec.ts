import {
  controlMigrations,
  tenantMigrations,
} from '../../src/database/migrations/module-migrations';
import '../../src/modules';
import { ORMCONFIG_JS, runNode, TYPEORM_CLI_JS } from '../support/processes';
import { TestDatabases } from '../support/test-databases';

const names = (migrations: (new () => { name?: string })[]) =>
  migrations.map((Migration) => new Migration().name!);

/** What `migration:show` prints for a database that ran `applied` of `all` (pending: no number). */
const listing = (all: string[], applied: string[]) =>
  all
    .map((name, i) => (applied.includes(name) ? `[X] ${i + 1} ${name}` : `[ ] ${name}`))
    .join('\n');

/**
 * `npm run typeorm -- migration:show`: the TypeORM CLI over dist/ormconfig.js, run as a process
 * the way the npm script runs it, on the control database and on a tenant's.
 */
describe('TypeORM CLI (npm run typeorm)', () => {
  let dbs: TestDatabases;
  const typeorm = (env: Record<string, string>, ...args: string[]) =>
    runNode(TYPEORM_CLI_JS, ['-d', ORMCONFIG_JS, ...args], dbs.env(env));

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    await dbs.createTenant('al-dia');
    await dbs.createTenant('atrasado');
  });

  afterAll(() => dbs.drop());

  it('shows the migrations of the control database (DATABASE_URL)', async () => {
    const result = await typeorm({}, 'migration:show');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const control = names(controlMigrations());
    expect(result.stdout.trim()).toBe(listing(control, control));
  });

  it('shows the migrations of a tenant chosen by slug (ORM_TARGET=tenant, ORM_TENANT)', async () => {
    const tenant = names(tenantMigrations());
    const current = await typeorm({ ORM_TARGET: 'tenant', ORM_TENANT: 'al-dia' }, 'migration:show');
    expect(current.code).toBe(0);
    expect(current.stdout.trim()).toBe(listing(tenant, tenant));

    const newest = await dbs.revertNewestMigration('atrasado');
    const behind = await typeorm(
      { ORM_TARGET: 'tenant', ORM_TENANT: 'atrasado' },
      'migration:show',
    );
    expect(behind.code).toBe(0);
    expect(behind.stdout.trim()).toBe(
      listing(
        tenant,
        tenant.filter((name) => name !== newest),
      ),
    );
  });

  it('takes a tenant database by URL (TENANT_DATABASE_URL)', async () => {
    const tenant = names(tenantMigrations());
    const result = await typeorm(
      { ORM_TARGET: 'tenant', TENANT_DATABASE_URL: dbs.tenantUrl('al-dia') },
      'migration:show',
    );
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(listing(tenant, tenant));
  });

  it('says what is missing or wrong, with exit code 1', async () => {
    for (const [env, message] of [
      [{ ORM_TARGET: 'tenant' }, 'ORM_TARGET=tenant needs ORM_TENANT=<tenant slug>'],
      [{ ORM_TARGET: 'tenant', ORM_TENANT: 'nadie' }, 'Tenant "nadie" is not in the catalog'],
      [{ ORM_TARGET: 'tenants' }, 'ORM_TARGET must be control or tenant'],
    ] as const) {
      const result = await typeorm(env, 'migration:show');
      expect({ env, code: result.code, says: result.stderr.includes(message) }).toEqual({
        env,
        code: 1,
        says: true,
      });
    }
  });
});
