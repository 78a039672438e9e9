import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Redis } from 'ioredis';
import type { AppConfig } from '../common/config/app-config';
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
/** ioredis' own bound on a command, under the deadline above. */
const COMMAND_TIMEOUT_MS = 150;
/** How long a TCP connection to Redis may take to open. */
const CONNECT_TIMEOUT_MS = 500;
/** How long the start waits for Redis to be ready, so that the first requests are counted. */
const READY_WAIT_MS = 1_000;
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
    const redis = new Redis(url, {
      keyPrefix: RATE_LIMIT_KEY_PREFIX,
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
      // how long disconnect() waits for the socket to close (ioredis waits the whole time when
      // the socket is already gone, e.g. after a refused connection: jest would wait for it)
      disconnectTimeout: 200,
      // connected when the application starts (onModuleInit), not when the module is defined
      lazyConnect: true,
    });
    return new RedisRateLimitStorage(redis, logger);
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
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done).off('error', done);
        resolve();
      };
      const timer = setTimeout(done, READY_WAIT_MS);
      this.redis.once('ready', done).once('error', done);
      // a failed first connection is an 'error' event (told by failed()); retried on its own
      this.redis.connect().catch(() => undefined);
    });
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
