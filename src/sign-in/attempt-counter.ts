import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { connectBriefly, counterRedisClient } from '../common/redis-client';
import type { Logger } from '../common/logging/logger';
import { returnedRows } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';

/** Attempts a key may have counted in a window; past them it is refused until the window ends. */
export const MAX_FAILURES = 5;
/** The window of the lockout, from the first attempt counted. */
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

/**
 * The sign-in lockout's counts (docs/sign-in.md, "Lockout"): per key of a tenant (an account, a
 * client address, an `id_usuario`), the attempts counted in a window of LOCKOUT_WINDOW_MS that
 * opens with the first one. An attempt is **reserved** before its secret is hashed, atomically:
 * at most MAX_FAILURES reservations are granted in a window, whatever the concurrency. A
 * failure keeps its reservation; a success gives it back (`release`) or forgets the key's
 * attempts (`reset`), as the rule of the key says.
 */
export interface AttemptCounter {
  /** Reserves an attempt: 0 when reserved, else the seconds the key must still wait. */
  reserve(tenant: string, key: string): Promise<number>;
  /** Gives one reservation back: an attempt that must not count (a PIN's success, never hashed). */
  release(tenant: string, key: string): Promise<void>;
  /** Forgets the key's attempts (a successful sign-in of that account). */
  reset(tenant: string, key: string): Promise<void>;
}

const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The counts in the tenant's own database (table `intentos_acceso`, without REDIS_URL, and while
 * Redis does not answer): shared by every instance of the service and kept across restarts.
 * The tenant is the request's (TenantContext): its database holds its keys alone.
 */
@Injectable()
export class DatabaseAttemptCounter extends TenantRepository implements AttemptCounter {
  async reserve(_tenant: string, key: string): Promise<number> {
    // a row deleted as expired between the two statements: reserve again (at most twice more)
    for (let round = 0; round < 3; round += 1) {
      const reserved = returnedRows<unknown>(
        await this.db.query(
          // One statement: a new key, a window ended, or a key whose attempts were all given
          // back opens a window; else one more attempt, only while fewer than $3 are counted.
          // The row is locked by ON CONFLICT, so parallel reservations are granted one by one.
          // The first part deletes a few rows whose window ended (never one another holds).
          `WITH caducadas AS (
             DELETE FROM intentos_acceso
              WHERE clave IN (SELECT clave FROM intentos_acceso
                               WHERE hasta < now() AND clave <> $1
                               LIMIT 100 FOR UPDATE SKIP LOCKED)
           )
           INSERT INTO intentos_acceso AS i (clave, intentos, hasta)
           VALUES ($1, 1, now() + $2 * interval '1 millisecond')
           ON CONFLICT (clave) DO UPDATE
              SET intentos = CASE WHEN i.hasta <= now() OR i.intentos = 0 THEN 1
                                  ELSE i.intentos + 1 END,
                  hasta    = CASE WHEN i.hasta <= now() OR i.intentos = 0 THEN EXCLUDED.hasta
                                  ELSE i.hasta END
            WHERE i.hasta <= now() OR i.intentos = 0 OR i.intentos < $3
           RETURNING 1`,
          [key, LOCKOUT_WINDOW_MS, MAX_FAILURES],
        ),
      );
      if (reserved.length > 0) return 0;
      const rows: { ms: number | null }[] = await this.db.query(
        `SELECT (extract(epoch FROM hasta - now()) * 1000)::float8 AS ms
           FROM intentos_acceso WHERE clave = $1`,
        [key],
      );
      const ms = rows[0]?.ms ?? 0;
      if (ms > 0) return secondsOf(ms);
    }
    return 1;
  }

  async release(_tenant: string, key: string): Promise<void> {
    await this.db.query(
      `UPDATE intentos_acceso SET intentos = intentos - 1
        WHERE clave = $1 AND intentos > 0 AND hasta > now()`,
      [key],
    );
  }

  async reset(_tenant: string, key: string): Promise<void> {
    await this.db.query('DELETE FROM intentos_acceso WHERE clave = $1', [key]);
  }
}

/** Every key the lockout writes in Redis starts with this (then `<tenant>|<key>`). */
export const SIGN_IN_KEY_PREFIX = 'comandas:sign-in:';
const WARN_EVERY_MS = 60_000;

/**
 * KEYS[1] the key, ARGV[1] the window (ms), ARGV[2] the most attempts. Answers 0 when reserved,
 * else the window's milliseconds left. A key without attempts left in it opens a new window.
 */
const RESERVE_LUA = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if n <= 0 or ttl <= 0 then
  redis.call('SET', KEYS[1], 1, 'PX', ARGV[1])
  return 0
end
if n >= tonumber(ARGV[2]) then return ttl end
redis.call('INCR', KEYS[1])
return 0`;

/** KEYS[1] the key: one attempt fewer, never below none (DECR keeps the key's expiry). */
const RELEASE_LUA = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

type CountingRedis = Redis & {
  signInReserve(key: string, windowMs: number, max: number): Promise<number>;
  signInRelease(key: string): Promise<number>;
};

/**
 * The counts shared by every instance through Redis (REDIS_URL): one key per lockout key,
 * expiring with its window, changed by Lua scripts (atomic). When Redis does not answer, the
 * tenant's database counts meanwhile (DatabaseAttemptCounter), and this instance warns once a
 * minute: a lockout that failed open would let a guesser through while Redis is away.
 */
export class RedisAttemptCounter implements AttemptCounter, OnModuleInit, OnApplicationShutdown {
  private readonly redis: CountingRedis;
  private lastWarning = 0;
  private closing = false;

  constructor(
    redis: Redis,
    private readonly fallback: AttemptCounter,
    private readonly log: Logger,
  ) {
    redis.defineCommand('signInReserve', { numberOfKeys: 1, lua: RESERVE_LUA });
    redis.defineCommand('signInRelease', { numberOfKeys: 1, lua: RELEASE_LUA });
    this.redis = redis as CountingRedis;
    redis.on('error', (error: Error) => this.warn(error));
  }

  static fromUrl(url: string, fallback: AttemptCounter, log: Logger): RedisAttemptCounter {
    return new RedisAttemptCounter(counterRedisClient(url, SIGN_IN_KEY_PREFIX), fallback, log);
  }

  async onModuleInit(): Promise<void> {
    await connectBriefly(this.redis);
  }

  onApplicationShutdown(): void {
    this.closing = true;
    this.redis.disconnect();
  }

  async reserve(tenant: string, key: string): Promise<number> {
    try {
      const ms = Number(
        await this.redis.signInReserve(`${tenant}|${key}`, LOCKOUT_WINDOW_MS, MAX_FAILURES),
      );
      return ms > 0 ? secondsOf(ms) : 0;
    } catch (error) {
      this.warn(error);
      return this.fallback.reserve(tenant, key);
    }
  }

  async release(tenant: string, key: string): Promise<void> {
    try {
      await this.redis.signInRelease(`${tenant}|${key}`);
    } catch (error) {
      this.warn(error);
      await this.fallback.release(tenant, key);
    }
  }

  async reset(tenant: string, key: string): Promise<void> {
    await this.fallback.reset(tenant, key);
    try {
      await this.redis.del(`${tenant}|${key}`);
    } catch (error) {
      this.warn(error);
    }
  }

  private warn(error: unknown): void {
    if (this.closing) return;
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.log.warn(
      { err: error },
      "Redis does not answer: sign-in attempts are counted in the tenant's database meanwhile",
    );
  }
}

/** The injection token of the AttemptCounter in use. */
export const ATTEMPT_COUNTER = Symbol('ATTEMPT_COUNTER');
