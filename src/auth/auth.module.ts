import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { TenancyModule } from '../tenancy/tenancy.module';
import { CallerPermissions } from './caller-permissions';
import { LiveSessions } from './live-sessions';
import { MeController } from './me.controller';
import { StaffCache } from './staff-cache';
import { StaffRepository } from './staff.repository';
import { loadTokenKeys } from './token-keys';
import { TokenVerifier } from './token-verifier';

/**
 * Authentication and roles (docs/security.md): what the guards need. The guards themselves
 * (AuthenticationGuard, PermissionGuard) are run by the root module's request guard
 * (src/request.guard.ts), around the tenant guard.
 */
@Global()
@Module({
  imports: [TenancyModule],
  controllers: [MeController],
  providers: [
    {
      provide: TokenVerifier,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new TokenVerifier(
          config.AUTH_MODE === 'jwt'
            ? loadTokenKeys(config)
            : { rsaByKid: new Map(), rsaUnnamed: [] },
        ),
    },
    StaffRepository,
    CallerPermissions,
    LiveSessions,
    {
      provide: StaffCache,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new StaffCache(config.TENANT_CACHE_TTL_MS),
    },
  ],
  exports: [TokenVerifier, StaffRepository, CallerPermissions, StaffCache, LiveSessions],
})
export class AuthModule {}
