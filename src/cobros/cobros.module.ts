import { Module } from '@nestjs/common';
import { ComandasModule } from '../comandas/comandas.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { CajasController } from './cajas.controller';
import { CajasRepository } from './cajas.repository';
import { CajasService } from './cajas.service';
import { CobrosController } from './cobros.controller';
import { CobrosRepository } from './cobros.repository';
import { CobrosService } from './cobros.service';

/**
 * Money (docs/cobros.md): payments, tills and the day's close, behind the feature `cobros`.
 * It extends the comandas (COBROS_EXTENSION, comanda-extension.ts: its actions, the bill in the
 * detail, `pagos` in the PUT; CobrosService runs its hooks), so the comandas module does not know it.
 */
@Module({
  imports: [TenancyModule, IdempotencyModule, ComandasModule],
  controllers: [CobrosController, CajasController],
  providers: [CobrosRepository, CajasRepository, CobrosService, CajasService],
})
export class CobrosModule {}
