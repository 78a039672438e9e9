/**
 * Staff sign-in under parallel guesses and floods (docs/sign-in.md, "Lockout" and "The hash
 * queue"), on PostgreSQL, the whole application listening on 127.0.0.1:
 * - the lockout reserves each attempt before the secret is hashed, so guesses sent all at once
 *   get no more verifications than guesses sent one by one: in the tenant's database without
 *   Redis (shared by two instances, kept across a restart), and in Redis with REDIS_URL;
 * - the hash queue is shared fairly between client addresses and tenants, and bounded: a flood
 *   from one address does not hold another's sign-in up, and past the bounds the answer is 429
 *   or 503 SIGN_IN_BUSY with Retry-After at once.
 *
 * The Redis cases need a Redis (TEST_REDIS_URL, or redis://127.0.0.1:6379): see
 * test/support/redis.ts for what happens without one (a warning outside CI, a failure with
 * CI=true).
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { SIGN_IN_KEY_PREFIX } from '../../src/sign-in/attempt-counter';
import { seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { seedMenu } from '../support/fixtures';
import { RedisProbe, TEST_REDIS_URL } from '../support/redis';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestDatabases } from '../support/test-databases';

const probe = new RedisProbe('the sign-in lockout tests in Redis');
const PASSWORD = 'ceviche-de-lunes';
const PIN = '4827';
/** Every device is named by X-Forwarded-For, which TRUST_PROXY=loopback trusts from 127.0.0.1. */
const BASE_ENV = { AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET, TRUST_PROXY: 'loopback' };

interface Answer {
  status: number;
  code?: string;
  retryAfter?: string;
  scope?: string;
  /** The order answers came back in, across every request of the test. */
  seq: number;
}

