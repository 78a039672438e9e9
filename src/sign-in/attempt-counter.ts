import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { connectBriefly, counterRedisClient } from '../common/redis-client';
import type { Logger } from '../common/logging/logger';

/** Failures allowed in a window; the next attempt is refused until the window ends. */
export const MAX_FAILURES = 5;
/** The window of the lockout, from the first failure. */
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

/**
 * The sign-in lockout's counts (docs/sign-in.md, "Lockout"): per key (an account or a client
 * address of a tenant), the failures since the first one of a 15-minute window. After
 * MAX_FAILURES the key is locked until that window ends.
 */
export interface AttemptCounter {
  /** Seconds the key must still wait (0: it may try). */
  lockedFor(key: string): Promise<number>;
  /** Counts a failure; answers the seconds the key must now wait (0: it may try again). */
  fail(key: string): Promise<number>;
  /** Forgets the key's failures (a successful sign-in of that account). */
  reset(key: string): Promise<void>;
}

const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The counts of one instance, in its memory. */
export class MemoryAttemptCounter implements AttemptCounter {
  private readonly entries = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 100_000,
  ) {}

  private live(key: string) {
    const entry = this.entries.get(key);
    if (entry && entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  lockedFor(key: string): Promise<number> {
    const entry = this.live(key);
    return Promise.resolve(
      entry && entry.count >= MAX_FAILURES ? secondsOf(entry.until - this.now()) : 0,
    );
  }

  fail(key: string): Promise<number> {
    let entry = this.live(key);
    if (!entry) {
      entry = { count: 0, until: this.now() + LOCKOUT_WINDOW_MS };
      this.entries.set(key, entry);
      if (this.entries.size > this.maxEntries) this.sweep();
    }
    entry.count += 1;
    return this.lockedFor(key);
  }

  reset(key: string): Promise<void> {
    this.entries.delete(key);
    return Promise.resolve();
  }

  /** Drops the expired entries, and the oldest ones if still too many. */
  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}

/** Every key the lockout writes in Redis starts with this. */
export const SIGN_IN_KEY_PREFIX = 'comandas:sign-in:';
const WARN_EVERY_MS = 60_000;

/**
 * The counts shared by every instance through Redis (REDIS_URL): `INCR` on a key that expires
 * with its window. When Redis does not answer, this instance counts in its own memory meanwhile
 * (a lockout that fails open would let a guesser through while Redis is away).
 */
export class RedisAttemptCounter implements AttemptCounter, OnModuleInit, OnApplicationShutdown {
  private readonly fallback: MemoryAttemptCounter;
  private lastWarning = 0;
  private closing = false;

  constructor(
    readonly redis: Redis,
    private readonly log: Logger,
    now: () => number = Date.now,
  ) {
    this.fallback = new MemoryAttemptCounter(now);
    redis.on('error', (error: Error) => this.warn(error));
  }

  static fromUrl(url: string, log: Logger): RedisAttemptCounter {
    return new RedisAttemptCounter(counterRedisClient(url, SIGN_IN_KEY_PREFIX), log);
  }

  async onModuleInit(): Promise<void> {
    await connectBriefly(this.redis);
  }

  onApplicationShutdown(): void {
    this.closing = true;
    this.redis.disconnect();
  }

  async lockedFor(key: string): Promise<number> {
    try {
      const [count, ttl] = (await this.redis.multi().get(key).pttl(key).exec())!.map(
        ([error, value]) => {
          if (error) throw error;
          return value;
        },
      ) as [string | null, number];
      const held = count === null ? 0 : Number(count);
      return held >= MAX_FAILURES && ttl > 0 ? secondsOf(ttl) : 0;
    } catch (error) {
      this.warn(error);
      return this.fallback.lockedFor(key);
    }
  }

  async fail(key: string): Promise<number> {
    try {
      const [, count, ttl] = (await this.redis
        .multi()
        .set(key, '0', 'PX', LOCKOUT_WINDOW_MS, 'NX')
        .incr(key)
        .pttl(key)
        .exec())!.map(([error, value]) => {
        if (error) throw error;
        return value;
      }) as [unknown, number, number];
      return count >= MAX_FAILURES && ttl > 0 ? secondsOf(ttl) : 0;
    } catch (error) {
      this.warn(error);
      return this.fallback.fail(key);
    }
  }

  async reset(key: string): Promise<void> {
    await this.fallback.reset(key);
    try {
      await this.redis.del(key);
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
      'Redis does not answer: sign-in failures are counted by this instance alone meanwhile',
    );
  }
}

/** The injection token of the AttemptCounter in use. */
export const ATTEMPT_COUNTER = Symbol('ATTEMPT_COUNTER');
