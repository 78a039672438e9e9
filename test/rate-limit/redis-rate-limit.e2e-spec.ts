/**
 * The rate limit shared through Redis (REDIS_URL), and failing open when Redis is away.
 *
 * These tests use a real Redis: TEST_REDIS_URL, or redis://127.0.0.1:6379. The `beforeAll`
 * probes it (PING, 1 s at most). When no Redis answers:
 * - outside CI, it prints ONE warning line ("Redis not reachable at ...: the Redis rate-limit
 *   tests did not run") and every test that needs Redis returns at once: it passes without
 *   having checked anything. Read that line before trusting a green run of this file;
 * - with CI=true, every test that needs Redis fails: CI must have a Redis.
 * The test of an unreachable REDIS_URL needs no Redis and always runs.
 *
 * Isolation: each test uses tenant slugs of its own (random), so its keys in Redis are its own
 * (they hash tenant and client, see RATE_LIMIT_KEY_PREFIX); the tests delete the keys they made
 * and nothing else (no FLUSHALL).
 */
import { getStorageToken } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { AppLogger } from '../../src/common/logging/logger';
import {
  RATE_LIMIT_KEY_PREFIX,
  RedisRateLimitStorage,
} from '../../src/rate-limit/redis-rate-limit.storage';
import { RedisProbe, TEST_REDIS_URL } from '../support/redis';
import { startTestApp, type TestApp } from '../support/test-app';

const REDIS_URL = TEST_REDIS_URL;
const probe = new RedisProbe('the Redis rate-limit tests');
let redis: Redis | undefined;

/** True when Redis answered the probe; false (outside CI) when it did not; throws in CI. */
function redisAvailable(): boolean {
  return probe.available();
}

beforeAll(async () => {
  await probe.probe();
  redis = probe.client;
});

afterAll(() => probe.close());

const slug = () => `rl${randomBytes(4).toString('hex')}`;

const getTenant = (t: TestApp, tenant: string) =>
  request(t.http).get('/api/v1/tenant').set('X-Tenant-ID', tenant);

/** The storage of an app, with the keys it counted (to check them in Redis and delete them). */
function watchStorage(t: TestApp) {
  const storage = t.app.get<RedisRateLimitStorage>(getStorageToken());
  expect(storage).toBeInstanceOf(RedisRateLimitStorage);
  const increment = jest.spyOn(storage, 'increment');
  return {
    storage,
    redisKeys: () =>
      [...new Set(increment.mock.calls.map(([key, , , , name]) => `{${key}:${name}}`))].flatMap(
        (tag) => [`${RATE_LIMIT_KEY_PREFIX}${tag}:hits`, `${RATE_LIMIT_KEY_PREFIX}${tag}:blocked`],
      ),
  };
}

/** Deletes the keys a test made in Redis (and only those). */
async function forget(keys: string[]): Promise<void> {
  if (redis && keys.length > 0) await redis.del(...new Set(keys));
}

/** The warn and info calls of the rate limit's logger, for the apps started while it runs. */
function captureRateLimitLogs() {
  const warn = jest.fn();
  const info = jest.fn();
  const original = AppLogger.prototype.child;
  const spy = jest.spyOn(AppLogger.prototype, 'child').mockImplementation(function (
    this: AppLogger,
    context: string,
  ) {
    const logger = original.call(this, context);
    if (context === 'RateLimit') {
      logger.warn = warn;
      logger.info = info;
    }
    return logger;
  });
  return { warn, info, restore: () => spy.mockRestore() };
}

/**
 * A TCP proxy in front of Redis, to take it away and bring it back (`stop`, `start` on the same
 * port) or make it hang (`blackhole`: what clients send is dropped, the connection stays open).
 */
class RedisProxy {
  port = 0;
  blackhole = false;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly target: URL) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 6379), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (data) => {
        if (!this.blackhole) upstream.write(data);
      });
      upstream.on('data', (data) => client.write(data));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
    this.server = undefined;
  }
}

