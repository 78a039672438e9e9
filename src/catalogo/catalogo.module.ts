import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { CatalogoController } from './catalogo.controller';
import { CatalogoRepository } from './catalogo.repository';

/**
 * The floor's menu and tables, read only (docs/catalogo.md): the products to pick from and the
 * tables with their open comandas. Always on; reading needs comandas:read.
 */
@Module({
  imports: [TenancyModule],
  controllers: [CatalogoController],
  providers: [CatalogoRepository],
})
export class CatalogoModule {}
