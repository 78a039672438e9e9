import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { TenantContext } from '../tenancy/tenant-context';
import { tenantMismatch, unauthenticated } from './auth.errors';
import {
  IS_PUBLIC,
  QUERY_TOKEN,
  QUERY_TOKEN_MAX_SECONDS,
  type RequestWithUser,
} from './auth.decorators';
import { bearerToken, TokenVerifier } from './token-verifier';

/**
 * With AUTH_MODE=jwt, every route not marked `@Public()` needs a valid Bearer token (401
 * UNAUTHENTICATED), issued for the requested tenant (403 TENANT_MISMATCH). Runs before the
 * tenant guard, so a caller without a token learns nothing about which tenants exist.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly verifier: TokenVerifier,
    private readonly tenants: TenantContext,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.config.AUTH_MODE === 'off' || context.getType() !== 'http') return true;
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<RequestWithUser>();
    const claims = this.verifier.verify(this.tokenOf(context, request));
    // A missing or malformed header is the tenant guard's 400 (TENANT_REQUIRED / _INVALID).
    const requested = this.tenants.requestedSlug;
    if (requested !== undefined && requested !== claims.tenant)
      throw tenantMismatch(claims.tenant, requested);
    request.user = { id_usuario: claims.userId, tenant: claims.tenant };
    if (this.fromQuery(context, request)) {
      const left = claims.expiresAt - Math.floor(Date.now() / 1000);
      if (left > QUERY_TOKEN_MAX_SECONDS)
        throw unauthenticated(
          'query_token_too_long',
          `A token in the query must expire within ${QUERY_TOKEN_MAX_SECONDS} s (npm run token -- --expires-in 5m); send longer ones in the Authorization header`,
        );
    }
    return true;
  }

  /** The Authorization header's token; on a @QueryToken() route without one, ?access_token=. */
  private tokenOf(context: ExecutionContext, request: RequestWithUser): string {
    if (this.fromQuery(context, request)) {
      const token = request.query.access_token as string;
      return bearerToken(`Bearer ${token}`);
    }
    return bearerToken(request.headers.authorization);
  }

  private fromQuery(context: ExecutionContext, request: RequestWithUser): boolean {
    if (request.headers.authorization !== undefined) return false;
    if (typeof request.query?.access_token !== 'string') return false;
    return this.reflector.get<boolean>(QUERY_TOKEN, context.getHandler()) === true;
  }
}
