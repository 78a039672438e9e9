import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { OutboxModule } from '../outbox/outbox.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Outbound webhooks (docs/webhooks.md): the endpoints' routes, and the dispatcher that sends the
 * outbox the database's triggers fill, woken by OutboxModule's wake-ups and polled through its
 * table of due tenants. Its writes take an Idempotency-Key, hence IdempotencyModule. The dispatcher is exported for the HTTP service to start it.
 */
@Module({
  imports: [TenancyModule, IdempotencyModule, OutboxModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhooksRepository, WebhookDispatcher],
  exports: [WebhookDispatcher],
})
export class WebhooksModule {}
