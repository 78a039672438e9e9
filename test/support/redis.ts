import { Redis } from 'ioredis';

/** The Redis of the tests of the Redis modes: TEST_REDIS_URL, or the one on this machine. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const IN_CI = process.env.CI === 'true';

/**
 * A probe of the tests' Redis (PING, 1 s at most), for a file's `beforeAll`. `available()`
 * answers whether it answered; when it did not:
 * - outside CI, the probe printed ONE warning line ("Redis not reachable at ...: <what> did not
 *   run") and each test needing Redis returns at once, having checked nothing: read that line
 *   before trusting a green run of the file;
 * - with CI=true, `available()` throws: CI must have a Redis.
 */
export class RedisProbe {
  client?: Redis;

  constructor(private readonly what: string) {}

  async probe(): Promise<void> {
    const probe = new Redis(TEST_REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 1_000,
      commandTimeout: 1_000,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      disconnectTimeout: 100,
    });
    let failure: Error | undefined;
    probe.on('error', (error: Error) => (failure ??= error));
    try {
      await probe.connect();
      await probe.ping();
      this.client = probe;
    } catch (error) {
      probe.disconnect();
      if (!IN_CI) {
        console.warn(
          `Redis not reachable at ${TEST_REDIS_URL} (${(failure ?? (error as Error)).message}): ${this.what} did not run`,
        );
      }
    }
  }

  available(): boolean {
    if (this.client) return true;
    if (IN_CI)
      throw new Error(`Redis not reachable at ${TEST_REDIS_URL} and CI=true: CI needs a Redis`);
    return false;
  }

  close(): void {
    this.client?.disconnect();
  }
}
