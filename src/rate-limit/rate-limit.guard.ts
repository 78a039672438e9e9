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
import { TooManyRequestsError } from '../common/errors/domain-error';
import { TenantContext } from '../tenancy/tenant-context';

/**
 * RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_MS for each tenant and client (@nestjs/throttler:
 * in memory, each instance counting its own; with REDIS_URL, in Redis, shared by every instance
 * and failing open, see redis-rate-limit.storage.ts). The tenant is the one the request's
 * X-Tenant-ID names (TenantContext.requestedSlug); a clock pushing to /iclock is a client by its
 * serial. Past the limit: 429 RATE_LIMITED with Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly tenants: TenantContext,
  ) {
    super(options, storage, reflector);
  }

  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const request = req as unknown as Request;
    const serial = request.path.startsWith('/iclock/') ? request.query.SN : undefined;
    const client = typeof serial === 'string' ? `device:${serial}` : (request.ip ?? 'unknown');
    return Promise.resolve(`${this.tenants.requestedSlug ?? '-'}|${client}`);
  }

  protected override throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const retryAfter = Math.max(1, Math.ceil(detail.timeToBlockExpire));
    throw new TooManyRequestsError(
      `Too many requests: at most ${detail.limit} every ${Math.round(detail.ttl / 1000)} s for a client of a tenant; retry in ${retryAfter} s`,
      retryAfter,
    );
  }
}
