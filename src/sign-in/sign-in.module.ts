import { Module } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { FairSlots } from '../common/fair-slots';
import { AppLogger } from '../common/logging/logger';
import { HASH_SLOT_COUNT } from '../common/secret-hashing';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ATTEMPT_COUNTER, DatabaseAttemptCounter, RedisAttemptCounter } from './attempt-counter';
import { CredentialsController } from './credentials.controller';
import { CredentialsRepository } from './credentials.repository';
import { SignInController } from './sign-in.controller';
import { SIGN_IN_SLOTS, SignInService } from './sign-in.service';

/**
 * Staff sign-in (docs/sign-in.md): credentials, sessions, the lockout, the hash queue. The
 * lockout counts in Redis when REDIS_URL is set, else (and while Redis is away) in the tenant's
 * database: either way shared by every instance and kept across restarts.
 */
@Module({
  imports: [TenancyModule],
  controllers: [SignInController, CredentialsController],
  providers: [
    SignInService,
    CredentialsRepository,
    DatabaseAttemptCounter,
    {
      provide: ATTEMPT_COUNTER,
      inject: [APP_CONFIG, AppLogger, DatabaseAttemptCounter],
      useFactory: (config: AppConfig, logger: AppLogger, database: DatabaseAttemptCounter) =>
        config.REDIS_URL
          ? RedisAttemptCounter.fromUrl(config.REDIS_URL, database, logger.child('SignIn'))
          : database,
    },
    {
      provide: SIGN_IN_SLOTS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new FairSlots({
          slots: HASH_SLOT_COUNT,
          perKey: config.SIGN_IN_QUEUE_PER_CLIENT,
          max: Math.max(config.SIGN_IN_QUEUE_MAX, HASH_SLOT_COUNT),
        }),
    },
  ],
  // npm run staff sets credentials through the service, the user found by documento
  exports: [SignInService, CredentialsRepository],
})
export class SignInModule {}
