import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';

describe('health and OpenAPI', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(() => t.close());

  it('GET /api/health needs no tenant and reports the database ready', async () => {
    const res = await request(t.http).get('/api/health').expect(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      database: { status: 'up', latencyMs: expect.any(Number) },
      embeddedDatabase: false,
      tenantDataSources: 0,
    });
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('answers 503 while the control database refuses connections, and recovers by itself', async () => {
    const db = t.dbs.controlDatabase;
    await t.dbs.query(t.dbs.serverUrl, `ALTER DATABASE "${db}" ALLOW_CONNECTIONS false`);
    await t.dbs.query(
      t.dbs.serverUrl,
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
      [db],
    );
    try {
      const down = await request(t.http).get('/api/health').expect(503);
      expect(down.headers['retry-after']).toBe('5');
      expect(down.body).toMatchObject({
        status: 'unavailable',
        database: { status: 'down' },
        code: 'DATABASE_UNAVAILABLE',
      });
    } finally {
      await t.dbs.query(t.dbs.serverUrl, `ALTER DATABASE "${db}" ALLOW_CONNECTIONS true`);
    }
    await request(t.http).get('/api/health').expect(200);
  });

  it('serves the OpenAPI document and the Swagger UI', async () => {
    const doc = await request(t.http).get('/api/docs-json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/v1/tenant']),
    );
    const ui = await request(t.http).get('/api/docs').redirects(1).expect(200);
    expect(ui.text).toContain('swagger');
  });

  it('documents every comanda route with its schemas and error responses', async () => {
    const doc = (await request(t.http).get('/api/docs-json').expect(200)).body;
    const routes: [string, string, string[]][] = [
      ['/api/v1/comandas', 'get', ['200', '400']],
      ['/api/v1/comandas', 'post', ['201', '400']],
      ['/api/v1/comandas/{id}', 'get', ['200', '400', '404']],
      ['/api/v1/comandas/{id}', 'put', ['200', '400', '404', '409', '412']],
      ['/api/v1/comandas/{id}', 'delete', ['200', '404', '409', '412']],
      ['/api/v1/comandas/{id}/eventos', 'get', ['200', '404']],
      ['/api/v1/comandas/{id}/items', 'post', ['201', '400', '404', '409', '412']],
      ['/api/v1/comandas/{id}/items/{itemId}', 'patch', ['200', '404', '409', '412']],
      ['/api/v1/comandas/{id}/items/{itemId}', 'delete', ['200', '404', '409', '412']],
    ];
    for (const [path, method, statuses] of routes) {
      const operation = doc.paths[path]?.[method];
      expect(operation).toBeDefined();
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(statuses));
      expect(operation.parameters.some((p: { name: string }) => p.name === 'X-Tenant-ID')).toBe(
        true,
      );
    }
    const put = doc.paths['/api/v1/comandas/{id}'].put;
    expect(put.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/UpdateComandaBody',
    );
    expect(put.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ComandaDetail',
    );
    expect(put.responses['409'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ErrorBody',
    );
    expect(doc.components.schemas.ComandaDetail.properties.lineas.items.$ref).toBe(
      '#/components/schemas/ComandaItem',
    );
  });

  it('has no route outside the api prefix', async () => {
    const res = await request(t.http).get('/health').expect(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});
