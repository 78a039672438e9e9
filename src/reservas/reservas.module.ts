import { Module } from '@nestjs/common';
import { ComandasModule } from '../comandas/comandas.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ReservasController } from './reservas.controller';
import { ReservasRepository } from './reservas.repository';
import { ReservasService } from './reservas.service';

/**
 * Table reservations (docs/reservas.md): seating one opens a comanda, hence ComandasModule; its
 * writes take an Idempotency-Key, hence IdempotencyModule.
 */
@Module({
  imports: [TenancyModule, ComandasModule, IdempotencyModule],
  controllers: [ReservasController],
  providers: [ReservasService, ReservasRepository],
})
export class ReservasModule {}
