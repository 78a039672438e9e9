import { Module } from '@nestjs/common';
import { ComandasModule } from '../comandas/comandas.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ReservasController } from './reservas.controller';
import { ReservasRepository } from './reservas.repository';
import { ReservasService } from './reservas.service';

/** Table reservations (docs/reservas.md): seating one opens a comanda, hence ComandasModule. */
@Module({
  imports: [TenancyModule, ComandasModule],
  controllers: [ReservasController],
  providers: [ReservasService, ReservasRepository],
})
export class ReservasModule {}
