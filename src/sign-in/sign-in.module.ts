import { Module } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { AppLogger } from '../common/logging/logger';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ATTEMPT_COUNTER, MemoryAttemptCounter, RedisAttemptCounter } from './attempt-counter';
import { CredentialsController } from './credentials.controller';
import { CredentialsRepository } from './credentials.repository';
import { SignInController } from './sign-in.controller';
import { SignInService } from './sign-in.service';

/**
 * Staff sign-in (docs/sign-in.md): credentials, sessions, the lockout. The lockout counts in
 * Redis when REDIS_URL is set (shared by every instance), else in this instance's memory.
 */
@Module({
  imports: [TenancyModule],
  controllers: [SignInController, CredentialsController],
  providers: [
    SignInService,
    CredentialsRepository,
    {
      provide: ATTEMPT_COUNTER,
      inject: [APP_CONFIG, AppLogger],
      useFactory: (config: AppConfig, logger: AppLogger) =>
        config.REDIS_URL
          ? RedisAttemptCounter.fromUrl(config.REDIS_URL, logger.child('SignIn'))
          : new MemoryAttemptCounter(),
    },
  ],
  // npm run staff sets credentials through the service, the user found by documento
  exports: [SignInService, CredentialsRepository],
})
export class SignInModule {}
