import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { RpcController } from './rpc.controller';
import { RpcRepository } from './rpc.repository';
import { RpcService } from './rpc.service';
import { StoreFunctionHooks } from './store-function-hooks';

/**
 * The business RPC routes over PL/pgSQL store functions, behind FEATURE_RPC (docs/rpc.md). The
 * modules that keep rules on what those functions change register them with StoreFunctionHooks.
 */
@Module({
  imports: [TenancyModule],
  controllers: [RpcController],
  providers: [RpcService, RpcRepository, StoreFunctionHooks],
  exports: [RpcRepository, StoreFunctionHooks],
})
export class RpcModule {}