describe('rate limit shared through Redis (REDIS_URL), failing open', () => {
  it('counts the requests of a client to a tenant once across two instances: the 11th is 429 on either', async () => {
    if (!redisAvailable()) return;
    const env = { REDIS_URL, RATE_LIMIT_MAX: '10', RATE_LIMIT_WINDOW_MS: '60000' };
    const a = await startTestApp(env);
    const b = await startTestApp(env, a.dbs);
    const tenant = slug();
    const [watchedA, watchedB] = [watchStorage(a), watchStorage(b)];
    try {
      await a.dbs.createTenant(tenant);
      for (let i = 0; i < 10; i += 1) await getTenant(i % 2 === 0 ? a : b, tenant).expect(200);
      for (const instance of [a, b]) {
        const limited = await getTenant(instance, tenant).expect(429);
        expect(limited.body).toMatchObject({ code: 'RATE_LIMITED' });
        expect(limited.body.error).toContain('at most 10 every 60 s');
        expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      }
      // another tenant of the same client has its own budget
      const other = slug();
      await a.dbs.createTenant(other);
      await getTenant(b, other).expect(200);

      // the count is in Redis, under the documented name; a's 6 requests and b's 6 both counted
      const [hits, blocked] = watchedA.redisKeys();
      expect(watchedB.redisKeys()).toContain(hits);
      expect(hits).toMatch(/^comandas:rate-limit:\{[0-9a-f]{64}:default\}:hits$/);
      expect(await redis!.get(hits)).toBe('12');
      expect(await redis!.exists(blocked)).toBe(1);
      expect(await redis!.pttl(hits)).toBeGreaterThan(50_000);
    } finally {
      await forget([...watchedA.redisKeys(), ...watchedB.redisKeys()]);
      await b.close();
      await a.close();
      // closing an app closed its connection to Redis (npm start exits, jest does not hang)
      expect(watchedA.storage.redis.status).toBe('end');
      expect(watchedB.storage.redis.status).toBe('end');
    }
  });

  it('fails open with an unreachable REDIS_URL: every request answered, one warning', async () => {
    const logs = captureRateLimitLogs();
    const t = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_MAX: '3' }).finally(
      logs.restore,
    );
    try {
      const tenant = slug();
      await t.dbs.createTenant(tenant);
      for (let i = 0; i < 12; i += 1) {
        const started = Date.now();
        await getTenant(t, tenant).expect(200);
        expect(Date.now() - started).toBeLessThan(1_000);
      }
      expect(logs.warn).toHaveBeenCalledTimes(1);
      expect(logs.warn.mock.calls[0][1]).toContain('the limit fails open');
    } finally {
      await t.close();
    }
  });

  it('fails open while Redis is away, and counts again when it is back', async () => {
    if (!redisAvailable()) return;
    const proxy = new RedisProxy(new URL(REDIS_URL));
    await proxy.start();
    const logs = captureRateLimitLogs();
    const t = await startTestApp({ REDIS_URL: proxy.url, RATE_LIMIT_MAX: '3' }).finally(
      logs.restore,
    );
    const watched = watchStorage(t);
    try {
      const tenant = slug();
      await t.dbs.createTenant(tenant);
      for (let i = 0; i < 3; i += 1) await getTenant(t, tenant).expect(200);
      await getTenant(t, tenant).expect(429);
      expect(logs.warn).not.toHaveBeenCalled();

      // Redis away: the client blocked in Redis is answered, and told once
      await proxy.stop();
      for (let i = 0; i < 8; i += 1) await getTenant(t, tenant).expect(200);
      expect(logs.warn).toHaveBeenCalledTimes(1);

      // back: the client reconnects on its own and the block it had is seen again
      await proxy.start();
      let status = 200;
      for (let waited = 0; status === 200 && waited < 8_000; waited += 100) {
        await sleep(100);
        status = (await getTenant(t, tenant)).status;
      }
      expect(status).toBe(429);
      expect(logs.warn).toHaveBeenCalledTimes(1);
      expect(logs.info).toHaveBeenCalledWith(expect.stringContaining('counted again'));
    } finally {
      await forget(watched.redisKeys());
      await t.close();
      await proxy.stop();
    }
  });

  it('does not let a Redis that stops answering hold a request: given up within the deadline', async () => {
    if (!redisAvailable()) return;
    const proxy = new RedisProxy(new URL(REDIS_URL));
    await proxy.start();
    const t = await startTestApp({ REDIS_URL: proxy.url, RATE_LIMIT_MAX: '2' });
    const watched = watchStorage(t);
    try {
      const tenant = slug();
      await t.dbs.createTenant(tenant);
      await getTenant(t, tenant).expect(200);
      proxy.blackhole = true; // connected, but no answer ever comes
      for (let i = 0; i < 5; i += 1) {
        const started = Date.now();
        await getTenant(t, tenant).expect(200);
        expect(Date.now() - started).toBeLessThan(1_000);
      }
    } finally {
      await forget(watched.redisKeys());
      await t.close();
      await proxy.stop();
    }
  });
});
