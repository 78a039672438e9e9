import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request } from 'express';
import { rateLimited } from '../common/errors/common.errors';
import { TenantContext } from '../tenancy/tenant-context';

/**
 * RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_MS for each client of a tenant (@nestjs/throttler:
 * in memory, each instance counting its own; with REDIS_URL, in Redis, shared by every instance
 * and failing open, see redis-rate-limit.storage.ts). The client is its address (TRUST_PROXY says
 * when a forwarded one is believed). The tenant counts only when it is one the catalog knows and
 * the caller passed authentication: a request without a valid tenant or token (an unknown
 * X-Tenant-ID, a bad token, a time clock, whose serial proves nothing) is counted under its
 * address alone, whatever its headers say, so varying them buys no budget and costs no memory.
 * Past the limit: 429 RATE_LIMITED with Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  /** The requests counted by their client alone (refused by authentication). */
  private readonly byClientOnly = new WeakSet<object>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly tenants: TenantContext,
  ) {
    super(options, storage, reflector);
  }

  /** Counts this request under its client's address alone (the caller is not authenticated). */
  countByClientOnly(request: object): void {
    this.byClientOnly.add(request);
  }

  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const request = req as unknown as Request;
    const client = request.ip ?? 'unknown';
    const tenant = this.byClientOnly.has(req) ? undefined : this.tenants.knownSlug;
    return Promise.resolve(`${tenant ?? '-'}|${client}`);
  }

  protected override throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const retryAfter = Math.max(1, Math.ceil(detail.timeToBlockExpire));
    const client = detail.tracker.startsWith('-|') ? 'anonymous' : 'tenant';
    throw rateLimited(detail.limit, Math.round(detail.ttl / 1000), client, retryAfter);
  }
}