describe('staff sign-in under parallel guesses and floods', () => {
  let dbs: TestDatabases;
  const apps: TestApp[] = [];
  let seq = 0;
  const run = randomBytes(3).toString('hex');
  /** A tenant of its own for each test: no count of one test reaches another. */
  let tenants = 0;

  const startApp = async (env: Record<string, string> = {}) => {
    const app = await startTestApp({ ...BASE_ENV, ...env }, dbs);
    apps.push(app);
    await new Promise<void>((resolve) => app.http.listen(0, '127.0.0.1', resolve));
    return { app, base: `http://127.0.0.1:${(app.http.address() as AddressInfo).port}` };
  };

  const stopApp = async (app: TestApp) => {
    apps.splice(apps.indexOf(app), 1);
    await app.app.close();
  };

  /** A new tenant with the test staff; the mozo gets PASSWORD and PIN. */
  const newTenant = async (base: string) => {
    tenants += 1;
    const slug = `par${run}${tenants}`;
    await dbs.createTenant(slug);
    await seedMenu(dbs, slug);
    await seedStaff(dbs, slug);
    await request(base)
      .put(`/api/v1/usuarios/${STAFF.mozo.id}/credenciales`)
      .set('X-Tenant-ID', slug)
      .set('Authorization', `Bearer ${tokenFor(slug, STAFF.admin.id)}`)
      .send({ password: PASSWORD, pin: PIN })
      .expect(200);
    return slug;
  };

  const send = (base: string, slug: string, path: string, body: object, device: string) =>
    request(base)
      .post(`/api/v1/auth/${path}`)
      .set('X-Tenant-ID', slug)
      .set('X-Forwarded-For', device)
      .send(body)
      .then((res): Answer => ({
        status: res.status,
        code: res.body?.code,
        retryAfter: res.headers['retry-after'],
        scope: res.body?.detail?.scope,
        seq: (seq += 1),
      }));

  const pad = (base: string, slug: string, pin: string, device: string) =>
    send(base, slug, 'pin', { pin }, device);
  const login = (base: string, slug: string, documento: string, password: string, device: string) =>
    send(base, slug, 'login', { documento, password }, device);

  /** PINs none of the staff has, all different. */
  const wrongPins = (n: number) =>
    Array.from({ length: n }, (_, i) => String(500_000 + i * 7).padStart(6, '0'));

  const count = (answers: Answer[], status: number) =>
    answers.filter((a) => a.status === status).length;

  /** Every answer that is not `allowed` is a refusal that says when to try again. */
  const expectRefusalsWithRetryAfter = (answers: Answer[], allowed: number[]) => {
    for (const answer of answers.filter((a) => !allowed.includes(a.status))) {
      expect([429, 503]).toContain(answer.status);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
  };

  const attemptsStored = async (slug: string, clave: string) =>
    (
      await dbs.query<{ intentos: number }>(
        dbs.tenantUrl(slug),
        'SELECT intentos FROM intentos_acceso WHERE clave = $1',
        [clave],
      )
    )[0]?.intentos;

  beforeAll(async () => {
    await probe.probe();
    dbs = await TestDatabases.create();
  });

  afterAll(async () => {
    for (const app of [...apps]) await stopApp(app);
    const keys = await probe.client?.keys(`${SIGN_IN_KEY_PREFIX}par${run}*`);
    if (keys && keys.length > 0) await probe.client!.del(...keys);
    probe.close();
    await dbs.drop();
  });

  describe('the lockout, counted in the tenant’s database (no Redis)', () => {
    let base: string;
    beforeAll(async () => {
      ({ base } = await startApp());
    });

    it('200 wrong PINs at once from one address: 5 are checked (401), the rest 429 with Retry-After', async () => {
      const slug = await newTenant(base);
      const answers = await Promise.all(
        wrongPins(200).map((pin) => pad(base, slug, pin, '10.1.0.1')),
      );
      expect(count(answers, 401)).toBe(5);
      expect(count(answers, 429)).toBe(195);
      expectRefusalsWithRetryAfter(answers, [401]);
      // locked (the rest of the window), or past the address's share of the hash queue (a turn)
      for (const a of answers.filter((x) => x.status === 429))
        expect(['TOO_MANY_ATTEMPTS', 'SIGN_IN_BUSY']).toContain(a.code);
      expect(answers.some((a) => a.code === 'TOO_MANY_ATTEMPTS')).toBe(true);
      expect(await attemptsStored(slug, 'address:10.1.0.1')).toBe(5);
      const locked = await pad(base, slug, wrongPins(1)[0], '10.1.0.1');
      expect(locked).toMatchObject({ status: 429, code: 'TOO_MANY_ATTEMPTS' });
      expect(Number(locked.retryAfter)).toBeGreaterThan(14 * 60);
      // the right PIN too, afterwards; another tablet is not locked by it
      expect((await pad(base, slug, PIN, '10.1.0.1')).status).toBe(429);
      expect((await pad(base, slug, PIN, '10.1.0.2')).status).toBe(200);
    });

    it('the right PIN among 30 guesses at once: at most 5 wrong ones checked, whatever signs in', async () => {
      const slug = await newTenant(base);
      const pins = wrongPins(29);
      pins.splice(17, 0, PIN);
      const answers = await Promise.all(pins.map((pin) => pad(base, slug, pin, '10.1.0.3')));
      // a success gives its own reservation back, the failures keep theirs: at most 5 wrong
      // PINs are ever checked, and the right one signs in only when it is among the first 5
      expect(count(answers, 401)).toBeLessThanOrEqual(5);
      expect(count(answers, 200)).toBeLessThanOrEqual(1);
      expect(count(answers, 429)).toBeGreaterThanOrEqual(24);
      expect(count(answers, 200) + count(answers, 401) + count(answers, 429)).toBe(30);
      expectRefusalsWithRetryAfter(answers, [200, 401]);
      // the store holds exactly the failures answered
      expect(await attemptsStored(slug, 'address:10.1.0.3')).toBe(count(answers, 401));
    });

    it('the right password among 40 guesses at once on one account: at most 5 checked before it locks', async () => {
      const slug = await newTenant(base);
      const passwords = Array.from({ length: 39 }, (_, i) => `equivocada-${i}`);
      passwords.splice(23, 0, PASSWORD);
      // from 40 devices: the account is what is counted, not the address
      const answers = await Promise.all(
        passwords.map((password, i) =>
          login(base, slug, STAFF.mozo.documento, password, `10.2.0.${i + 1}`),
        ),
      );
      const signedIn = count(answers, 200);
      expect(signedIn).toBeLessThanOrEqual(1);
      // a success forgets the account's failures (the guesser knows the password then): only
      // then may more than 5 wrong passwords be checked, 5 more at most
      expect(count(answers, 401)).toBeLessThanOrEqual(signedIn === 0 ? 5 : 10);
      expect(count(answers, 429)).toBeGreaterThanOrEqual(signedIn === 0 ? 35 : 29);
      expectRefusalsWithRetryAfter(answers, [200, 401]);
      for (const a of answers.filter((x) => x.status === 429))
        expect(['TOO_MANY_ATTEMPTS', 'SIGN_IN_BUSY']).toContain(a.code);
      if (signedIn === 0) {
        const locked = await login(base, slug, STAFF.mozo.documento, PASSWORD, '10.2.1.1');
        expect(locked).toMatchObject({ status: 429, code: 'TOO_MANY_ATTEMPTS' });
      }
    });

    it('two instances on one database share the count (5 in all, not 5 each); a restarted one still refuses', async () => {
      const slug = await newTenant(base);
      const other = await startApp();
      const pins = wrongPins(20);
      const answers = await Promise.all(
        pins.map((pin, i) => pad(i % 2 === 0 ? base : other.base, slug, pin, '10.3.0.1')),
      );
      expect(count(answers, 401)).toBe(5);
      expect(count(answers, 429)).toBe(15);
      // one after another too: 3 wrong passwords through one, 2 through the other
      for (let i = 0; i < 3; i += 1)
        expect((await login(base, slug, STAFF.mozo.documento, `mal-${i}`, '10.3.0.2')).status).toBe(
          401,
        );
      for (let i = 0; i < 2; i += 1)
        expect(
          (await login(other.base, slug, STAFF.mozo.documento, `mal-${i}`, '10.3.0.2')).status,
        ).toBe(401);
      expect((await login(base, slug, STAFF.mozo.documento, PASSWORD, '10.3.0.2')).status).toBe(
        429,
      );

      // a restart forgets nothing: the other instance stops, a new one starts
      await stopApp(other.app);
      const restarted = await startApp();
      expect(await pad(restarted.base, slug, PIN, '10.3.0.1')).toMatchObject({
        status: 429,
        code: 'TOO_MANY_ATTEMPTS',
      });
      expect(
        await login(restarted.base, slug, STAFF.mozo.documento, PASSWORD, '10.3.0.2'),
      ).toMatchObject({ status: 429, code: 'TOO_MANY_ATTEMPTS' });
      await stopApp(restarted.app);
    });
  });

  describe('the lockout, counted in Redis (REDIS_URL)', () => {
    it('200 wrong PINs at once across two instances: 5 checked; a restarted instance still refuses', async () => {
      if (!probe.available()) return;
      const redisEnv = { REDIS_URL: TEST_REDIS_URL };
      const a = await startApp(redisEnv);
      const b = await startApp(redisEnv);
      const slug = await newTenant(a.base);
      const answers = await Promise.all(
        wrongPins(200).map((pin, i) => pad(i % 2 === 0 ? a.base : b.base, slug, pin, '10.4.0.1')),
      );
      expect(count(answers, 401)).toBe(5);
      expect(count(answers, 429)).toBe(195);
      expectRefusalsWithRetryAfter(answers, [401]);
      // counted in Redis, not in the database
      expect(await probe.client!.get(`${SIGN_IN_KEY_PREFIX}${slug}|address:10.4.0.1`)).toBe('5');
      expect(await attemptsStored(slug, 'address:10.4.0.1')).toBeUndefined();

      // the right password among 40 at once on one account
      const passwords = Array.from({ length: 39 }, (_, i) => `equivocada-${i}`);
      passwords.splice(11, 0, PASSWORD);
      const logins = await Promise.all(
        passwords.map((password, i) =>
          login(i % 2 === 0 ? a.base : b.base, slug, STAFF.mozo.documento, password, '10.4.0.2'),
        ),
      );
      const signedIn = count(logins, 200);
      expect(signedIn).toBeLessThanOrEqual(1);
      expect(count(logins, 401)).toBeLessThanOrEqual(signedIn === 0 ? 5 : 10);
      expectRefusalsWithRetryAfter(logins, [200, 401]);

      await stopApp(a.app);
      await stopApp(b.app);
      const restarted = await startApp(redisEnv);
      expect(await pad(restarted.base, slug, PIN, '10.4.0.1')).toMatchObject({
        status: 429,
        code: 'TOO_MANY_ATTEMPTS',
      });
      await stopApp(restarted.app);
    });
  });

  describe('the hash queue, shared fairly and bounded', () => {
    /** Logins of unknown documentos from one device: one account each, so no lockout stops them. */
    const flood = (base: string, slug: string, device: string, n: number, from = 0) =>
      Array.from({ length: n }, (_, i) =>
        login(base, slug, `9${String(from + i).padStart(7, '0')}`, 'lo-que-sea-1', device),
      );

    it('a flood from one address does not hold up another’s sign-in, nor another tenant’s; past its share, 429 SIGN_IN_BUSY', async () => {
      const { app, base } = await startApp({ SIGN_IN_QUEUE_PER_CLIENT: '60' });
      const slug = await newTenant(base);
      const otherTenant = await newTenant(base);
      const floodAnswers = flood(base, slug, '10.5.0.1', 150);
      // the flood's share of the queue is full once its first refusal is back
      const firstRefusal = new Promise<void>((resolve) => {
        for (const answer of floodAnswers) void answer.then((a) => a.status === 429 && resolve());
      });
      await Promise.race([firstRefusal, Promise.all(floodAnswers)]);
      const [tablet, elsewhere] = await Promise.all([
        pad(base, slug, PIN, '10.5.0.2'),
        // the same address on another tenant has its own place in the turns
        pad(base, otherTenant, PIN, '10.5.0.1'),
      ]);
      const answers = await Promise.all(floodAnswers);
      expect(tablet.status).toBe(200);
      expect(elsewhere.status).toBe(200);
      // at least 60 of the flood were queued; past its share, refused at once with Retry-After
      expect(count(answers, 401)).toBeGreaterThanOrEqual(60);
      expect(count(answers, 429)).toBeGreaterThan(0);
      expect(count(answers, 401) + count(answers, 429)).toBe(150);
      for (const a of answers.filter((x) => x.status === 429)) {
        expect(a).toMatchObject({ code: 'SIGN_IN_BUSY', scope: 'client' });
        expect(Number(a.retryAfter)).toBeGreaterThan(0);
      }
      // both signed in in their turn, long before the flood's queue drained: most of the
      // flood's checked attempts were answered after them
      const last = Math.max(tablet.seq, elsewhere.seq);
      const checkedAfter = answers.filter((a) => a.status === 401 && a.seq > last).length;
      expect(checkedAfter).toBeGreaterThanOrEqual(count(answers, 401) / 2);
      await stopApp(app);
    });

    it('past the whole queue’s bound, 503 SIGN_IN_BUSY with Retry-After', async () => {
      const { app, base } = await startApp({
        SIGN_IN_QUEUE_PER_CLIENT: '5',
        SIGN_IN_QUEUE_MAX: '12',
      });
      const slug = await newTenant(base);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, d) => flood(base, slug, `10.6.0.${d + 1}`, 5, d * 5)).flat(),
      );
      expect(count(answers, 401)).toBeGreaterThanOrEqual(12);
      expect(count(answers, 503)).toBeGreaterThan(0);
      expectRefusalsWithRetryAfter(answers, [401]);
      for (const a of answers.filter((x) => x.status === 503))
        expect(a).toMatchObject({ code: 'SIGN_IN_BUSY', scope: 'instance' });
      // a refused sign-in was not counted: the accounts hold exactly the attempts checked
      const [held] = await dbs.query<{ n: number }>(
        dbs.tenantUrl(slug),
        "SELECT coalesce(sum(intentos), 0)::int AS n FROM intentos_acceso WHERE clave LIKE 'documento:%'",
      );
      expect(held.n).toBe(count(answers, 401));
      expect((await pad(base, slug, PIN, '10.6.0.1')).status).toBe(200);
      await stopApp(app);
    });
  });
});
