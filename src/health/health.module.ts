import { Module } from '@nestjs/common';
import { ComandasModule } from '../comandas/comandas.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { HealthController } from './health.controller';

/** Health reads the live streams' and the webhooks' connections too (the connection budget). */
@Module({
  imports: [TenancyModule, ComandasModule, WebhooksModule],
  controllers: [HealthController],
})
export class HealthModule {}
