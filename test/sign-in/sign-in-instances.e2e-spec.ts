/**
 * Staff sign-in on two service processes sharing one PostgreSQL and one Redis, as behind a load
 * balancer: the lockout is counted across both (REDIS_URL), a sign-out on one ends the session on
 * the other, and neither logs a secret or a hash, even at LOG_LEVEL=debug.
 *
 * Needs a Redis (TEST_REDIS_URL, or redis://127.0.0.1:6379): see test/support/redis.ts for what
 * happens without one (a warning outside CI, a failure with CI=true).
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { SIGN_IN_KEY_PREFIX } from '../../src/sign-in/attempt-counter';
import { seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { seedMenu } from '../support/fixtures';
import { freePort, MAIN_JS, RunningProcess } from '../support/processes';
import { RedisProbe, TEST_REDIS_URL } from '../support/redis';
import { TestDatabases } from '../support/test-databases';

const probe = new RedisProbe('the sign-in tests across instances');
const slug = `si${randomBytes(4).toString('hex')}`;
const PASSWORD = 'ceviche-de-lunes';
const PIN = '4827';

describe('staff sign-in across two instances (real processes, Redis)', () => {
  let dbs: TestDatabases;
  const instances: { service: RunningProcess; base: string }[] = [];

  const start = async () => {
    const port = await freePort();
    const service = new RunningProcess(
      MAIN_JS,
      dbs.env({
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
        AUTH_MODE: 'jwt',
        AUTH_JWT_SECRET: TEST_SECRET,
        REDIS_URL: TEST_REDIS_URL,
        // every request reads the user's sessions: a sign-out on A applies on B at once
        TENANT_CACHE_TTL_MS: '0',
      }),
    );
    await service.waitForOutput('is listening on');
    const instance = { service, base: `http://127.0.0.1:${port}` };
    instances.push(instance);
    return instance;
  };

  const api = (base: string, token?: string) => {
    const prepare = (req: request.Test) => {
      req.set('X-Tenant-ID', slug);
      return token ? req.set('Authorization', `Bearer ${token}`) : req;
    };
    return {
      get: (path: string) => prepare(request(base).get(`/api/v1${path}`)),
      post: (path: string, body?: object) =>
        prepare(request(base).post(`/api/v1${path}`)).send(body),
      put: (path: string, body?: object) => prepare(request(base).put(`/api/v1${path}`)).send(body),
    };
  };

  beforeAll(async () => {
    await probe.probe();
    dbs = await TestDatabases.create();
    await dbs.createTenant(slug);
    await seedMenu(dbs, slug);
    await seedStaff(dbs, slug);
  });

  afterAll(async () => {
    await RunningProcess.stopAll();
    const keys = await probe.client?.keys(`${SIGN_IN_KEY_PREFIX}${slug}|*`);
    if (keys && keys.length > 0) await probe.client!.del(...keys);
    probe.close();
    await dbs.drop();
  });

  it('counts failures on both toward one lockout; a sign-out on one ends the session on the other; nothing secret is logged', async () => {
    if (!probe.available()) return;
    const a = await start();
    const b = await start();
    const admin = tokenFor(slug, STAFF.admin.id);
    await api(a.base, admin)
      .put(`/usuarios/${STAFF.mozo.id}/credenciales`, { password: PASSWORD, pin: PIN })
      .expect(200);

    // the account: 3 failures through A, 2 through B, and the sixth attempt is refused on A
    const login = (base: string, password: string) =>
      api(base).post('/auth/login', { documento: STAFF.mozo.documento, password });
    for (let i = 0; i < 3; i += 1) await login(a.base, `equivocada-${i}`).expect(401);
    for (let i = 0; i < 2; i += 1) await login(b.base, `equivocada-${i}`).expect(401);
    const locked = await login(a.base, PASSWORD).expect(429);
    expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);

    // the PIN pad, from this one client address: 2 wrong on A, 3 on B, then refused on A
    const pad = (base: string, pin: string) => api(base).post('/auth/pin', { pin });
    for (const pin of ['5092', '6103']) await pad(a.base, pin).expect(401);
    const signedIn = await pad(b.base, PIN).expect(200);
    for (const pin of ['7214', '8325', '9436']) await pad(b.base, pin).expect(401);
    expect((await pad(a.base, PIN).expect(429)).body.code).toBe('TOO_MANY_ATTEMPTS');
    const keys = await probe.client!.keys(`${SIGN_IN_KEY_PREFIX}${slug}|*`);
    expect(keys.length).toBeGreaterThanOrEqual(2);

    // a session opened through B, signed out through A, ends on B
    const token = signedIn.body.access_token as string;
    await api(b.base, token).get('/comandas').expect(200);
    await api(a.base, token).post('/auth/logout').expect(204);
    const ended = await api(b.base, token).get('/comandas').expect(401);
    expect(ended.body.detail).toEqual({ reason: 'session_ended' });

    // the log lines (JSON, LOG_FORMAT=json), not the start banner with its example request
    const logs = instances
      .flatMap((i) => `${i.service.stdout}\n${i.service.stderr}`.split('\n'))
      .filter((line) => line.startsWith('{'))
      .join('\n');
    expect(logs).toContain('staff signed in');
    expect(logs).toContain('staff credentials changed');
    expect(logs).not.toContain(PASSWORD);
    expect(logs).not.toContain('scrypt$');
    expect(logs).not.toMatch(new RegExp(`"(pin|password)":\\s*"`));
    expect(logs).not.toContain(token);
  });
});
