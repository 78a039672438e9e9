import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { RpcController } from './rpc.controller';
import { RpcRepository } from './rpc.repository';
import { RpcService } from './rpc.service';

/** The business RPC routes over PL/pgSQL store functions, behind FEATURE_RPC (docs/rpc.md). */
@Module({
  imports: [TenancyModule],
  controllers: [RpcController],
  providers: [RpcService, RpcRepository],
  exports: [RpcRepository],
})
export class RpcModule {}
