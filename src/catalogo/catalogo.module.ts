import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { CatalogoController } from './catalogo.controller';
import { CatalogoRepository } from './catalogo.repository';

/**
 * The floor's menu, tables and waiters, read only (docs/catalogo.md): the products to pick
 * from, the tables with their open comandas and the waiters by name. Always on; reading needs
 * comandas:read.
 */
@Module({
  imports: [TenancyModule],
  controllers: [CatalogoController],
  providers: [CatalogoRepository],
})
export class CatalogoModule {}
