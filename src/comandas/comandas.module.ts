import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ComandasController } from './comandas.controller';
import { ComandasRepository } from './comandas.repository';
import { ComandasService } from './comandas.service';

/** The active order-ticket routes (seed §4.1, DESIGN §6). */
@Module({
  imports: [TenancyModule],
  controllers: [ComandasController],
  providers: [ComandasService, ComandasRepository],
})
export class ComandasModule {}
