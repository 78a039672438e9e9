import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { OutboxCommitMiddleware } from './outbox-commit.middleware';
import { OutboxDueRepository } from './outbox-due.repository';
import { OutboxWakeups } from './outbox-wakeups.service';

/**
 * What the outboxes' consumers share (DESIGN §23; the webhooks are the first): the wake-ups of
 * a committed write, here and through Redis, and the control database's table of the tenants
 * with work due, which their polls read. The root module mounts the middleware.
 */
@Module({
  imports: [TenancyModule],
  providers: [OutboxWakeups, OutboxDueRepository, OutboxCommitMiddleware],
  exports: [OutboxWakeups, OutboxDueRepository, OutboxCommitMiddleware],
})
export class OutboxModule {}
