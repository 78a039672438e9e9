import { Module } from '@nestjs/common';
import { ComandasModule } from '../comandas/comandas.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { HealthController } from './health.controller';

/** Health reads the live streams' connections too (the connection budget). */
@Module({
  imports: [TenancyModule, ComandasModule],
  controllers: [HealthController],
})
export class HealthModule {}
