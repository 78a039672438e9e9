import request from 'supertest';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * What an HTTP client gets for a body or a method the route cannot take: 415 for a body of
 * another media type (never a silently dropped body), 400 INVALID_BODY for JSON that is not an
 * object, 405 with Allow for a method the path does not serve, and one validation message per
 * field.
 */
describe('request bodies, methods and validation messages', () => {
  let t: TestApp;
  let api: TenantApi;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant('casa');
    await t.dbs.createTenant('tablas', { features: { genericTables: true } });
    await seedMenu(t.dbs, 'casa');
    api = tenantApi(t.http, 'casa');
  });
  afterAll(() => t.close());

  const comandas = async () =>
    (
      await t.dbs.query<{ n: number }>(
        t.dbs.tenantUrl('casa'),
        'SELECT count(*)::int AS n FROM comandas',
      )
    )[0].n;

  describe('a body the route cannot read', () => {
    it('refuses a form-encoded body (curl -d) with 415 naming the expected type, and creates nothing', async () => {
      const before = await comandas();
      const res = await request(t.http)
        .post('/api/v1/comandas')
        .set('X-Tenant-ID', 'casa')
        .type('form')
        .send('id_mesa=3&observacion=ventana')
        .expect(415);
      expect(res.body).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        error:
          'The body must be sent as application/json (it came as application/x-www-form-urlencoded)',
        detail: { expected: ['application/json'], received: 'application/x-www-form-urlencoded' },
        requestId: res.headers['x-request-id'],
      });
      expect(await comandas()).toBe(before);
    });

    it('refuses a text body on a JSON route, and JSON on the multipart import route', async () => {
      await request(t.http)
        .put('/api/v1/comandas/1')
        .set('X-Tenant-ID', 'casa')
        .set('Content-Type', 'text/plain')
        .send('cerrar')
        .expect(415);
      const res = await request(t.http)
        .post('/api/v1/asistencia/import')
        .set('X-Tenant-ID', 'casa')
        .send({ driver: 'zkteco-attlog' })
        .expect(415);
      expect(res.body.detail.expected).toEqual(['multipart/form-data']);
    });

    it.each([
      ['"x"', 'string'],
      ['null', 'null'],
      ['[]', 'array'],
      ['42', 'number'],
    ])('refuses the JSON body %s with 400 INVALID_BODY', async (body, received) => {
      const before = await comandas();
      const res = await request(t.http)
        .post('/api/v1/comandas')
        .set('X-Tenant-ID', 'casa')
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(400);
      expect(res.body).toMatchObject({
        code: 'INVALID_BODY',
        error: 'The body must be a JSON object',
        detail: { received },
      });
      expect(await comandas()).toBe(before);
    });

    it('still says malformed JSON is malformed', async () => {
      const res = await request(t.http)
        .post('/api/v1/comandas')
        .set('X-Tenant-ID', 'casa')
        .set('Content-Type', 'application/json')
        .send('{"id_mesa": 3')
        .expect(400);
      expect(res.body.error).toBe('request body is not valid JSON');
    });

    it('takes a JSON body, and a write with no body at all', async () => {
      await api.post('/comandas', { id_mesa: MENU.mesas[0] }).expect(201);
      await request(t.http).post('/api/v1/comandas').set('X-Tenant-ID', 'casa').expect(201);
    });

    it('answers 404, not 415, on a route that does not exist', async () => {
      await request(t.http)
        .post('/api/v1/nothing-here')
        .set('X-Tenant-ID', 'casa')
        .type('form')
        .send('a=1')
        .expect(404);
    });
  });

  describe('a method the path does not serve', () => {
    it('answers 405 with Allow listing the methods the path serves', async () => {
      const res = await request(t.http)
        .patch('/api/v1/comandas')
        .set('X-Tenant-ID', 'casa')
        .send({})
        .expect(405);
      expect(res.headers.allow).toBe('GET, HEAD, POST');
      expect(res.body).toMatchObject({
        code: 'METHOD_NOT_ALLOWED',
        error: 'PATCH is not served on /api/v1/comandas: use GET, HEAD, POST',
        detail: { allowed: ['GET', 'HEAD', 'POST'] },
      });
      const one = await request(t.http).post('/api/v1/comandas/7').set('X-Tenant-ID', 'casa');
      expect(one.status).toBe(405);
      expect(one.headers.allow).toBe('DELETE, GET, HEAD, PUT');
    });

    it('does the same outside /api (the clock paths) and on paths without a tenant', async () => {
      const clock = await request(t.http).put('/iclock/cdata?SN=X1').send('x').expect(405);
      expect(clock.headers.allow).toBe('GET, HEAD, POST');
      const health = await request(t.http).delete('/api/health').expect(405);
      expect(health.headers.allow).toBe('GET, HEAD');
    });

    it('keeps a switched-off route unknown: 404, never a 405 that reveals it', async () => {
      const off = await request(t.http).delete('/api/v1/table/mesas').set('X-Tenant-ID', 'casa');
      expect(off.status).toBe(404);
      expect(off.body.error).toBe('Cannot DELETE /api/v1/table/mesas');
      const on = await request(t.http).delete('/api/v1/table/mesas').set('X-Tenant-ID', 'tablas');
      expect(on.status).toBe(405);
      expect(on.headers.allow).toBe('GET, HEAD, POST');
    });

    it('answers 404 for a path that exists with no method', async () => {
      await request(t.http).get('/api/v1/comandas/1/nada').set('X-Tenant-ID', 'casa').expect(404);
    });
  });

  describe('validation messages', () => {
    it('names the type of a value of the wrong type, one message per field', async () => {
      const res = await api.post('/comandas', { id_mesa: 'tres' }).expect(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: ['id_mesa must be an integer number'],
      });
    });

    it('says a query parameter given twice once', async () => {
      const res = await api.get('/comandas?limit=5&limit=6').expect(400);
      expect(res.body.detail).toEqual(['limit must be given once (it was given 2 times)']);
    });

    it('catches an id out of range before the database does', async () => {
      const res = await api.get('/comandas?id_mesa=99999999999').expect(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: ['id_mesa must not be greater than 2147483647'],
      });
    });

    it('says a missing multipart field is missing', async () => {
      const res = await request(t.http)
        .post('/api/v1/asistencia/import')
        .set('X-Tenant-ID', 'casa')
        .attach('file', Buffer.from('1\t2026-11-20 08:00:00\n'), 'attlog.dat')
        .expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', detail: ['driver is required'] });
    });
  });
});
