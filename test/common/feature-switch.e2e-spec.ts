import { Controller, Get, Module } from '@nestjs/common';
import request from 'supertest';
import { RequiresFeature } from '../../src/tenancy/tenancy.decorators';
import { TestDatabases } from '../support/test-databases';
import { startTestApp, type TestApp } from '../support/test-app';

/** A probe standing for the modules that come next (generic tables, RPC). */
@Controller('probe')
@RequiresFeature('rpc')
class ProbeController {
  @Get()
  probe() {
    return { reached: true };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('feature switches', () => {
  let dbs: TestDatabases;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    await dbs.createTenant('plain');
    await dbs.createTenant('opted-in', { features: { rpc: true } });
    await dbs.createTenant('opted-out', { features: { rpc: false } });
    await dbs.createTenant('frozen', { status: 'suspended', features: { rpc: true } });
  });

  afterAll(() => dbs.drop());

  describe('switched off globally (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({}, dbs, [ProbeModule]);
    });
    afterAll(() => t.close());

    it('answers exactly like a route that does not exist, whatever the tenant header says', async () => {
      const unknown = await request(t.http)
        .get('/api/v1/probe-that-does-not-exist')
        .set('X-Tenant-ID', 'plain');
      for (const header of [undefined, 'plain', 'NOT VALID', 'nobody']) {
        const req = request(t.http).get('/api/v1/probe');
        const res = await (header ? req.set('X-Tenant-ID', header) : req);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          ...unknown.body,
          error: 'Cannot GET /api/v1/probe',
          requestId: res.headers['x-request-id'],
        });
      }
    });

    it('is on for a tenant whose catalog row turns it on', async () => {
      const res = await request(t.http)
        .get('/api/v1/probe')
        .set('X-Tenant-ID', 'opted-in')
        .expect(200);
      expect(res.body).toEqual({ reached: true });
    });

    it('still refuses a suspended tenant that has it on', async () => {
      const res = await request(t.http)
        .get('/api/v1/probe')
        .set('X-Tenant-ID', 'frozen')
        .expect(403);
      expect(res.body.code).toBe('TENANT_SUSPENDED');
    });

    it('follows a change of the override without a restart', async () => {
      await dbs.query(
        dbs.controlUrl,
        `UPDATE tenants SET features = '{"rpc": true}' WHERE slug = 'plain'`,
      );
      await request(t.http).get('/api/v1/probe').set('X-Tenant-ID', 'plain').expect(200);
      await dbs.query(dbs.controlUrl, `UPDATE tenants SET features = '{}' WHERE slug = 'plain'`);
      await request(t.http).get('/api/v1/probe').set('X-Tenant-ID', 'plain').expect(404);
    });

    it('marks the operation switchable and off by default in the OpenAPI document', async () => {
      const res = await request(t.http).get('/api/docs-json').expect(200);
      const operation = res.body.paths['/api/v1/probe'].get;
      expect(operation['x-feature']).toBe('rpc');
      expect(operation['x-enabled']).toBe(false);
      expect(operation.summary).toContain('[switchable, off by default]');
      expect(operation.description).toContain('npm run tenant -- feature SLUG rpc on');
      expect(operation.responses['404'].content['application/json'].examples).toHaveProperty(
        'NOT_FOUND',
      );
    });
  });

  describe('switched on with FEATURE_RPC=true', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ FEATURE_RPC: 'true' }, dbs, [ProbeModule]);
    });
    afterAll(() => t.close());

    it('serves tenants without an override and applies the tenant checks', async () => {
      await request(t.http).get('/api/v1/probe').set('X-Tenant-ID', 'plain').expect(200);
      const missing = await request(t.http).get('/api/v1/probe').expect(400);
      expect(missing.body.code).toBe('TENANT_REQUIRED');
    });

    it('stays off for a tenant whose catalog row turns it off', async () => {
      const res = await request(t.http)
        .get('/api/v1/probe')
        .set('X-Tenant-ID', 'opted-out')
        .expect(404);
      expect(res.body).toMatchObject({ error: 'Cannot GET /api/v1/probe', code: 'NOT_FOUND' });
    });
  });
});
