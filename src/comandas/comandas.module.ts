import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ComandasController } from './comandas.controller';
import { ComandasRepository } from './comandas.repository';
import { ComandasService } from './comandas.service';

/** The active order-ticket routes (docs/comandas.md). */
@Module({
  imports: [TenancyModule, IdempotencyModule],
  controllers: [ComandasController],
  providers: [ComandasService, ComandasRepository],
  // other modules open comandas through the service (a reservation seated opens one)
  exports: [ComandasService],
})
export class ComandasModule {}
