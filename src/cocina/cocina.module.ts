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
 * changes as an extension of the comandas (COCINA_EXTENSION, comanda-extension.ts: its actions,
 * the lines' kitchen fields; CocinaService runs its hooks), so the comandas module does not know
 * it.
 */
@Module({
  imports: [TenancyModule, IdempotencyModule, ComandasModule],
  // the stream first: /cocina/stream is a route of its own
  controllers: [CocinaStreamController, CocinaController, CocinaComandasController],
  providers: [CocinaRepository, CocinaService],
})
export class CocinaModule {}
