import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { TenantContext } from '../tenancy/tenant-context';
import { OutboxWakeups } from './outbox-wakeups.service';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A write request of a tenant that succeeded wakes the outboxes' consumers (OutboxWakeups):
 * the outbox is written by triggers in the request's transaction (the audit trails', whatever
 * route or store function wrote them), so any successful write may have queued work, and its
 * answer is sent after its commit. Mounted right after the tenant-context middleware.
 */
@Injectable()
export class OutboxCommitMiddleware implements NestMiddleware {
  constructor(
    private readonly context: TenantContext,
    private readonly wakeups: OutboxWakeups,
  ) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const tenant = READS.has(req.method) ? undefined : this.context.knownTenant;
    if (tenant) {
      res.once('finish', () => {
        if (res.statusCode < 400) this.wakeups.committed(tenant);
      });
    }
    next();
  }
}
