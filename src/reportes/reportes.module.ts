import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ReportesController } from './reportes.controller';
import { ReportesRepository } from './reportes.repository';
import { ReportesService } from './reportes.service';

/**
 * The reports (docs/reportes.md), behind the feature `reportes`: read only, over the comandas,
 * their lines, the money (cobros) and the stock's consumptions (inventario) as those modules
 * store them.
 */
@Module({
  imports: [TenancyModule],
  controllers: [ReportesController],
  providers: [ReportesRepository, ReportesService],
})
export class ReportesModule {}
