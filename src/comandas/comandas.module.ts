import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { extendComandas } from './comanda-composition';
import type { ComandaExtensionContract } from './comanda-contract';
import { ComandaExtensions } from './comanda-extensions';
import { ComandasController } from './comandas.controller';
import { ComandasRepository } from './comandas.repository';
import { ComandasService } from './comandas.service';
import { ComandaEventHub } from './stream/comanda-event-hub.service';
import { ComandaStreamController } from './stream/comanda-stream.controller';

/**
 * The active order-ticket routes (docs/comandas.md). The only writer of comandas, their lines
 * and their audit trail (the generic table routes read those tables only).
 */
@Module({
  imports: [TenancyModule, IdempotencyModule],
  // the stream first: /comandas/stream must not be taken for /comandas/:id
  controllers: [ComandaStreamController, ComandasController],
  providers: [ComandasService, ComandasRepository, ComandaEventHub, ComandaExtensions],
  // other modules open comandas through the service (a reservation seated opens one) and add
  // their rules to its changes through the extensions' hooks
  exports: [ComandasService, ComandaEventHub, ComandaExtensions],
})
export class ComandasModule {
  /**
   * The modules that extend the comandas, in order (src/app.module.ts lists them): their
   * actions, fields and errors join the comandas' contract (ComandaExtensionContract), and
   * their hooks run in this order on every change. Before the application is built; once per
   * process (the same list again changes nothing).
   */
  static extendWith(extensions: readonly ComandaExtensionContract[]): void {
    extendComandas(extensions);
  }
}
