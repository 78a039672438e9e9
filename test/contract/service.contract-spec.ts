import { expectError, expectStatus, type ContractClient } from './client';
import { positiveInt } from './data';
import { openContract, type Contract } from './setup';

/**
 * The rest of what a client of the tenant sees, over plain HTTP: health, the tenant and its
 * feature switches, the device-driver catalogue, the switchable routes (read-only calls when
 * they are on, 404 like unknown routes when they are off) and, with a token, authentication.
 * Nothing here writes: this file leaves nothing behind.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UNKNOWN_INT4 = 2_147_483_647;

interface TenantInfo {
  slug: string;
  name: string;
  status: string;
  timeZone: string;
  features: {
    genericTables: boolean;
    rpc: boolean;
    reservas: boolean;
    cobros: boolean;
    inventario: boolean;
    cocina: boolean;
    reportes: boolean;
  };
}

describe('service contract (health, tenant, drivers, features, auth), over HTTP', () => {
  let contract: Contract;
  let api: ContractClient;
  let tenant: TenantInfo;

  beforeAll(async () => {
    contract = await openContract();
    api = contract.api;
    const res = await api.get('/tenant');
    expectStatus(res, 200);
    tenant = res.body as TenantInfo;
  });

  afterAll(async () => {
    if (!contract) return;
    try {
      await api.cleanup(); // nothing to void unless a test created a comanda by mistake
    } finally {
      await contract.target.close();
    }
  });

  /** A product id from the lines of recent comandas (E2E_PRODUCT_ID first), if any. */
  async function someProductId(): Promise<number | undefined> {
    const given = positiveInt('E2E_PRODUCT_ID');
    if (given !== undefined) return given;
    const recent = await api.get('/comandas?limit=10');
    expectStatus(recent, 200);
    for (const c of recent.body as { id_comanda: number; n_items: number }[]) {
      if (c.n_items === 0) continue;
      const detail = await api.get(`/comandas/${c.id_comanda}`);
      if (detail.status === 200 && detail.body.lineas.length > 0)
        return detail.body.lineas[0].id_producto as number;
    }
    return undefined;
  }

  describe('GET /api/health', () => {
    it('answers without tenant or token: the database is up', async () => {
      const res = await api.get('/api/health', { withoutTenant: true, withoutToken: true });
      expectStatus(res, 200);
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      expect(res.body).toEqual(
        expect.objectContaining({
          status: expect.stringMatching(/^(ok|degraded)$/),
          database: expect.objectContaining({ status: 'up', latencyMs: expect.any(Number) }),
          embeddedDatabase: expect.any(Boolean),
          tenantDataSources: expect.any(Number),
          tenantsDown: expect.any(Array),
          uptimeSeconds: expect.any(Number),
        }),
      );
      const wrong = await api.delete('/api/health', undefined, { withoutTenant: true });
      expectError(wrong, 405, 'METHOD_NOT_ALLOWED');
      expect(wrong.headers.allow).toBe('GET, HEAD');
    });
  });

  describe('GET /api/v1/tenant', () => {
    it('names the tenant of X-Tenant-ID with its effective feature switches', () => {
      expect(tenant).toEqual({
        slug: contract.target.tenant,
        name: expect.any(String),
        status: 'active',
        timeZone: expect.any(String),
        features: {
          genericTables: expect.any(Boolean),
          rpc: expect.any(Boolean),
          reservas: expect.any(Boolean),
          cobros: expect.any(Boolean),
          inventario: expect.any(Boolean),
          cocina: expect.any(Boolean),
          reportes: expect.any(Boolean),
          webhooks: expect.any(Boolean),
        },
      });
    });

    it('asks for X-Tenant-ID: 400 TENANT_REQUIRED', async () => {
      expectError(await api.get('/tenant', { withoutTenant: true }), 400, 'TENANT_REQUIRED');
    });
  });

  describe('device drivers', () => {
    it('GET /device-drivers lists the loaded drivers, the built-in ones among them', async () => {
      const res = await api.get('/device-drivers');
      expectStatus(res, 200);
      const drivers = res.body as { name: string; source: string }[];
      for (const d of drivers) {
        expect(d).toEqual({
          name: expect.any(String),
          source: expect.any(String),
          manifest: expect.objectContaining({
            vendor: expect.any(String),
            model: expect.any(String),
            transport: expect.any(String),
            version: expect.any(String),
          }),
          importable: expect.any(Boolean),
          warnings: expect.any(Array),
        });
      }
      const builtin = drivers.filter((d) => d.source === 'builtin').map((d) => d.name);
      expect(builtin).toEqual(
        expect.arrayContaining(['generic-csv', 'zkteco-attlog', 'zkteco-push']),
      );
    });

    it('POST /device-drivers/validate says whether a manifest is valid, and why not', async () => {
      const manifest = {
        vendor: 'Acme',
        model: 'T1 (CSV export)',
        transport: 'file',
        version: '2.1',
        format: 'csv',
        delimiter: ';',
        columns: { doc: 'PIN', datetime: 'Marca', status: 'Tipo' },
      };
      const valid = await api.post('/device-drivers/validate', manifest);
      expectStatus(valid, 200);
      expect(valid.body).toEqual({ valid: true, errors: [], warnings: [] });

      const unknownFormat = await api.post('/device-drivers/validate', {
        ...manifest,
        format: 'xyz',
      });
      expectStatus(unknownFormat, 200);
      expect(unknownFormat.body).toMatchObject({ valid: true, errors: [] });
      expect(unknownFormat.body.warnings).toEqual([
        { path: '/format', message: expect.any(String) },
      ]);

      const invalid = await api.post('/device-drivers/validate', { vendor: 'Acme' });
      expectStatus(invalid, 200);
      expect(invalid.body.valid).toBe(false);
      expect(invalid.body.errors).toEqual(
        expect.arrayContaining([
          { path: '/model', message: 'is required' },
          { path: '/transport', message: 'is required' },
          { path: '/version', message: 'is required' },
        ]),
      );

      expectError(await api.post('/device-drivers/validate', []), 400, 'INVALID_BODY', {
        received: 'array',
      });
      expectError(
        await api.post('/device-drivers/validate', 'vendor=Acme', { type: 'form' }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    });
  });

  describe('generic table routes (docs/generic-tables.md)', () => {
    const routes = ['/tables', '/schema/comandas', '/options/comandas/id_mesa', '/table/mesas'];

    it('answer read-only calls when on for the tenant, 404 like unknown routes when off', async () => {
      if (!tenant.features.genericTables) {
        for (const path of routes) {
          const res = await api.get(path);
          expectError(res, 404, 'NOT_FOUND');
          expect(res.body.error).toBe(`Cannot GET /api/v1${path}`);
        }
        return;
      }
      const tables = await api.get('/tables');
      expectStatus(tables, 200);
      expect(tables.body).toEqual(
        expect.arrayContaining(['comandas', 'deta_comandas', 'productos', 'mesas']),
      );

      const schema = await api.get('/schema/comandas');
      expectStatus(schema, 200);
      expect(schema.body.table).toBe('comandas');
      const columns = schema.body.columns as { name: string }[];
      expect(columns.find((c) => c.name === 'id_comanda')).toMatchObject({ primaryKey: true });
      expect(columns.find((c) => c.name === 'id_mesa')).toMatchObject({
        nullable: true,
        foreign: { table: 'mesas', column: 'id_mesa' },
      });
      // the comandas module owns the table: read here, written only by its routes
      expect(schema.body).toMatchObject({
        read_only: true,
        owner: { module: 'comandas', routes: expect.arrayContaining(['POST /api/v1/comandas']) },
      });
      // so this insert is refused before any SQL (asked only once the schema says so: the suite
      // writes nothing, even against an instance of an older version)
      expectError(
        await api.post('/table/comandas', { estado: 'cerrada', total: 5000 }),
        400,
        'TABLE_READ_ONLY',
      );
      const mesasSchema = await api.get('/schema/mesas');
      expectStatus(mesasSchema, 200);
      expect(mesasSchema.body).toMatchObject({ read_only: false, owner: null });

      const options = await api.get('/options/comandas/id_mesa');
      expectStatus(options, 200);
      for (const o of options.body)
        expect(o).toEqual({ id: expect.any(Number), label: expect.any(String) });

      const mesas = await api.get('/table/mesas?limit=2');
      expectStatus(mesas, 200);
      const rows = mesas.body as { id_mesa: number }[];
      expect(rows.length).toBeLessThanOrEqual(2);
      if (rows.length === 2) expect(rows[0].id_mesa).toBeGreaterThan(rows[1].id_mesa);

      expectError(await api.get('/table/mesas?limit=0'), 400, 'INVALID_LIMIT');
      expectError(await api.get('/schema/tenants'), 400, 'TABLE_NOT_ALLOWED');
    });
  });

  describe('business RPC routes (docs/rpc.md)', () => {
    it('answer read-only calls when on for the tenant, 404 like unknown routes when off', async () => {
      if (!tenant.features.rpc) {
        const get = await api.get('/rpc/get_producto/1');
        expectError(get, 404, 'NOT_FOUND');
        expect(get.body.error).toBe('Cannot GET /api/v1/rpc/get_producto/1');
        const post = await api.post('/rpc/report_tickets', {});
        expectError(post, 404, 'NOT_FOUND');
        expect(post.body.error).toBe('Cannot POST /api/v1/rpc/report_tickets');
        return;
      }
      const productId = await someProductId();
      if (productId !== undefined) {
        const product = await api.get(`/rpc/get_producto/${productId}`);
        expectStatus(product, 200);
        expect(product.body).toMatchObject({
          id_producto: productId,
          nombre: expect.any(String),
          precio: expect.any(Number),
          activo: expect.any(Boolean),
        });
        expect(Array.isArray(product.body.receta)).toBe(true);
        const material = product.body.receta[0] as { id_mat_prima: number } | undefined;
        if (material) {
          const m = await api.get(`/rpc/get_materia/${material.id_mat_prima}`);
          expectStatus(m, 200);
          expect(m.body).toMatchObject({
            id_mat_prima: material.id_mat_prima,
            nombre: expect.any(String),
          });
          expect(Array.isArray(m.body.proveedores)).toBe(true);
        }
      }
      for (const path of [
        `/rpc/get_producto/${UNKNOWN_INT4}`,
        `/rpc/get_materia/${UNKNOWN_INT4}`,
      ]) {
        const unknown = await api.get(path);
        expectStatus(unknown, 200);
        expect(unknown.body).toEqual({});
      }
      expectError(await api.get('/rpc/get_producto/abc'), 400, 'INVALID_ID');

      const year = new Date().getUTCFullYear();
      const tickets = await api.post('/rpc/report_tickets', { year });
      expectStatus(tickets, 200);
      expect(tickets.body).toMatchObject({
        year,
        total: expect.any(Number),
        total_tickets: expect.any(Number),
      });
      expect(tickets.body.meses.map((m: { mes: number }) => m.mes)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );

      const gastos = await api.post('/rpc/report_gastos', { year });
      expectStatus(gastos, 200);
      expect(gastos.body).toMatchObject({ year, total: expect.any(Number) });
      expect(gastos.body.meses).toHaveLength(12);
      expect(Array.isArray(gastos.body.proveedores)).toBe(true);
      const gastosGet = await api.get(`/rpc/report_gastos?year=${year}`);
      expectStatus(gastosGet, 200);
      expect(gastosGet.body).toMatchObject({ year });
      expect(gastosGet.body.meses).toHaveLength(12);

      const asistencia = await api.post('/rpc/report_asistencia', {});
      expectStatus(asistencia, 200);
      expect(asistencia.body).toMatchObject({
        desde: expect.stringMatching(DAY),
        hasta: expect.stringMatching(DAY),
      });
      const personas = asistencia.body.personas as { documento: string }[];
      expect(Array.isArray(personas)).toBe(true);
      const range = { desde: asistencia.body.desde, hasta: asistencia.body.hasta };
      if (personas.length > 0) {
        const doc = personas[0].documento;
        const one = await api.post('/rpc/asistencia_get', { doc, ...range });
        expectStatus(one, 200);
        expect(one.body).toMatchObject({ usuario: { documento: doc } });
        for (const key of ['marcas', 'intervalos', 'resumen'])
          expect(Array.isArray(one.body[key])).toBe(true);
        const found = await api.post('/rpc/find_usuarios_por_documentos', { docs: [doc] });
        expectStatus(found, 200);
        expect(found.body[doc]).toMatchObject({ documento: doc });
      }
      const nobody = await api.post('/rpc/asistencia_get', { doc: 'contract-nobody', ...range });
      expectStatus(nobody, 200);
      expect(nobody.body).toEqual({ marcas: [], intervalos: [], resumen: [], usuario: null });
    });
  });

  describe('authentication', () => {
    it('with a token (E2E_TOKEN) refuses a request without one (401), without one serves it', async () => {
      const res = await api.get('/tenant', { withoutToken: true });
      if (!contract.target.token) {
        // no token given: the instance serves the tenant without credentials (AUTH_MODE=off)
        expectStatus(res, 200);
        return;
      }
      expectError(res, 401, 'UNAUTHENTICATED', { reason: 'missing' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="comandas"');
      const comandas = await api.get('/comandas', { withoutToken: true });
      expectError(comandas, 401, 'UNAUTHENTICATED');
      const forged = await api.get('/tenant', {
        withoutToken: true,
        headers: { Authorization: 'Bearer not-a-token' },
      });
      expectError(forged, 401, 'UNAUTHENTICATED', { reason: 'malformed' });
      expect(forged.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    });
  });
});
