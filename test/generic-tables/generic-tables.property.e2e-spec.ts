import fc from 'fast-check';
import { hostileValueProblems } from '../../src/common/http/hostile-input';
import request from 'supertest';
import { Client } from 'pg';
import { MIGRATIONS_TABLE } from '../../src/database/database-target';
import { ALLOWED_TABLES, MODULE_OWNED } from '../../src/generic-tables/allowed-tables';
import { seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const HOSTILE_NAMES = [
  'tenants',
  'pg_catalog.pg_class',
  'pg_user',
  'comanda_eventos',
  'schema_migrations',
  'comandas; DROP TABLE mesas',
  '"comandas"',
  'comandas--',
  "mesas' OR '1'='1",
  '../../etc/passwd',
  'COMANDAS',
  'Mesas',
  '_',
  'a'.repeat(64),
  'información',
  'mesas\u0000',
  '%00',
  'id_mesa',
  'nombre',
  'subtotal',
  'ctid',
  'xmin',
  'oid',
];

/** Table names as they appear after FROM / INTO / UPDATE / JOIN in a statement. */
function tablesIn(sql: string): string[] {
  return [
    ...sql.matchAll(
      /\b(?:FROM|INTO|UPDATE|JOIN)\s+(?!LATERAL\b)("(?:[^"]|"")+"|[A-Za-z_][\w.]*)/gi,
    ),
  ].map((m) => (m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]));
}

/** The catalog relations the metadata query reads (unquoted, never from user input). */
const CATALOG = new Set([
  'pg_class',
  'pg_namespace',
  'pg_attribute',
  'pg_type',
  'pg_attrdef',
  'pg_constraint',
]);

describe('generic table routes under random and hostile input (fast-check)', () => {
  let t: TestApp;
  const statements: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ FEATURE_GENERIC_TABLES: 'true' });
    await t.dbs.createTenant('fuzz');
    await seedMenu(t.dbs, 'fuzz');
    // every statement sent to the tenant's database, whatever sends it (a DataSource, a
    // transaction, the pool); the control database's (the catalog, the webhooks' poll of the
    // tenants with work due) are not a route's
    const tenantDatabase = new URL(t.dbs.tenantUrl('fuzz')).pathname.slice(1);
    const original = Client.prototype.query as (...a: unknown[]) => unknown;
    jest
      .spyOn(Client.prototype as { query: (...a: unknown[]) => unknown }, 'query')
      .mockImplementation(function (this: Client, ...args: unknown[]) {
        if (typeof args[0] === 'string' && this.database === tenantDatabase)
          statements.push(args[0]);
        return original.apply(this, args);
      });
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  const name = fc.oneof(
    fc.constantFrom(...ALLOWED_TABLES),
    fc.constantFrom(...HOSTILE_NAMES),
    fc.string({ maxLength: 70 }),
    fc.stringMatching(/^[a-z_][a-z0-9_]{0,20}$/),
  );
  const segment = (value: string) => encodeURIComponent(value);
  const limit = fc.oneof(
    fc.constant(undefined),
    fc.integer({ min: -5, max: 5000 }).map(String),
    fc.string({ maxLength: 8 }),
  );
  const objectBody = fc.dictionary(
    fc.oneof(
      fc.constantFrom('nombre', 'precio', 'id_mesa', 'numero', 'datos', 'fecha', 'total', 'estado'),
      fc.string(),
    ),
    fc.jsonValue(),
  );
  const body = fc.oneof(objectBody, fc.jsonValue());

  const call = (method: 'get' | 'post', path: string, payload?: unknown) => {
    const req = request(t.http)[method](`/api/v1${path}`).set('X-Tenant-ID', 'fuzz');
    return method === 'post'
      ? req.set('Content-Type', 'application/json').send(JSON.stringify(payload ?? null))
      : req;
  };

  const expectNoServerError = (res: request.Response) => {
    expect(res.status).toBeLessThan(500);
    if (res.status >= 400)
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
  };

  it('never answers 500 to /schema, /options and /table with any names and limits', async () => {
    await fc.assert(
      fc.asyncProperty(name, name, limit, async (table, column, lim) => {
        expectNoServerError(await call('get', `/schema/${segment(table)}`));
        expectNoServerError(await call('get', `/options/${segment(table)}/${segment(column)}`));
        const query = lim === undefined ? '' : `?limit=${encodeURIComponent(lim)}`;
        expectNoServerError(await call('get', `/table/${segment(table)}${query}`));
      }),
      { numRuns: 150 },
    );
  });

  it('never answers 500 to inserts of any body into any name', async () => {
    await fc.assert(
      fc.asyncProperty(name, body, async (table, payload) => {
        expectNoServerError(await call('post', `/table/${segment(table)}`, payload));
      }),
      { numRuns: 250 },
    );
  });

  it('refuses every body into a table a module owns, whatever the case of its name', async () => {
    const owned = fc.constantFrom(...ALLOWED_TABLES.filter((t) => MODULE_OWNED[t] !== null));
    const cased = fc
      .tuple(owned, fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }))
      .map(([table, upper]) => [...table].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
    await fc.assert(
      fc.asyncProperty(cased, objectBody, async (table, payload) => {
        const res = await call('post', `/table/${segment(table)}`, payload);
        expect(res.status).toBe(400);
        // a body holding what no route reads (a control character, a prototype name) is
        // refused first, as it is read; any other is refused for the table
        const hostile = hostileValueProblems(payload);
        if (hostile.length > 0)
          expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', detail: hostile });
        else
          expect(res.body).toMatchObject({
            code: 'TABLE_READ_ONLY',
            detail: { table: table.toLowerCase() },
          });
      }),
      { numRuns: 100 },
    );
  });

  it('never ran a statement on a table outside the allow-list, nor wrote one a module owns', () => {
    // the properties reached the database with both reads and inserts on allowed tables
    expect(statements.some((sql) => /^SELECT .* FROM "\w+"/s.test(sql.trim()))).toBe(true);
    expect(statements.some((sql) => /^INSERT INTO "\w+"/.test(sql.trim()))).toBe(true);
    const allowed = new Set<string>([...ALLOWED_TABLES, ...CATALOG]);
    // one read beyond them: the schema check of the tenant's database when its DataSource
    // opens (docs/architecture.md, "A tenant behind the code"), once, before any request's name
    const schemaCheck: string[] = statements.filter(
      (sql) => sql === `SELECT name FROM "${MIGRATIONS_TABLE}"`,
    );
    expect(schemaCheck).toHaveLength(1);
    const outside = statements
      .filter((sql) => !schemaCheck.includes(sql))
      .flatMap(tablesIn)
      .filter((table) => !allowed.has(table));
    expect(outside).toEqual([]);
    const owned = statements.filter((sql) => {
      const target = /^\s*INSERT INTO "(\w+)"/.exec(sql)?.[1];
      return target !== undefined && MODULE_OWNED[target as keyof typeof MODULE_OWNED] != null;
    });
    expect(owned).toEqual([]);
  });

  it('left the tables outside the allow-list untouched', async () => {
    const [{ n }] = await t.dbs.query<{ n: number }>(
      t.dbs.controlUrl,
      'SELECT count(*)::int AS n FROM tenants',
    );
    expect(n).toBe(1);
    const mesas = await t.dbs.query(
      t.dbs.tenantUrl('fuzz'),
      "SELECT to_regclass('public.mesas') IS NOT NULL AS present",
    );
    expect(mesas).toEqual([{ present: true }]);
  });
});
