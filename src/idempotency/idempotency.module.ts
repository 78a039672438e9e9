import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';

/** Idempotent writes: the `@Idempotent()` routes of the modules that import this one. */
@Module({
  imports: [TenancyModule],
  providers: [IdempotencyRepository, IdempotencyInterceptor],
  // an interceptor named in @UseInterceptors is built in the controller's module: it needs both
  exports: [IdempotencyInterceptor, IdempotencyRepository],
})
export class IdempotencyModule {}
