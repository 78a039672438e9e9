/**
 * The sign-in lockout's counts (src/sign-in/attempt-counter.ts, docs/sign-in.md "Lockout")
 * against their rule, on a real tenant database (table intentos_acceso) and on a real Redis:
 * random reservations, give-backs, resets and waits over several keys, compared with the rule
 * written the simplest way; and parallel reservations on one key, of which exactly 5 are granted.
 * Time passes by moving the windows' ends back (the database's `hasta`, Redis' expiry).
 *
 * The Redis half needs a Redis (TEST_REDIS_URL): see test/support/redis.ts.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Logger } from '../../../src/common/logging/logger';
import {
  DatabaseAttemptCounter,
  LOCKOUT_WINDOW_MS,
  MAX_FAILURES,
  RedisAttemptCounter,
  SIGN_IN_KEY_PREFIX,
  type AttemptCounter,
} from '../../../src/sign-in/attempt-counter';
import type { TenantContext } from '../../../src/tenancy/tenant-context';
import { RedisProbe, TEST_REDIS_URL } from '../../support/redis';
import { TestDatabases } from '../../support/test-databases';

const KEYS = ['documento:40000001', 'address:10.0.0.7', 'usuario:4'];
const MINUTE = 60_000;

const steps = fc.array(
  fc.oneof(
    {
      arbitrary: fc.record({
        kind: fc.constant('wait' as const),
        minutes: fc.integer({ min: 0, max: 20 }),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('reserve' as const),
        key: fc.constantFrom(...KEYS),
      }),
      weight: 6,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('release' as const),
        key: fc.constantFrom(...KEYS),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({ kind: fc.constant('reset' as const), key: fc.constantFrom(...KEYS) }),
      weight: 1,
    },
  ),
  { minLength: 10, maxLength: 60 },
);

/**
 * The rule: a key's window opens at an attempt counted while it holds none (or its window
 * ended) and lasts LOCKOUT_WINDOW_MS; a reservation is granted while it holds fewer than
 * MAX_FAILURES, else refused for the rest of the window; a give-back counts one fewer, a reset
 * forgets the key.
 */
class Model {
  private keys = new Map<string, { count: number; until: number }>();
  now = 0;

  private live(key: string) {
    const entry = this.keys.get(key);
    return entry && entry.until > this.now ? entry : undefined;
  }

  reserve(key: string): number {
    const entry = this.live(key);
    if (!entry || entry.count === 0) {
      this.keys.set(key, { count: 1, until: this.now + LOCKOUT_WINDOW_MS });
      return 0;
    }
    if (entry.count >= MAX_FAILURES) return Math.ceil((entry.until - this.now) / 1000);
    entry.count += 1;
    return 0;
  }

  release(key: string) {
    const entry = this.live(key);
    if (entry && entry.count > 0) entry.count -= 1;
  }

  reset(key: string) {
    this.keys.delete(key);
  }
}

async function checkAgainstRule(
  counter: AttemptCounter,
  tenant: string,
  clear: () => Promise<void>,
  elapse: (ms: number) => Promise<void>,
) {
  await fc.assert(
    fc.asyncProperty(steps, async (plan) => {
      await clear();
      const model = new Model();
      for (const step of plan) {
        if (step.kind === 'wait') {
          model.now += step.minutes * MINUTE;
          await elapse(step.minutes * MINUTE);
        } else if (step.kind === 'reserve') {
          const expected = model.reserve(step.key);
          const got = await counter.reserve(tenant, step.key);
          if (expected === 0) expect(got).toBe(0);
          else {
            // the same wait, to the second (real time passes between the two)
            expect(got).toBeGreaterThan(0);
            expect(Math.abs(got - expected)).toBeLessThanOrEqual(1);
          }
        } else if (step.kind === 'release') {
          model.release(step.key);
          await counter.release(tenant, step.key);
        } else {
          model.reset(step.key);
          await counter.reset(tenant, step.key);
        }
      }
    }),
    { numRuns: 40 },
  );
}

