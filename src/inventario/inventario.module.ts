import { Module } from '@nestjs/common';
import { ComandasModule } from '../comandas/comandas.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { RpcModule } from '../rpc/rpc.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { InventarioController } from './inventario.controller';
import { InventarioRepository } from './inventario.repository';
import { InventarioService } from './inventario.service';

/**
 * Stock from recipes (docs/inventario.md), behind the feature `inventario`. It follows the
 * changes of other modules through their extension points (the comandas' transitions, the RPC
 * purchase functions), which know nothing of it.
 */
@Module({
  imports: [TenancyModule, IdempotencyModule, ComandasModule, RpcModule],
  controllers: [InventarioController],
  providers: [InventarioRepository, InventarioService],
})
export class InventarioModule {}
