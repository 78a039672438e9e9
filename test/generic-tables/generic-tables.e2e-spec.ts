import request from 'supertest';
import { Client } from 'pg';
import { ALLOWED_TABLES, MODULE_OWNED } from '../../src/generic-tables/allowed-tables';
import { runNode, TENANT_CLI_JS } from '../support/processes';
import { seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestDatabases } from '../support/test-databases';

/** The tables a module owns (docs/generic-tables.md, "Read-only tables"). */
const OWNED = ALLOWED_TABLES.filter((table) => MODULE_OWNED[table] !== null);

const ROUTES: [string, string][] = [
  ['get', '/api/v1/tables'],
  ['get', '/api/v1/schema/productos'],
  ['get', '/api/v1/options/productos/id_categoria'],
  ['get', '/api/v1/table/productos'],
  ['post', '/api/v1/table/categorias'],
];

describe('generic table routes', () => {
  describe('feature switch', () => {
    let dbs: TestDatabases;
    beforeAll(async () => {
      dbs = await TestDatabases.create();
      await dbs.createTenant('plain');
      await dbs.createTenant('opted-in', { features: { genericTables: true } });
      await dbs.createTenant('opted-out', { features: { genericTables: false } });
    });
    afterAll(() => dbs.drop());

    const call = (t: TestApp, method: string, path: string, tenant?: string) => {
      const req =
        method === 'post'
          ? request(t.http).post(path).send({ nombre: 'x' })
          : request(t.http).get(path);
      return tenant ? req.set('X-Tenant-ID', tenant) : req;
    };

    it('is off by default: every route answers like a route that does not exist', async () => {
      const t = await startTestApp({}, dbs);
      try {
        for (const [method, path] of ROUTES) {
          for (const tenant of [undefined, 'plain', 'nobody']) {
            const res = await call(t, method, path, tenant);
            expect(res.status).toBe(404);
            expect(res.body).toEqual({
              error: `Cannot ${method.toUpperCase()} ${path}`,
              code: 'NOT_FOUND',
              requestId: res.headers['x-request-id'],
            });
          }
          expect((await call(t, method, path, 'opted-in')).status).toBeLessThan(300);
        }
        expect(await dbs.query(dbs.tenantUrl('plain'), 'SELECT * FROM categorias')).toEqual([]);
      } finally {
        await t.close();
      }
    });

    it('FEATURE_GENERIC_TABLES=true turns them on, except for a tenant that turned them off', async () => {
      const t = await startTestApp({ FEATURE_GENERIC_TABLES: 'true' }, dbs);
      try {
        await call(t, 'get', '/api/v1/tables', 'plain').expect(200);
        await call(t, 'get', '/api/v1/tables', 'opted-out').expect(404);
        // a catalog change applies without a restart
        await dbs.query(
          dbs.controlUrl,
          `UPDATE tenants SET features = '{"genericTables": false}' WHERE slug = 'plain'`,
        );
        await call(t, 'get', '/api/v1/tables', 'plain').expect(404);
      } finally {
        await t.close();
      }
    });
  });

  describe('with the routes on', () => {
    let t: TestApp;
    let api: TenantApi;
    const db = () => t.dbs.tenantUrl('gt');

    beforeAll(async () => {
      t = await startTestApp({ FEATURE_GENERIC_TABLES: 'true', FEATURE_REPORTES: 'true' });
      await t.dbs.createTenant('gt');
      await t.dbs.createTenant('other');
      await seedMenu(t.dbs, 'gt');
      api = tenantApi(t.http, 'gt');
    });
    afterAll(() => t.close());

    it('GET /tables lists the 21 allowed names', async () => {
      const res = await api.get('/tables').expect(200);
      expect(res.body).toEqual([...ALLOWED_TABLES]);
      expect(res.body).toHaveLength(21);
    });

    describe('GET /schema/:table', () => {
      it('describes every column with its metadata and foreign key', async () => {
        const res = await api.get('/schema/productos').expect(200);
        expect(res.body.table).toBe('productos');
        expect(res.body.kind).toBe('table');
        expect(Object.keys(res.body)).toEqual([
          'table',
          'kind',
          'read_only',
          'read_only_reason',
          'owner',
          'columns',
        ]);
        expect(res.body).toMatchObject({ read_only: false, read_only_reason: null, owner: null });
        expect(res.body.columns.map((c: { name: string }) => c.name)).toEqual([
          'id_producto',
          'nombre',
          'img_producto',
          'precio',
          'activo',
          'id_categoria',
          'created_at',
          'updated_at',
        ]);
        const byName = Object.fromEntries(
          res.body.columns.map((c: { name: string }) => [c.name, c]),
        );
        expect(byName.id_producto).toMatchObject({
          type: 'integer',
          nullable: false,
          identity: 'BY DEFAULT',
          primaryKey: true,
          position: 1,
          foreign: null,
        });
        expect(byName.precio).toMatchObject({
          type: 'numeric(12,2)',
          udt: 'numeric',
          nullable: false,
          default: '0',
          identity: null,
          foreign: null,
        });
        expect(byName.id_categoria).toMatchObject({
          nullable: true,
          foreign: {
            table: 'categorias',
            column: 'id_categoria',
            constraint: 'fk_productos_id_categoria',
          },
        });
        const detail = await api.get('/schema/deta_comandas').expect(200);
        const subtotal = detail.body.columns.find((c: { name: string }) => c.name === 'subtotal');
        expect(subtotal).toMatchObject({ generated: true });
      });

      it('describes the view vw_compras and folds the case of names', async () => {
        const view = await api.get('/schema/vw_compras').expect(200);
        expect(view.body).toMatchObject({
          table: 'vw_compras',
          kind: 'view',
          read_only: true,
          read_only_reason: 'vw_compras is a view: rows cannot be inserted into it',
          owner: null,
        });
        expect(view.body.columns.map((c: { name: string }) => c.name)).toContain('razon_social');
        expect((await api.get('/schema/PRODUCTOS').expect(200)).body.table).toBe('productos');
      });

      it.each([
        ['tenants', 'TABLE_NOT_ALLOWED'],
        ['comanda_eventos', 'TABLE_NOT_ALLOWED'],
        ['pg_class', 'TABLE_NOT_ALLOWED'],
        ['1abc', 'INVALID_IDENTIFIER'],
        ['mesas;drop', 'INVALID_IDENTIFIER'],
        ['a b', 'INVALID_IDENTIFIER'],
      ])('refuses %j with 400 %s', async (name, code) => {
        const res = await api.get(`/schema/${encodeURIComponent(name)}`).expect(400);
        expect(res.body).toMatchObject({ code, error: expect.any(String) });
      });
    });

    describe('GET /options/:table/:column', () => {
      it('lists {id, label} of the referenced table ordered by label', async () => {
        await t.dbs.query(
          db(),
          "INSERT INTO categorias (nombre) VALUES ('Bebidas'), ('Anticuchos')",
        );
        const res = await api.get('/options/productos/id_categoria').expect(200);
        expect(res.body).toEqual([
          { id: 3, label: 'Anticuchos' },
          { id: 2, label: 'Bebidas' },
          { id: 1, label: 'Platos' },
        ]);
      });

      it('labels people by nombre and suppliers by razon_social', async () => {
        await t.dbs.query(
          db(),
          "INSERT INTO proveedores (razon_social, documento) VALUES ('Pesquera Sur SAC', '20111111111')",
        );
        expect((await api.get('/options/compras/id_proveedor').expect(200)).body).toEqual([
          { id: 1, label: 'Pesquera Sur SAC' },
        ]);
        expect((await api.get('/options/deta_comandas/id_usuario').expect(200)).body).toEqual([
          { id: 2, label: 'Luis' },
          { id: 1, label: 'Rosa' },
        ]);
      });

      it('answers [] for a column without a foreign key', async () => {
        expect((await api.get('/options/productos/nombre').expect(200)).body).toEqual([]);
      });

      it('refuses an invalid or unknown column with 400', async () => {
        expect((await api.get('/options/productos/x-y').expect(400)).body.code).toBe(
          'INVALID_IDENTIFIER',
        );
        expect((await api.get('/options/productos/no_such_column').expect(400)).body.code).toBe(
          'UNKNOWN_COLUMN',
        );
        expect((await api.get('/options/tenants/id').expect(400)).body.code).toBe(
          'TABLE_NOT_ALLOWED',
        );
      });

      it('returns at most 1000 options, the first ones by label', async () => {
        await t.dbs.query(
          db(),
          "INSERT INTO categorias (nombre) SELECT 'Cat ' || lpad(n::text, 4, '0') FROM generate_series(1, 1100) n",
        );
        const res = await api.get('/options/productos/id_categoria').expect(200);
        expect(res.body).toHaveLength(1000);
        const labels = res.body.map((o: { label: string }) => o.label);
        expect(labels).toEqual([...labels].sort());
        // Anticuchos, Bebidas, then Cat 0001 ... Cat 0998: the first 1000 of 1103 by label
        expect(labels.slice(0, 3)).toEqual(['Anticuchos', 'Bebidas', 'Cat 0001']);
        expect(labels.at(-1)).toBe('Cat 0998');
      });
    });

    describe('GET /table/:table', () => {
      it('returns rows by primary key descending, 100 by default and at most 1000', async () => {
        const [{ n }] = await t.dbs.query<{ n: number }>(
          db(),
          'SELECT count(*)::int AS n FROM categorias',
        );
        expect(n).toBeGreaterThan(1000);
        const byDefault = await api.get('/table/categorias').expect(200);
        expect(byDefault.body).toHaveLength(100);
        const ids = byDefault.body.map((r: { id_categoria: number }) => r.id_categoria);
        expect(ids[0]).toBe(n);
        expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
        expect((await api.get('/table/categorias?limit=5').expect(200)).body).toHaveLength(5);
        expect((await api.get('/table/categorias?limit=5000').expect(200)).body).toHaveLength(1000);
      });

      it('writes numeric values as numbers and instants in the tenant’s zone', async () => {
        const res = await api.get('/table/productos?limit=1').expect(200);
        expect(res.body[0]).toMatchObject({
          id_producto: 4,
          nombre: 'Plato retirado',
          precio: 20,
          activo: false,
          id_categoria: 1,
        });
        expect(res.body[0].created_at).toMatch(/-05:00$/);
      });

      it('reads the view vw_compras (it has no primary key)', async () => {
        await t.dbs.query(db(), 'INSERT INTO compras (id_proveedor, total) VALUES (1, 120.50)');
        const res = await api.get('/table/vw_compras').expect(200);
        expect(res.body).toEqual([
          expect.objectContaining({ id_compra: 1, razon_social: 'Pesquera Sur SAC', total: 120.5 }),
        ]);
      });

      it.each(['0', '-1', 'abc', '1.5', '', '1e3'])(
        'refuses limit=%j with 400 INVALID_LIMIT',
        async (limit) => {
          const res = await api.get(`/table/categorias?limit=${limit}`).expect(400);
          expect(res.body).toMatchObject({ code: 'INVALID_LIMIT', detail: { limit } });
        },
      );

      it('refuses names outside the allow-list and unknown query parameters', async () => {
        expect((await api.get('/table/tenants').expect(400)).body.code).toBe('TABLE_NOT_ALLOWED');
        expect((await api.get('/table/categorias?orderBy=nombre').expect(400)).body.code).toBe(
          'VALIDATION_FAILED',
        );
      });
    });

    describe('POST /table/:table', () => {
      it('inserts the insertable columns, ignores the rest, returns 201 {inserted: row}', async () => {
        const res = await api
          .post('/table/mesas', {
            id_mesa: 9999,
            numero: 40,
            zona: 'terraza',
            capacidad: 6,
            hack: 'x',
            'id_mesa; drop': 1,
          })
          .expect(201);
        expect(res.body).toEqual({
          inserted: { id_mesa: 4, numero: 40, zona: 'terraza', capacidad: 6, activo: true },
        });
        expect(
          await t.dbs.query(db(), 'SELECT id_mesa, numero FROM mesas WHERE numero = 40'),
        ).toEqual([{ id_mesa: 4, numero: 40 }]);
      });

      describe('on a table with sequence-default, generated, JSON and multi-column CHECK columns', () => {
        let alt: TenantApi;

        // columns the writable tables of the schema lack, added before the first request reads
        // the tenant's metadata (it is cached until the next migrate)
        beforeAll(async () => {
          await t.dbs.createTenant('alt');
          await t.dbs.query(
            t.dbs.tenantUrl('alt'),
            `CREATE SEQUENCE mesas_numero_seq START 100;
             ALTER TABLE mesas ALTER COLUMN numero SET DEFAULT nextval('mesas_numero_seq'),
               ADD COLUMN plazas integer GENERATED ALWAYS AS (capacidad * 2) STORED,
               ADD COLUMN extra jsonb NULL,
               ADD CONSTRAINT ck_mesas_patio CHECK (zona IS DISTINCT FROM 'Patio' OR capacidad <= 4)`,
          );
          alt = tenantApi(t.http, 'alt');
        });

        it('leaves out primary-key, identity, sequence-default and generated columns', async () => {
          const res = await alt
            .post('/table/mesas', { id_mesa: 555, numero: 777, plazas: 1, zona: 'Salón' })
            .expect(201);
          expect(res.body.inserted).toEqual({
            id_mesa: 1,
            numero: 100,
            zona: 'Salón',
            capacidad: 4,
            activo: true,
            plazas: 8,
            extra: null,
          });
        });

        it('inserts a row of defaults when no key is usable', async () => {
          const res = await alt.post('/table/mesas', { nothing: 'usable' }).expect(201);
          expect(res.body.inserted).toMatchObject({ id_mesa: 2, numero: 101, zona: null });
        });

        it('stores JSON for jsonb columns', async () => {
          const res = await alt
            .post('/table/mesas', { zona: 'Barra', extra: { sillas: 'altas', n: [1, 2] } })
            .expect(201);
          expect(res.body.inserted.extra).toEqual({ sillas: 'altas', n: [1, 2] });
        });

        it('names every column a CHECK constraint reads', async () => {
          const res = await alt.post('/table/mesas', { zona: 'Patio', capacidad: 6 }).expect(400);
          expect(res.body).toEqual({
            error: 'CHECK violation: ck_mesas_patio (zona, capacidad)',
            code: '23514',
            detail: expect.stringMatching(/^Failing row contains \(.*Patio.*\)\.$/),
            columns: ['zona', 'capacidad'],
            constraint: 'ck_mesas_patio',
            requestId: res.headers['x-request-id'],
          });
        });
      });

      it.each([
        [
          '23503',
          '/table/productos',
          { nombre: 'Suspiro', id_categoria: 99999 },
          {
            error: 'foreign-key violation: fk_productos_id_categoria (id_categoria)',
            detail: 'Key (id_categoria)=(99999) is not present in table "categorias".',
            column: 'id_categoria',
            constraint: 'fk_productos_id_categoria',
          },
        ],
        [
          '23505',
          '/table/categorias',
          { nombre: 'Bebidas' },
          {
            error: 'uniqueness violation: uq_categorias_nombre (nombre)',
            detail: 'Key (nombre)=(Bebidas) already exists.',
            column: 'nombre',
            constraint: 'uq_categorias_nombre',
          },
        ],
        [
          '23514',
          '/table/productos',
          { nombre: 'Gratis', precio: -5 },
          {
            error: 'CHECK violation: ck_productos_precio (precio)',
            detail: expect.stringMatching(/^Failing row contains \(.*Gratis.*\)\.$/),
            column: 'precio',
            constraint: 'ck_productos_precio',
          },
        ],
        [
          '23502',
          '/table/categorias',
          { descripcion: 'sin nombre' },
          {
            error: 'missing NOT NULL field: nombre',
            detail: expect.stringMatching(/^Failing row contains \(.*sin nombre.*\)\.$/),
            column: 'nombre',
          },
        ],
      ])(
        'maps SQLSTATE %s to 400 {error, code, detail} naming the column and constraint',
        async (code, path, body, expected) => {
          const res = await api.post(path, body).expect(400);
          expect(res.body).toEqual({ code, ...expected, requestId: res.headers['x-request-id'] });
        },
      );

      it('names every column of a key made of several columns', async () => {
        await t.dbs.query(
          db(),
          'ALTER TABLE mesas ADD CONSTRAINT uq_mesas_zona_capacidad UNIQUE (zona, capacidad)',
        );
        try {
          await api.post('/table/mesas', { numero: 60, zona: 'Patio', capacidad: 2 }).expect(201);
          const res = await api
            .post('/table/mesas', { numero: 61, zona: 'Patio', capacidad: 2 })
            .expect(400);
          expect(res.body).toEqual({
            error: 'uniqueness violation: uq_mesas_zona_capacidad (zona, capacidad)',
            code: '23505',
            detail: 'Key (zona, capacidad)=(Patio, 2) already exists.',
            columns: ['zona', 'capacidad'],
            constraint: 'uq_mesas_zona_capacidad',
            requestId: res.headers['x-request-id'],
          });
        } finally {
          await t.dbs.query(db(), 'DELETE FROM mesas WHERE numero = 60');
          await t.dbs.query(db(), 'ALTER TABLE mesas DROP CONSTRAINT uq_mesas_zona_capacidad');
        }
      });

      it('maps other database failures to 400 in the envelope, never 500', async () => {
        expect((await api.post('/table/mesas', { numero: 'cuarenta' }).expect(400)).body.code).toBe(
          '22P02',
        );
        expect(
          (await api.post('/table/mesas', { numero: 99999999999 }).expect(400)).body.code,
        ).toBe('22003');
        expect((await api.post('/table/mesas', { numero: { a: 1 } }).expect(400)).body.code).toBe(
          'INVALID_VALUE',
        );
        expect(
          (
            await api
              .post('/table/clientes', { nombre: 'Fecha imposible', created_at: '2026-02-30' })
              .expect(400)
          ).body.code,
        ).toBe('22008');
      });

      it('refuses the view, a body that is not a JSON object, and names outside the allow-list', async () => {
        expect((await api.post('/table/vw_compras', {}).expect(400)).body.code).toBe(
          'NOT_INSERTABLE',
        );
        const array = await request(t.http)
          .post('/api/v1/table/mesas')
          .set('X-Tenant-ID', 'gt')
          .send([{ numero: 50 }])
          .expect(400);
        expect(array.body.code).toBe('INVALID_BODY');
        const text = await request(t.http)
          .post('/api/v1/table/mesas')
          .set('X-Tenant-ID', 'gt')
          .set('Content-Type', 'text/plain')
          .send('numero=50')
          .expect(415);
        expect(text.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
        const mesas = await t.dbs.query(
          t.dbs.tenantUrl('gt'),
          'SELECT 1 FROM mesas WHERE numero = 50',
        );
        expect(mesas).toEqual([]);
        expect((await api.post('/table/tenants', { slug: 'x' }).expect(400)).body.code).toBe(
          'TABLE_NOT_ALLOWED',
        );
      });

      it('refuses a closed comanda with a total and no lines: 400 TABLE_READ_ONLY, nothing written, the sales report unchanged', async () => {
        const report = () => api.get('/reportes/ventas').expect(200);
        const before = (await report()).body;
        const count = async () =>
          (
            await t.dbs.query<{ comandas: number; eventos: number }>(
              db(),
              `SELECT (SELECT count(*)::int FROM comandas) AS comandas,
                      (SELECT count(*)::int FROM comanda_eventos) AS eventos`,
            )
          )[0];
        const rows = await count();

        const res = await api
          .post('/table/comandas', {
            estado: 'cerrada',
            total: 5000,
            fec_cierre: new Date().toISOString(),
          })
          .expect(400);
        expect(res.body).toEqual({
          error: expect.stringContaining('Table comandas is read-only'),
          code: 'TABLE_READ_ONLY',
          detail: {
            table: 'comandas',
            module: 'comandas',
            routes: [
              'POST /api/v1/comandas',
              'PUT /api/v1/comandas/:id',
              'DELETE /api/v1/comandas/:id',
            ],
          },
          requestId: res.headers['x-request-id'],
        });
        expect(res.body.error).toContain('Use POST /api/v1/comandas, PUT /api/v1/comandas/:id');
        expect(await count()).toEqual(rows);
        expect((await report()).body).toEqual(before);
      });

      it.each(OWNED)(
        'refuses any row into %s (a module owns it) and still reads it',
        async (table) => {
          const [{ n }] = await t.dbs.query<{ n: number }>(
            db(),
            `SELECT count(*)::int AS n FROM ${table}`,
          );
          for (const body of [{}, { id_usuario: 1, id_compra: 1, id_comanda: 1, total: 5000 }]) {
            const res = await api.post(`/table/${table.toUpperCase()}`, body).expect(400);
            expect(res.body).toMatchObject({
              code: 'TABLE_READ_ONLY',
              detail: { table, module: MODULE_OWNED[table]!.module },
            });
          }
          const [after] = await t.dbs.query<{ n: number }>(
            db(),
            `SELECT count(*)::int AS n FROM ${table}`,
          );
          expect(after.n).toBe(n);
          await api.get(`/table/${table}`).expect(200);
          const schema = await api.get(`/schema/${table}`).expect(200);
          expect(schema.body).toMatchObject({
            table,
            kind: 'table',
            read_only: true,
            read_only_reason: MODULE_OWNED[table]!.reason,
            owner: {
              module: MODULE_OWNED[table]!.module,
              routes: [...MODULE_OWNED[table]!.routes],
            },
          });
        },
      );

      it('refuses them before any SQL, even the catalog read of a tenant never seen', async () => {
        await t.dbs.createTenant('fresh');
        const fresh = tenantApi(t.http, 'fresh');
        const statements: string[] = [];
        // every statement sent to a database, whatever sends it (a DataSource, a transaction)
        const original = Client.prototype.query as (...a: unknown[]) => unknown;
        const spies = [
          jest
            .spyOn(Client.prototype as { query: (...a: unknown[]) => unknown }, 'query')
            .mockImplementation(function (this: unknown, ...args: unknown[]) {
              if (typeof args[0] === 'string') statements.push(args[0]);
              return original.apply(this, args);
            }),
        ];
        const readOrWrite = () => statements.filter((sql) => /pg_class|INSERT/i.test(sql));
        try {
          for (const table of OWNED)
            expect((await fresh.post(`/table/${table}`, { x: 1 }).expect(400)).body.code).toBe(
              'TABLE_READ_ONLY',
            );
          expect(readOrWrite()).toEqual([]);
          // the same tenant's writable tables still take rows: the catalog read, then the insert
          await fresh.post('/table/categorias', { nombre: 'Postres' }).expect(201);
          expect(readOrWrite()).toEqual(
            expect.arrayContaining([
              expect.stringContaining('FROM pg_class'),
              expect.stringMatching(/^\s*INSERT INTO "categorias"/),
            ]),
          );
        } finally {
          for (const spy of spies) spy.mockRestore();
        }
      });
    });

    it('tenant B does not see rows inserted through tenant A', async () => {
      await api.post('/table/clientes', { nombre: 'Solo de GT' }).expect(201);
      const other = tenantApi(t.http, 'other');
      expect((await other.get('/table/clientes').expect(200)).body).toEqual([]);
      expect((await other.get('/options/comandas/id_cliente').expect(200)).body).toEqual([]);
    });

    it('re-reads the table metadata after npm run tenant -- migrate', async () => {
      const before = await api.get('/schema/mesas').expect(200);
      expect(before.body.columns.map((c: { name: string }) => c.name)).not.toContain('piso');
      await t.dbs.query(db(), 'ALTER TABLE mesas ADD COLUMN piso integer');
      // cached: a schema change alone is not seen...
      expect((await api.get('/schema/mesas').expect(200)).body.columns).toHaveLength(
        before.body.columns.length,
      );
      // ...until the tenant is migrated
      const migrated = await runNode(TENANT_CLI_JS, ['migrate', 'gt'], t.dbs.env());
      expect(migrated.code).toBe(0);
      const after = await api.get('/schema/mesas').expect(200);
      expect(after.body.columns.map((c: { name: string }) => c.name)).toContain('piso');
      await api.post('/table/mesas', { numero: 41, piso: 2 }).expect(201);
    });
  });
});
