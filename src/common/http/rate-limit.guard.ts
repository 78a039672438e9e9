import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request } from 'express';
import { DomainError } from '../errors/domain-error';

/**
 * RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_MS for each tenant and client (@nestjs/throttler,
 * in memory: each instance counts its own). A clock pushing to /iclock is a client by its
 * serial. Past the limit: 429 RATE_LIMITED with Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const request = req as unknown as Request;
    const tenant = request.headers['x-tenant-id'];
    const serial = request.path.startsWith('/iclock/') ? request.query.SN : undefined;
    const client = typeof serial === 'string' ? `device:${serial}` : (request.ip ?? 'unknown');
    return Promise.resolve(`${typeof tenant === 'string' ? tenant : '-'}|${client}`);
  }

  protected override throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const retryAfter = Math.max(1, Math.ceil(detail.timeToBlockExpire));
    throw new DomainError(
      429,
      'RATE_LIMITED',
      `Too many requests: at most ${detail.limit} every ${Math.round(detail.ttl / 1000)} s for a client of a tenant; retry in ${retryAfter} s`,
      undefined,
      undefined,
      { 'Retry-After': String(retryAfter) },
    );
  }
}
