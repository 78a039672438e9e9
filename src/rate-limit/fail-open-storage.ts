import type { ThrottlerStorage } from '@nestjs/throttler';
import { withDeadline } from '../common/deadline';
import type { Logger } from '../common/logging/logger';

/** What `ThrottlerStorage.increment` answers (the type is not exported by the package root). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

export interface FailOpenOptions {
  /** A count not answered within this time is given up: the request goes on as if under the limit. */
  timeoutMs: number;
  /** At most one warning per this interval while the storage fails. */
  warnEveryMs: number;
  /** The clock (tests pass their own). */
  now?: () => number;
}

/**
 * A rate-limit storage that never fails a request: when the storage it wraps (Redis) throws or
 * does not answer within `timeoutMs`, the request is counted as the first of its window (under
 * the limit) and goes on. The limit fails open because it protects the service from floods; it
 * is no reason to refuse every request while Redis is away.
 *
 * A failing storage is told once, then at most once every `warnEveryMs` (with how many failures
 * went untold since), not once per request; the first count that works again is told too.
 */
export class FailOpenStorage implements ThrottlerStorage {
  private readonly now: () => number;
  private lastWarningAt = -Infinity;
  private untold = 0;
  private failing = false;

  constructor(
    private readonly inner: ThrottlerStorage,
    private readonly logger: Logger,
    private readonly options: FailOpenOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    try {
      const record = await withDeadline(
        this.inner.increment(key, ttl, limit, blockDuration, throttlerName),
        this.options.timeoutMs,
      );
      this.recovered();
      return record;
    } catch (error) {
      this.failed(error);
      return {
        totalHits: 1,
        timeToExpire: Math.ceil(ttl / 1000),
        isBlocked: false,
        timeToBlockExpire: 0,
      };
    }
  }

  /**
   * Records a failure of the storage: from a count, or from its connection (a Redis client's
   * `error` events), so that both share the one warning a minute.
   */
  failed(error: unknown): void {
    this.failing = true;
    const now = this.now();
    if (now - this.lastWarningAt < this.options.warnEveryMs) {
      this.untold += 1;
      return;
    }
    this.logger.warn(
      {
        err: error instanceof Error ? error.message : String(error),
        ...(this.untold > 0 ? { failuresSinceLastWarning: this.untold } : {}),
      },
      `Rate-limit storage failing: requests are not counted (the limit fails open) until it answers again; next warning in ${Math.round(this.options.warnEveryMs / 1000)} s at the earliest`,
    );
    this.lastWarningAt = now;
    this.untold = 0;
  }

  /** Records that the storage works again (a count answered, or its connection is ready). */
  recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.info('Rate-limit storage answers again: requests are counted again');
  }
}
