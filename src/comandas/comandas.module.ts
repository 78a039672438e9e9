import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ComandasController } from './comandas.controller';
import { ComandasRepository } from './comandas.repository';
import { ComandasService } from './comandas.service';
import { ComandaEventHub } from './stream/comanda-event-hub.service';
import { ComandaStreamController } from './stream/comanda-stream.controller';

/** The active order-ticket routes (docs/comandas.md). */
@Module({
  imports: [TenancyModule, IdempotencyModule],
  // the stream first: /comandas/stream must not be taken for /comandas/:id
  controllers: [ComandaStreamController, ComandasController],
  providers: [ComandasService, ComandasRepository, ComandaEventHub],
  // other modules open comandas through the service (a reservation seated opens one)
  exports: [ComandasService, ComandaEventHub],
})
export class ComandasModule {}