async function parallelReservations(counter: AttemptCounter, tenant: string) {
  const waits = await Promise.all(
    Array.from({ length: 60 }, () => counter.reserve(tenant, 'address:10.9.9.9')),
  );
  expect(waits.filter((w) => w === 0)).toHaveLength(MAX_FAILURES);
  for (const wait of waits.filter((w) => w > 0)) {
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
  }
}

describe('the sign-in lockout counts against their rule', () => {
  let dbs: TestDatabases;
  let dataSource: DataSource;
  let database: DatabaseAttemptCounter;
  const probe = new RedisProbe('the Redis half of the lockout counts spec');
  const tenant = `intentos${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    await probe.probe();
    dbs = await TestDatabases.create();
    await dbs.createTenant(tenant);
    dataSource = new DataSource({
      type: 'postgres',
      url: dbs.tenantUrl(tenant),
      poolSize: 10,
      logging: false,
    });
    await dataSource.initialize();
    // the tenant's database, as a request's TenantContext gives it
    database = new DatabaseAttemptCounter({
      transaction: undefined,
      dataSource,
    } as unknown as TenantContext);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    const keys = await probe.client?.keys(`${SIGN_IN_KEY_PREFIX}${tenant}|*`);
    if (keys && keys.length > 0) await probe.client!.del(...keys);
    probe.close();
    await dbs.drop();
  });

  describe('in the tenant’s database', () => {
    const clear = async () => {
      await dataSource.query('DELETE FROM intentos_acceso');
    };

    it('grants, refuses, gives back and forgets as the rule says', async () => {
      await checkAgainstRule(database, tenant, clear, async (ms) => {
        await dataSource.query(
          "UPDATE intentos_acceso SET hasta = hasta - $1 * interval '1 millisecond'",
          [ms],
        );
      });
    });

    it('grants exactly 5 of 60 reservations sent at once on one key', async () => {
      await clear();
      await parallelReservations(database, tenant);
    });

    it('deletes the rows whose window ended as it reserves others', async () => {
      await clear();
      for (const key of KEYS) await database.reserve(tenant, key);
      await dataSource.query(
        "UPDATE intentos_acceso SET hasta = now() - interval '1 minute' WHERE clave <> $1",
        [KEYS[0]],
      );
      await database.reserve(tenant, KEYS[0]);
      const rows: { clave: string }[] = await dataSource.query('SELECT clave FROM intentos_acceso');
      expect(rows.map((r) => r.clave)).toEqual([KEYS[0]]);
    });
  });

  describe('in Redis', () => {
    let redis: RedisAttemptCounter;
    const warnings: unknown[] = [];

    beforeAll(async () => {
      if (!probe.client) return;
      const log = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
      redis = RedisAttemptCounter.fromUrl(TEST_REDIS_URL, database, log);
      await redis.onModuleInit();
    });

    afterAll(() => redis?.onApplicationShutdown());

    const keysOf = async () => (await probe.client!.keys(`${SIGN_IN_KEY_PREFIX}${tenant}|*`)) ?? [];
    const clear = async () => {
      const keys = await keysOf();
      if (keys.length > 0) await probe.client!.del(...keys);
    };

    it('grants, refuses, gives back and forgets as the rule says', async () => {
      if (!probe.available()) return;
      await checkAgainstRule(redis, tenant, clear, async (ms) => {
        for (const key of await keysOf()) {
          const ttl = await probe.client!.pttl(key);
          if (ttl - ms <= 0) await probe.client!.del(key);
          else await probe.client!.pexpire(key, ttl - ms);
        }
      });
      expect(warnings).toEqual([]);
    });

    it('grants exactly 5 of 60 reservations sent at once on one key', async () => {
      if (!probe.available()) return;
      await clear();
      await parallelReservations(redis, tenant);
      expect(await probe.client!.get(`${SIGN_IN_KEY_PREFIX}${tenant}|address:10.9.9.9`)).toBe('5');
    });
  });
});
