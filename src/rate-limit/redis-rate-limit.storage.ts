import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../common/config/app-config';
import { connectBriefly, counterRedisClient } from '../common/redis-client';
import type { AppLogger, Logger } from '../common/logging/logger';
import { FailOpenStorage } from './fail-open-storage';

/**
 * Every key the rate limit writes in Redis starts with this. The adapter names a client's
 * counter `{<key>:<throttler>}:hits` (and `...:blocked` once past the limit), where `<key>` is
 * @nestjs/throttler's sha256 of route and tracker (tenant and client): so
 * `comandas:rate-limit:{3f2a…:default}:hits`. Both expire with the window.
 */
export const RATE_LIMIT_KEY_PREFIX = 'comandas:rate-limit:';

/** A count Redis has not answered in this time is given up (the request goes on uncounted). */
const RATE_LIMIT_REDIS_DEADLINE_MS = 200;
/** At most one warning this often while Redis fails. */
const WARN_EVERY_MS = 60_000;

/**
 * The rate-limit storage shared by every instance through Redis (REDIS_URL), failing open:
 * @nest-lab/throttler-storage-redis counts, FailOpenStorage answers "under the limit" when it
 * cannot. The ioredis client never queues a command while disconnected and never retries one, so
 * a Redis away costs a request at most RATE_LIMIT_REDIS_DEADLINE_MS; it reconnects on its own
 * (every 2 s at most) and counting resumes. Closed when the application shuts down.
 */
export class RedisRateLimitStorage
  extends FailOpenStorage
  implements OnModuleInit, OnApplicationShutdown
{
  private closing = false;

  constructor(
    readonly redis: Redis,
    private readonly log: Logger,
  ) {
    super(new ThrottlerStorageRedisService(redis), log, {
      timeoutMs: RATE_LIMIT_REDIS_DEADLINE_MS,
      warnEveryMs: WARN_EVERY_MS,
    });
    // Connection errors (refused, reset, timed out) share the one warning a minute; without a
    // listener ioredis would print each reconnection's error to the console.
    redis.on('error', (error: Error) => this.failed(error));
    redis.on('ready', () => this.recovered());
  }

  static fromUrl(url: string, logger: Logger): RedisRateLimitStorage {
    return new RedisRateLimitStorage(counterRedisClient(url, RATE_LIMIT_KEY_PREFIX), logger);
  }

  override failed(error: unknown): void {
    if (!this.closing) super.failed(error);
  }

  /**
   * Connects, and waits a little for Redis to be ready so that the first requests are counted
   * (not for long: a Redis away must not stop the start; the client goes on reconnecting).
   */
  async onModuleInit(): Promise<void> {
    const { host, port, db } = this.redis.options;
    this.log.info({ redis: `${host}:${port}/${db ?? 0}` }, 'Rate limit shared through Redis');
    await connectBriefly(this.redis);
  }

  /** After the HTTP server has closed: no request counts any more. */
  onApplicationShutdown(): void {
    this.closing = true;
    this.redis.disconnect();
  }
}

/**
 * The storage of the rate limit: Redis when REDIS_URL is set (and the limit is on), otherwise
 * undefined: @nestjs/throttler's in-memory storage, each instance counting its own.
 */
export function rateLimitStorage(
  config: AppConfig,
  logger: AppLogger,
): ThrottlerStorage | undefined {
  if (!config.REDIS_URL || config.RATE_LIMIT_MAX === 0) return undefined;
  return RedisRateLimitStorage.fromUrl(config.REDIS_URL, logger.child('RateLimit'));
}
