import { Redis } from 'ioredis';

/** How long a TCP connection to Redis may take to open. */
const CONNECT_TIMEOUT_MS = 500;
/** ioredis' own bound on a command. */
const COMMAND_TIMEOUT_MS = 150;

/** Reconnects every 2 s at most, sooner at first. */
const retryStrategy = (attempt: number) => Math.min(attempt * 200, 2_000);

/**
 * A Redis client for counters that must never hold a request up (the rate limit, the sign-in
 * lockout): it never queues a command while disconnected and never retries one, so a Redis
 * away costs a request at most COMMAND_TIMEOUT_MS; it reconnects on its own (every 2 s at most).
 * Not connected yet: call `connectBriefly` when the application starts.
 */
export function counterRedisClient(url: string, keyPrefix: string): Redis {
  return new Redis(url, {
    keyPrefix,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy,
    // how long disconnect() waits for the socket to close (ioredis waits the whole time when
    // the socket is already gone, e.g. after a refused connection: jest would wait for it)
    disconnectTimeout: 200,
    // connected when the application starts (onModuleInit), not when the module is defined
    lazyConnect: true,
  });
}

/**
 * A Redis client for a subscription (the outboxes' wake-ups): it queues its SUBSCRIBE until
 * connected and subscribes again after a reconnection by itself (ioredis' autoResubscribe),
 * with the counters' connection bounds otherwise. Not connected yet: `subscribe` connects it.
 */
export function subscriberRedisClient(url: string): Redis {
  return new Redis(url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy,
    disconnectTimeout: 200,
    lazyConnect: true,
  });
}

/**
 * Connects, and waits a little for Redis to be ready so that the first requests are counted
 * (not for long: a Redis away must not stop the start; the client goes on reconnecting, and a
 * failed first connection is an 'error' event for the owner's listener).
 */
export function connectBriefly(redis: Redis, waitMs = 1_000): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    redis.once('ready', done).once('error', done);
    redis.connect().catch(() => undefined);
  });
}
