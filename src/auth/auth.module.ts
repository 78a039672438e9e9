import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { TenancyModule } from '../tenancy/tenancy.module';
import { AuthenticationGuard } from './authentication.guard';
import { PermissionGuard } from './permission.guard';
import { StaffRepository } from './staff.repository';
import { loadTokenKeys } from './token-keys';
import { TokenVerifier } from './token-verifier';

/**
 * Authentication and roles (DESIGN §9, docs/security.md). The guards are registered globally by
 * the root module, in order around the tenant guard.
 */
@Global()
@Module({
  imports: [TenancyModule],
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
    AuthenticationGuard,
    PermissionGuard,
  ],
  exports: [TokenVerifier, StaffRepository, AuthenticationGuard, PermissionGuard],
})
export class AuthModule {}
