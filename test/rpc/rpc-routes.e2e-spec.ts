import request from 'supertest';
import { currentYearIn, todayIn, addDays } from '../../src/common/time';
import { seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestDatabases } from '../support/test-databases';

const POST_ROUTES = [
  'save_producto',
  'save_materia',
  'find_usuarios_por_documentos',
  'import_asistencia',
  'asistencia_get',
  'asistencia_update_raw',
  'asistencia_delete_raw',
  'report_tickets',
  'report_asistencia',
  'save_compra',
  'get_compra',
  'delete_compra',
  'report_gastos',
];
const GET_ROUTES = ['get_producto/1', 'get_materia/1', 'report_gastos'];

describe('business RPC routes', () => {
  describe('feature switch', () => {
    let dbs: TestDatabases;
    let t: TestApp;
    beforeAll(async () => {
      dbs = await TestDatabases.create();
      await dbs.createTenant('plain');
      await dbs.createTenant('opted-in', { features: { rpc: true } });
      t = await startTestApp({}, dbs);
    });
    afterAll(async () => {
      await t.close();
      await dbs.drop();
    });

    it('is off by default: the 16 routes answer like routes that do not exist', async () => {
      const calls = [
        ...POST_ROUTES.map((r) => ['POST', r] as const),
        ...GET_ROUTES.map((r) => ['GET', r] as const),
      ];
      expect(calls).toHaveLength(16);
      for (const [method, route] of calls) {
        const path = `/api/v1/rpc/${route}`;
        const req =
          method === 'POST' ? request(t.http).post(path).send({}) : request(t.http).get(path);
        const res = await req.set('X-Tenant-ID', 'plain');
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          error: `Cannot ${method} ${path}`,
          code: 'NOT_FOUND',
          requestId: res.headers['x-request-id'],
        });
      }
    });

    it('is on for a tenant whose catalog row turns it on', async () => {
      await request(t.http)
        .post('/api/v1/rpc/report_tickets')
        .set('X-Tenant-ID', 'opted-in')
        .send({})
        .expect(200);
    });
  });

  describe('with FEATURE_RPC=true', () => {
    let t: TestApp;
    let api: TenantApi;
    const db = () => t.dbs.tenantUrl('rpc');
    const year = () => currentYearIn('America/Lima');

    beforeAll(async () => {
      t = await startTestApp({ FEATURE_RPC: 'true' });
      await t.dbs.createTenant('rpc'); // America/Lima
      await t.dbs.createTenant('other');
      await seedMenu(t.dbs, 'rpc');
      await t.dbs.query(
        db(),
        `INSERT INTO mate_primas (nombre, unidad) VALUES ('Pescado', 'kg'), ('Limón', 'kg'), ('Cebolla', 'kg');
         INSERT INTO proveedores (razon_social, documento) VALUES ('Pesquera Sur SAC', '20111111111'), ('Mercado Central', '20222222222');`,
      );
      api = tenantApi(t.http, 'rpc');
    });
    afterAll(() => t.close());

    describe('products and raw materials', () => {
      it('save_producto creates a product with its recipe; get_producto returns it', async () => {
        const saved = await api
          .post('/rpc/save_producto', {
            nombre: 'Ceviche mixto',
            precio: 45,
            id_categoria: 1,
            receta: [
              { id_mat_prima: 1, cantidad: 0.3 },
              { id_mat_prima: 2, cantidad: 0.1 },
            ],
          })
          .expect(200);
        expect(saved.body).toEqual({ id_producto: expect.any(Number) });
        const id = saved.body.id_producto as number;
        const res = await api.get(`/rpc/get_producto/${id}`).expect(200);
        expect(res.body).toMatchObject({
          id_producto: id,
          nombre: 'Ceviche mixto',
          precio: 45,
          activo: true,
          id_categoria: 1,
        });
        expect(res.body.receta).toEqual([
          expect.objectContaining({ id_mat_prima: 2, nombre: 'Limón', cantidad: 0.1 }),
          expect.objectContaining({ id_mat_prima: 1, nombre: 'Pescado', cantidad: 0.3 }),
        ]);
      });

      it('save_producto applies its defaults (precio 0, activo true, no recipe)', async () => {
        const saved = await api.post('/rpc/save_producto', { nombre: 'Agua de mesa' }).expect(200);
        const [row] = await t.dbs.query(
          db(),
          'SELECT precio, activo, img_producto, id_categoria FROM productos WHERE id_producto = $1',
          [saved.body.id_producto],
        );
        expect(row).toEqual({
          precio: '0.00',
          activo: true,
          img_producto: null,
          id_categoria: null,
        });
      });

      it('get_producto answers {} for an unknown product and 400 for a non-numeric id', async () => {
        expect((await api.get('/rpc/get_producto/99999').expect(200)).body).toEqual({});
        expect((await api.get('/rpc/get_producto/abc').expect(400)).body.code).toBe('INVALID_ID');
        expect((await api.get('/rpc/get_producto/99999999999').expect(400)).body.code).toBe(
          'INVALID_ID',
        );
      });

      it('save_materia and get_materia handle a raw material with its suppliers', async () => {
        const saved = await api
          .post('/rpc/save_materia', {
            nombre: 'Ají limo',
            unidad: 'kg',
            proveedores: [{ id_proveedor: 2, precio: 12.5 }],
          })
          .expect(200);
        expect(saved.body).toEqual({ id_mat_prima: expect.any(Number) });
        const res = await api.get(`/rpc/get_materia/${saved.body.id_mat_prima}`).expect(200);
        expect(res.body).toMatchObject({
          nombre: 'Ají limo',
          unidad: 'kg',
          activo: true,
          proveedores: [expect.objectContaining({ id_proveedor: 2, precio: 12.5 })],
        });
        expect((await api.get('/rpc/get_materia/99999').expect(200)).body).toEqual({});
      });
    });

    it('find_usuarios_por_documentos keys users by document; a non-array docs is empty', async () => {
      const res = await api
        .post('/rpc/find_usuarios_por_documentos', { docs: ['40000001', '99999999'] })
        .expect(200);
      expect(Object.keys(res.body)).toEqual(['40000001']);
      expect(res.body['40000001']).toMatchObject({
        id_usuario: 1,
        nombre: 'Rosa',
        apellido: 'Quispe',
      });
      expect(
        (await api.post('/rpc/find_usuarios_por_documentos', { docs: '40000001' }).expect(200))
          .body,
      ).toEqual({});
      expect((await api.post('/rpc/find_usuarios_por_documentos', {}).expect(200)).body).toEqual(
        {},
      );
    });

    describe('attendance', () => {
      const registros = [
        { doc: '40000001', fecha: '2026-03-02', hora: '08:00:00', modo: 'entrada' },
        { doc: '40000001', fecha: '2026-03-02', hora: '16:30:00', modo: 'salida' },
        { doc: '12345678', fecha: '2026-03-02', hora: '09:00:00' },
      ];

      it('import_asistencia stores punches, reports unknown documents and is idempotent', async () => {
        const first = await api
          .post('/rpc/import_asistencia', { registros, origen: 'attlog.dat' })
          .expect(200);
        expect(first.body).toMatchObject({
          recibidos: 3,
          insertados: 2,
          duplicados: 0,
          desconocidos: ['12345678'],
        });
        const again = await api
          .post('/rpc/import_asistencia', { registros, origen: 'attlog.dat' })
          .expect(200);
        expect(again.body).toMatchObject({ recibidos: 3, insertados: 0, duplicados: 2 });
        const rows = await t.dbs.query(db(), 'SELECT origen FROM asistencia_detalle');
        expect(rows).toEqual([{ origen: 'attlog.dat' }, { origen: 'attlog.dat' }]);
        const empty = await api
          .post('/rpc/import_asistencia', { registros: 'no es un arreglo' })
          .expect(200);
        expect(empty.body).toMatchObject({ recibidos: 0, insertados: 0 });
      });

      it('import_asistencia refuses a batch holding a NUL byte as it is read, naming each place, and stores nothing', async () => {
        const nul = {
          registros: [
            { doc: '40000002', fecha: '2025-06-02', hora: '08:00:00', modo: 'entrada' },
            { doc: '4000\u00000002', fecha: '2025-06-02', hora: '09:00:00' },
            { doc: '40000002', fecha: '2025-06-02', hora: '17:00:00', modo: 'salida' },
            { doc: '40000002', fecha: '2025-06-03', hora: '08:00:00', datos: { 'k\u0000': 1 } },
          ],
          origen: 'reloj\u0000.dat',
        };
        const res = await api.post('/rpc/import_asistencia', nul).expect(400);
        expect(res.body).toMatchObject({
          code: 'VALIDATION_FAILED',
          detail: [
            'registros.1.doc must not contain control characters (U+0000)',
            'property names must not contain control characters (U+0000): "registros.3.datos.k\\u0000"',
            'origen must not contain control characters (U+0000)',
          ],
        });
        const rows = await t.dbs.query(
          db(),
          `SELECT hora::text FROM asistencia_detalle
            WHERE id_usuario = 2 AND fecha BETWEEN '2025-06-01' AND '2025-06-30'`,
        );
        expect(rows).toEqual([]);
        // the same batch without them is stored, its bad date reported at its index
        const clean = {
          registros: [
            { doc: '40000002', fecha: '2025-06-02', hora: '08:00:00', modo: 'entrada' },
            { doc: '40000002', fecha: '2025-06-31', hora: '18:00:00' },
            { doc: '40000002', fecha: '2025-06-02', hora: '17:00:00', modo: 'salida' },
          ],
          origen: 'reloj.dat',
        };
        const stored = await api.post('/rpc/import_asistencia', clean).expect(200);
        expect(stored.body).toMatchObject({
          recibidos: 3,
          insertados: 2,
          invalidos: [{ indice: 1, motivo: expect.stringContaining('fecha inválida') }],
        });
      });

      it('asistencia_get returns the punches and the paired interval; update and delete re-pair', async () => {
        const got = await api
          .post('/rpc/asistencia_get', {
            doc: '40000001',
            desde: '2026-03-01',
            hasta: '2026-03-31',
          })
          .expect(200);
        expect(got.body.usuario).toMatchObject({ documento: '40000001' });
        expect(got.body.marcas).toHaveLength(2);
        expect(got.body.intervalos).toEqual([
          expect.objectContaining({ fecha_trabajo: '2026-03-02', minutos: 510 }),
        ]);

        const salida = got.body.marcas[1].id_raw as number;
        await api
          .post('/rpc/asistencia_update_raw', {
            id_raw: salida,
            fecha: '2026-03-02',
            hora: '17:00:00',
            modo: 'salida',
          })
          .expect(200);
        const updated = await api
          .post('/rpc/asistencia_get', {
            doc: '40000001',
            desde: '2026-03-02',
            hasta: '2026-03-02',
          })
          .expect(200);
        expect(updated.body.intervalos[0].minutos).toBe(540);

        await api.post('/rpc/asistencia_delete_raw', { id_raw: salida }).expect(200);
        const deleted = await api
          .post('/rpc/asistencia_get', {
            doc: '40000001',
            desde: '2026-03-02',
            hasta: '2026-03-02',
          })
          .expect(200);
        expect(deleted.body.marcas).toHaveLength(1);
        expect(deleted.body.resumen).toEqual([
          expect.objectContaining({ fecha_trabajo: '2026-03-02', incompleto: true }),
        ]);
      });

      it('asistencia_get answers 400 naming each malformed field (doc, desde, hasta), never 500', async () => {
        const cases: [Record<string, unknown>, string[]][] = [
          [
            { doc: '40000001', desde: '2026-02-30', hasta: '2026-03-31' },
            ['desde must be a date YYYY-MM-DD'],
          ],
          [
            { doc: '40000001', desde: '2026-03-01', hasta: '31/03/2026' },
            ['hasta must be a date YYYY-MM-DD'],
          ],
          [{ doc: '40000001', hasta: '2026-03-31' }, ['desde is required']],
          [
            { doc: { n: 1 }, desde: 20260301, hasta: null },
            [
              'doc must be a document number (a non-empty string)',
              'desde must be a date YYYY-MM-DD',
              'hasta is required',
            ],
          ],
          [
            { doc: '  ', desde: '2026-03-01', hasta: '2026-03-31' },
            ['doc must be a document number (a non-empty string)'],
          ],
          [
            { doc: '4000\u00000001', desde: '2026-03-01', hasta: '2026-03-31' },
            ['doc must not contain control characters (U+0000)'],
          ],
          [{}, ['doc is required', 'desde is required', 'hasta is required']],
        ];
        for (const [body, detail] of cases) {
          const res = await api.post('/rpc/asistencia_get', body);
          expect({ body, status: res.status, answer: res.body }).toEqual({
            body,
            status: 400,
            answer: {
              error: 'Validation failed',
              code: 'VALIDATION_FAILED',
              detail,
              requestId: res.headers['x-request-id'],
            },
          });
        }
        // a document given as a number is its digits
        const byNumber = await api
          .post('/rpc/asistencia_get', { doc: 40000001, desde: '2026-03-01', hasta: '2026-03-31' })
          .expect(200);
        expect(byNumber.body.usuario).toMatchObject({ documento: '40000001' });
      });

      it('report_asistencia uses the given range, or the last 30 days when a date is malformed', async () => {
        const given = await api
          .post('/rpc/report_asistencia', { desde: '2026-03-01', hasta: '2026-03-31' })
          .expect(200);
        expect(given.body).toMatchObject({ desde: '2026-03-01', hasta: '2026-03-31' });
        expect(given.body.personas).toEqual([
          expect.objectContaining({ documento: '40000001', dias_incompletos: 1 }),
        ]);
        const today = todayIn('America/Lima');
        for (const body of [
          { desde: '01/03/2026', hasta: '2026-03-31' },
          {},
          { desde: '2026-03-01' },
        ]) {
          const res = await api.post('/rpc/report_asistencia', body).expect(200);
          expect(res.body).toMatchObject({ desde: addDays(today, -30), hasta: today });
        }
      });
    });

    describe('purchases and reports', () => {
      let idCompra: number;

      it('save_compra inserts a purchase with product and raw-material lines; the database computes the total', async () => {
        const res = await api
          .post('/rpc/save_compra', {
            id_proveedor: 1,
            fec_compra: `${year()}-02-10T10:00:00-05:00`,
            detalles: [
              { id_mat_prima: 1, cantidad: 10, costo_unitario: 32.5 },
              { id_producto: 3, cantidad: 24, costo_unitario: 2.5 },
            ],
          })
          .expect(200);
        expect(res.body).toEqual({ id_compra: expect.any(Number), total: 385 });
        idCompra = res.body.id_compra;
      });

      it('get_compra returns it for editing; an update replaces the lines and the total', async () => {
        const got = await api.post('/rpc/get_compra', { id_compra: idCompra }).expect(200);
        expect(got.body).toMatchObject({ id_compra: idCompra, id_proveedor: 1, total: 385 });
        expect(got.body.detalles).toHaveLength(2);
        const updated = await api
          .post('/rpc/save_compra', {
            id_compra: idCompra,
            id_proveedor: 1,
            detalles: [{ id_mat_prima: 2, cantidad: 5, costo_unitario: 4 }],
          })
          .expect(200);
        expect(updated.body).toEqual({ id_compra: idCompra, total: 20 });
        expect((await api.post('/rpc/get_compra', { id_compra: 99999 }).expect(200)).body).toEqual(
          {},
        );
      });

      it('report_gastos (POST and GET) sums the purchases of the year', async () => {
        const post = await api.post('/rpc/report_gastos', { year: year() }).expect(200);
        expect(post.body).toMatchObject({ year: year(), total: 20 });
        expect(post.body.meses).toHaveLength(12);
        expect(post.body.meses[1]).toMatchObject({ mes: 2, total: 20 });
        const get = await api.get(`/rpc/report_gastos?year=${year()}`).expect(200);
        expect(get.body).toEqual(post.body);
        expect((await api.get('/rpc/report_gastos').expect(200)).body.year).toBe(year());
      });

      it('delete_compra removes the purchase and its lines', async () => {
        expect(
          (await api.post('/rpc/delete_compra', { id_compra: idCompra }).expect(200)).body,
        ).toEqual({ ok: true });
        expect(
          await t.dbs.query(db(), 'SELECT 1 FROM deta_comp_materias WHERE id_compra = $1', [
            idCompra,
          ]),
        ).toEqual([]);
        expect(
          await t.dbs.query(db(), 'SELECT 1 FROM compras WHERE id_compra = $1', [idCompra]),
        ).toEqual([]);
      });

      it('report_tickets takes year from the body, else the query, else the current year', async () => {
        expect((await api.post('/rpc/report_tickets', { year: 2024 }).expect(200)).body.year).toBe(
          2024,
        );
        expect((await api.post('/rpc/report_tickets?year=2023', {}).expect(200)).body.year).toBe(
          2023,
        );
        expect(
          (await api.post('/rpc/report_tickets?year=2023', { year: 2022 }).expect(200)).body.year,
        ).toBe(2022);
        for (const bad of [1999, 2101, 'abc']) {
          expect((await api.post('/rpc/report_tickets', { year: bad }).expect(200)).body.year).toBe(
            year(),
          );
        }
        const res = await api.post('/rpc/report_tickets', {}).expect(200);
        expect(res.body.meses).toHaveLength(12);
      });
    });

    describe('failures: HTTP 500 {error: "<operation> failed"} with its diagnostics', () => {
      it('save_compra adds message, detail, where and code', async () => {
        const res = await api
          .post('/rpc/save_compra', { id_proveedor: 99999, detalles: [] })
          .expect(500);
        expect(res.body).toMatchObject({
          error: 'save_compra failed',
          code: '23503',
          message: expect.any(String),
          detail: expect.stringContaining('99999'),
        });
        expect(res.body.where).toEqual(expect.stringContaining('save_compra'));
      });

      it('report_tickets and report_asistencia add message, detail, where and code', async () => {
        await t.dbs.query(
          db(),
          'ALTER TABLE comandas RENAME TO comandas_rotas; ALTER TABLE asistencia_resumen_diario RENAME TO resumen_roto',
        );
        try {
          for (const op of ['report_tickets', 'report_asistencia']) {
            const res = await api.post(`/rpc/${op}`, {}).expect(500);
            expect(res.body).toMatchObject({
              error: `${op} failed`,
              code: '42P01',
              message: expect.stringContaining('does not exist'),
            });
            expect(Object.keys(res.body)).toEqual(
              expect.arrayContaining(['message', 'detail', 'where', 'code']),
            );
            expect(res.body.where).toEqual(expect.stringContaining(op));
          }
        } finally {
          await t.dbs.query(
            db(),
            'ALTER TABLE comandas_rotas RENAME TO comandas; ALTER TABLE resumen_roto RENAME TO asistencia_resumen_diario',
          );
        }
      });

      it('report_gastos adds message, detail and code, not where', async () => {
        await t.dbs.query(db(), 'ALTER TABLE compras RENAME TO compras_rotas');
        try {
          for (const res of [
            await api.post('/rpc/report_gastos', {}),
            await api.get('/rpc/report_gastos'),
          ]) {
            expect(res.status).toBe(500);
            expect(res.body).toMatchObject({
              error: 'report_gastos failed',
              code: '42P01',
              message: expect.any(String),
            });
            expect(Object.keys(res.body)).toEqual(
              expect.arrayContaining(['message', 'detail', 'code']),
            );
            expect(res.body).not.toHaveProperty('where');
          }
        } finally {
          await t.dbs.query(db(), 'ALTER TABLE compras_rotas RENAME TO compras');
        }
      });

      it('the other operations answer only {error: "<operation> failed"} (and the envelope code)', async () => {
        const cases: [string, () => request.Test][] = [
          ['save_producto', () => api.post('/rpc/save_producto', { precio: 10 })],
          ['save_materia', () => api.post('/rpc/save_materia', { nombre: 'Sal', unidad: 'saco' })],
          ['delete_compra', () => api.post('/rpc/delete_compra', { id_compra: 99999 })],
          [
            'asistencia_delete_raw',
            () => api.post('/rpc/asistencia_delete_raw', { id_raw: 99999 }),
          ],
          ['asistencia_update_raw', () => api.post('/rpc/asistencia_update_raw', { id_raw: 'x' })],
          ['get_compra', () => api.post('/rpc/get_compra', { id_compra: 'abc' })],
        ];
        for (const [op, call] of cases) {
          const res = await call().expect(500);
          expect(res.body).toEqual({
            error: `${op} failed`,
            code: 'RPC_FAILED',
            requestId: res.headers['x-request-id'],
          });
        }
      });
    });

    it("tenant B does not see tenant A's products", async () => {
      const saved = await api.post('/rpc/save_producto', { nombre: 'Solo en A' }).expect(200);
      const other = tenantApi(t.http, 'other');
      expect(
        (await other.get(`/rpc/get_producto/${saved.body.id_producto}`).expect(200)).body,
      ).toEqual({});
    });
  });
});
