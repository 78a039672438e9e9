import request from 'supertest';
import { featureDefinitions } from '../../src/common/config/features';
import { startTestApp, type TestApp } from '../support/test-app';

describe('tenant-context middleware', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant('acme', { name: 'Acme Norte' });
    await t.dbs.createTenant('closed', { status: 'suspended' });
    await t.dbs.createTenant('halfway', { status: 'provisioning' });
  });

  afterAll(() => t.close());

  it('serves a known active tenant', async () => {
    const res = await request(t.http).get('/api/v1/tenant').set('X-Tenant-ID', 'acme').expect(200);
    expect(res.body).toEqual({
      slug: 'acme',
      name: 'Acme Norte',
      status: 'active',
      timeZone: 'America/Lima',
      // every feature of the module list, at its default (a module's own: its plugin's)
      features: Object.fromEntries(
        [...featureDefinitions()].map(([feature, { default: on }]) => [feature, on]),
      ),
    });
    expect(res.body.features).toMatchObject({
      genericTables: false,
      rpc: false,
      reservas: true,
      cobros: false,
      inventario: false,
      cocina: false,
      reportes: false,
      webhooks: false,
    });
  });

  it('answers 400 TENANT_REQUIRED without the header', async () => {
    const res = await request(t.http).get('/api/v1/tenant').expect(400);
    expect(res.body).toMatchObject({
      code: 'TENANT_REQUIRED',
      error: expect.stringContaining('X-Tenant-ID'),
    });
  });

  it.each(['Acme', '1acme', 'a', 'acme;drop table tenants', 'a'.repeat(70), '../etc'])(
    'answers 400 TENANT_INVALID for the malformed slug %j',
    async (slug) => {
      const res = await request(t.http).get('/api/v1/tenant').set('X-Tenant-ID', slug).expect(400);
      expect(res.body.code).toBe('TENANT_INVALID');
    },
  );

  it('answers 404 TENANT_NOT_FOUND for an unknown tenant', async () => {
    const res = await request(t.http)
      .get('/api/v1/tenant')
      .set('X-Tenant-ID', 'nobody')
      .expect(404);
    expect(res.body).toMatchObject({
      code: 'TENANT_NOT_FOUND',
      error: 'Tenant "nobody" does not exist',
    });
  });

  it('answers 403 TENANT_SUSPENDED for a suspended tenant', async () => {
    const res = await request(t.http)
      .get('/api/v1/tenant')
      .set('X-Tenant-ID', 'closed')
      .expect(403);
    expect(res.body.code).toBe('TENANT_SUSPENDED');
  });

  it('answers 503 with Retry-After for a tenant still being provisioned', async () => {
    const res = await request(t.http)
      .get('/api/v1/tenant')
      .set('X-Tenant-ID', 'halfway')
      .expect(503);
    expect(res.body.code).toBe('TENANT_PROVISIONING');
    expect(res.headers['retry-after']).toBe('5');
  });

  it('answers 503 DATABASE_UNAVAILABLE when the tenant database is gone, and serves others', async () => {
    await t.dbs.query(
      t.dbs.controlUrl,
      `INSERT INTO tenants (slug, name, database_name, status) VALUES ('lost', 'Lost', $1, 'active')`,
      [`${t.dbs.prefix}never-created`],
    );
    const res = await request(t.http).get('/api/v1/tenant').set('X-Tenant-ID', 'lost').expect(503);
    expect(res.body.code).toBe('DATABASE_UNAVAILABLE');
    expect(res.headers['retry-after']).toBe('5');
    await request(t.http).get('/api/v1/tenant').set('X-Tenant-ID', 'acme').expect(200);
  });

  it('sees a suspension made in the catalog without a restart', async () => {
    await t.dbs.createTenant('flip');
    await request(t.http).get('/api/v1/tenant').set('X-Tenant-ID', 'flip').expect(200);
    await t.dbs.query(
      t.dbs.controlUrl,
      "UPDATE tenants SET status = 'suspended' WHERE slug = 'flip'",
    );
    await request(t.http).get('/api/v1/tenant').set('X-Tenant-ID', 'flip').expect(403);
  });

  it('answers an unknown route with 404 in the error envelope, tenant or not', async () => {
    const bare = await request(t.http).get('/api/v1/nothing-here').expect(404);
    expect(bare.body).toMatchObject({
      error: 'Cannot GET /api/v1/nothing-here',
      code: 'NOT_FOUND',
    });
    const withTenant = await request(t.http)
      .get('/api/v1/nothing-here')
      .set('X-Tenant-ID', 'nobody')
      .expect(404);
    expect(withTenant.body).toMatchObject({
      error: 'Cannot GET /api/v1/nothing-here',
      code: 'NOT_FOUND',
    });
  });

  it('puts a request id on every response, keeping a sane incoming one', async () => {
    const generated = await request(t.http).get('/api/v1/tenant').set('X-Tenant-ID', 'acme');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await request(t.http).get('/api/v1/tenant').set('X-Request-Id', 'gateway-42');
    expect(kept.headers['x-request-id']).toBe('gateway-42');
    expect(kept.body.requestId).toBe('gateway-42');
    const replaced = await request(t.http)
      .get('/api/v1/tenant')
      .set('X-Request-Id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('answers malformed JSON with 400 in the envelope', async () => {
    const res = await request(t.http)
      .post('/api/v1/tenant')
      .set('X-Tenant-ID', 'acme')
      .set('Content-Type', 'application/json')
      .send('{"broken":');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      error: 'request body is not valid JSON',
    });
  });
});
