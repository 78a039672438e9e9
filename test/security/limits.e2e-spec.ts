import { Controller, Get, Module } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { TenancyModule } from '../../src/tenancy/tenancy.module';
import { TenantContext } from '../../src/tenancy/tenant-context';
import { startTestApp, type TestApp } from '../support/test-app';

/** Routes that are slow on purpose, mounted for this file only. */
@Controller('probe')
class SlowProbeController {
  constructor(private readonly context: TenantContext) {}

  @Get('slow-handler')
  async slowHandler() {
    await sleep(1_500);
    return { done: true };
  }

  @Get('slow-statement')
  async slowStatement() {
    await this.context.dataSource.query('SELECT pg_sleep(2)');
    return { done: true };
  }
}

@Module({ imports: [TenancyModule], controllers: [SlowProbeController] })
class SlowProbeModule {}

const POS = 'https://pos.example.com';

describe('limits: rate, security headers, CORS, timeouts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(
      {
        RATE_LIMIT_MAX: '5',
        RATE_LIMIT_WINDOW_MS: '60000',
        CORS_ORIGINS: `${POS}, http://localhost:5173`,
        REQUEST_TIMEOUT_MS: '500',
        DB_STATEMENT_TIMEOUT_MS: '250',
      },
      undefined,
      [SlowProbeModule],
    );
    for (const slug of ['uno', 'dos', 'tres', 'cuatro']) await t.dbs.createTenant(slug);
  });

  afterAll(() => t.close());

  const get = (path: string, tenant?: string) => {
    const req = request(t.http).get(path);
    return tenant ? req.set('X-Tenant-ID', tenant) : req;
  };

  it('answers 429 with Retry-After past RATE_LIMIT_MAX requests of a client to one tenant', async () => {
    for (let i = 0; i < 5; i += 1) await get('/api/v1/comandas', 'uno').expect(200);
    const limited = await get('/api/v1/comandas', 'uno').expect(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', requestId: expect.any(String) });
    expect(limited.body.error).toContain('at most 5 every 60 s');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // another tenant of the same client has its own budget; health has none
    await get('/api/v1/comandas', 'dos').expect(200);
    for (let i = 0; i < 8; i += 1) await get('/api/health').expect(200);
  });

  it('sends security headers on every answer, errors and docs included', async () => {
    for (const res of [
      await get('/api/health'),
      await get('/api/v1/nope', 'tres'),
      await get('/api/docs'),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('lets the allowed origins call the API from a browser, and no other', async () => {
    const preflight = await request(t.http)
      .options('/api/v1/comandas')
      .set('Origin', POS)
      .set('Access-Control-Request-Method', 'PUT')
      .set('Access-Control-Request-Headers', 'x-tenant-id,if-match,content-type')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(POS);
    expect(preflight.headers['access-control-allow-methods']).toContain('PUT');
    expect(preflight.headers['access-control-allow-headers']).toContain('x-tenant-id');

    const allowed = await get('/api/v1/comandas', 'tres').set('Origin', POS).expect(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(POS);
    expect(allowed.headers['access-control-expose-headers']).toContain('X-Total-Count');

    const other = await get('/api/v1/comandas', 'tres').set('Origin', 'https://evil.example.com');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers 503 REQUEST_TIMEOUT with Retry-After when a handler runs past REQUEST_TIMEOUT_MS', async () => {
    const started = Date.now();
    const res = await get('/api/v1/probe/slow-handler', 'cuatro').expect(503);
    expect(Date.now() - started).toBeLessThan(1_400);
    expect(res.body).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(res.headers['retry-after']).toBe('5');
  });

  it('cancels a tenant statement past DB_STATEMENT_TIMEOUT_MS: 503 with Retry-After, the connection stays usable', async () => {
    const res = await get('/api/v1/probe/slow-statement', 'cuatro').expect(503);
    expect(res.body).toMatchObject({ code: '57014' });
    expect(res.headers['retry-after']).toBe('1');
    await get('/api/v1/comandas', 'cuatro').expect(200);
  });
});
