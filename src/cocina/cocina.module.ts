import { Module } from '@nestjs/common';
import { ComandasModule } from '../comandas/comandas.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { CocinaComandasController, CocinaController } from './cocina.controller';
import { CocinaRepository } from './cocina.repository';
import { CocinaService } from './cocina.service';
import { CocinaStreamController } from './cocina-stream.controller';

/**
 * The kitchen (docs/cocina.md), behind the feature `cocina`. It adds its rules to the comandas'
 * changes through the comandas module's extensions (CocinaService registers itself), so the
 * comandas module does not know it.
 */
@Module({
  imports: [TenancyModule, IdempotencyModule, ComandasModule],
  // the stream first: /cocina/stream is a route of its own
  controllers: [CocinaStreamController, CocinaController, CocinaComandasController],
  providers: [CocinaRepository, CocinaService],
})
export class CocinaModule {}
