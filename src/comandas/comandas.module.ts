import { Module } from '@nestjs/common';
import { GenericTablesModule } from '../generic-tables/generic-tables.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ComandaExtensions } from './comanda-extensions';
import { ComandaRowHooks } from './comanda-row-hooks';
import { ComandasController } from './comandas.controller';
import { ComandasRepository } from './comandas.repository';
import { ComandasService } from './comandas.service';
import { ComandaEventHub } from './stream/comanda-event-hub.service';
import { ComandaStreamController } from './stream/comanda-stream.controller';

/**
 * The active order-ticket routes (docs/comandas.md). The only writer of the audit trail: the
 * rows the generic table routes insert into its tables are audited by its hooks there
 * (ComandaRowHooks).
 */
@Module({
  imports: [TenancyModule, IdempotencyModule, GenericTablesModule],
  // the stream first: /comandas/stream must not be taken for /comandas/:id
  controllers: [ComandaStreamController, ComandasController],
  providers: [
    ComandasService,
    ComandasRepository,
    ComandaEventHub,
    ComandaRowHooks,
    ComandaExtensions,
  ],
  // other modules open comandas through the service (a reservation seated opens one) and add
  // their rules to its changes through the extensions (money: src/cobros)
  exports: [ComandasService, ComandaEventHub, ComandaExtensions],
})
export class ComandasModule {}
