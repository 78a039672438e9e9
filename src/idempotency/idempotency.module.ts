import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentWrites } from './idempotent-writes';

/**
 * Idempotent writes: the `@Idempotent()` routes of the modules that import this one. The root
 * module imports it too: its request guard prepares the keyed calls.
 */
@Module({
  imports: [TenancyModule],
  providers: [IdempotencyRepository, IdempotentWrites],
  exports: [IdempotentWrites, IdempotencyRepository],
})
export class IdempotencyModule {}
