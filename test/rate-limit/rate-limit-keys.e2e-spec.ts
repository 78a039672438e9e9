import { getStorageToken, type ThrottlerStorageService } from '@nestjs/throttler';
import request from 'supertest';
import { TenantCatalogService } from '../../src/tenancy/tenant-catalog.service';
import { seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * What the rate limit counts a request under (docs/security.md, "Rate limit"): a client of a
 * tenant the catalog knows, once the caller passed authentication; anything else (an unknown
 * X-Tenant-ID, a bad token, a time clock) under the client's address alone, whatever its
 * headers say. Each test sends from an address of its own (X-Forwarded-For through
 * TRUST_PROXY=loopback), so their counts are apart.
 */

const LIMIT = 5;

describe('the rate limit’s keys', () => {
  let t: TestApp;
  let address = 0;
  const nextAddress = () => `10.20.0.${(address += 1)}`;

  beforeAll(async () => {
    t = await startTestApp({
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
      RATE_LIMIT_MAX: String(LIMIT),
      RATE_LIMIT_WINDOW_MS: '60000',
      TRUST_PROXY: 'loopback',
    });
    for (const slug of ['norte', 'sur']) {
      await t.dbs.createTenant(slug);
      await seedMenu(t.dbs, slug);
      await seedStaff(t.dbs, slug);
    }
  });

  afterAll(() => t.close());

  const from = (client: string, tenant: string | undefined, token?: string) => {
    const req = request(t.http).get('/api/v1/comandas').set('X-Forwarded-For', client);
    if (tenant) req.set('X-Tenant-ID', tenant);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req;
  };

  it('counts requests naming unknown tenants under their address, however many names it tries', async () => {
    const client = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i += 1)
      statuses.push((await from(client, `desconocido${i}`, tokenFor(`desconocido${i}`, 1))).status);
    // well signed for the tenant they name, which does not exist
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(404));
    expect(statuses.slice(LIMIT)).toEqual(Array(60 - LIMIT).fill(429));
    const limited = await from(client, 'otro-mas');
    expect(limited.body.error).toContain('from an address without a known tenant or a valid token');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // a known tenant's signed-in staff from the same address keep their own budget
    await from(client, 'norte', tokenFor('norte', STAFF.mozo.id)).expect(200);
  });

  it('counts requests with bad tokens under their address, whichever known tenant they name', async () => {
    const client = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const tenant = i % 2 === 0 ? 'norte' : 'sur';
      statuses.push((await from(client, tenant, `not-a-token-${i}`)).status);
    }
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(statuses.slice(LIMIT)).toEqual(Array(20 - LIMIT).fill(429));
    // a token of another tenant than the one named is no more valid
    const other = nextAddress();
    for (let i = 0; i < LIMIT; i += 1)
      await from(other, i % 2 === 0 ? 'norte' : 'sur', tokenFor('zzz', 1)).expect(403);
    await from(other, 'norte', tokenFor('zzz', 1)).expect(429);
  });

  it('gives each known tenant its own budget for an authenticated client, and the public routes of a known tenant theirs', async () => {
    const client = nextAddress();
    for (const tenant of ['norte', 'sur']) {
      const token = tokenFor(tenant, STAFF.mozo.id);
      for (let i = 0; i < LIMIT; i += 1) await from(client, tenant, token).expect(200);
      await from(client, tenant, token).expect(429);
    }
    // sign-in needs no token: a known tenant's PIN pad is counted under that tenant
    const pad = nextAddress();
    for (let i = 0; i < LIMIT; i += 1)
      await request(t.http)
        .post('/api/v1/auth/pin')
        .set('X-Forwarded-For', pad)
        .set('X-Tenant-ID', 'norte')
        .send({ pin: '9999' })
        .expect(401);
    await request(t.http)
      .post('/api/v1/auth/pin')
      .set('X-Forwarded-For', pad)
      .set('X-Tenant-ID', 'sur')
      .send({ pin: '9999' })
      .expect(401);
  });

  it('counts a time clock under its address: a serial proves nothing', async () => {
    const client = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1)
      statuses.push(
        (await request(t.http).get(`/iclock/cdata?SN=CLK${i}`).set('X-Forwarded-For', client))
          .status,
      );
    expect(statuses.slice(LIMIT)).toEqual(Array(12 - LIMIT).fill(429));
  });

  it('keeps what it remembers bounded whatever the names tried', async () => {
    const storage = t.app.get<ThrottlerStorageService>(getStorageToken());
    const before = storage.storage.size;
    const client = nextAddress();
    for (let i = 0; i < 200; i += 1) await from(client, `inventado${i}`);
    // one count for the address, not one per name
    expect(storage.storage.size).toBe(before + 1);
    // and the catalog keeps at most 10,000 names it looked up, known or not
    const catalog = t.app.get(TenantCatalogService);
    for (let i = 0; i < 10_200; i += 100)
      await Promise.all(Array.from({ length: 100 }, (_, j) => catalog.find(`nadie${i + j}`)));
    expect(catalog.cachedCount).toBeLessThanOrEqual(10_000);
    expect(await catalog.find('norte')).toMatchObject({ slug: 'norte' });
  });
});
