import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { RpcController } from './rpc.controller';
import { RpcRepository } from './rpc.repository';
import { RpcService } from './rpc.service';

/** Seed §4.2.2: business routes over PL/pgSQL store functions, behind FEATURE_RPC (DESIGN §5). */
@Module({
  imports: [TenancyModule],
  controllers: [RpcController],
  providers: [RpcService, RpcRepository],
  exports: [RpcRepository],
})
export class RpcModule {}
