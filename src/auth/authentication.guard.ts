import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { routeMetadata, type RoutePlans } from '../common/http/route-plans';
import { RouteTable } from '../common/http/route-table';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { DomainError } from '../common/errors/domain-error';
import { TenantContext } from '../tenancy/tenant-context';
import { tenantMismatch } from '../common/errors/common.errors';
import { queryTokenTooLong } from './auth.errors';
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
  private readonly plans: RoutePlans<{ isPublic: boolean; queryToken: boolean }>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly verifier: TokenVerifier,
    private readonly tenants: TenantContext,
    routes: RouteTable,
  ) {
    this.plans = routes.plansOf((targets) => ({
      isPublic: routeMetadata<boolean>(IS_PUBLIC, targets) === true,
      // on the handler only: a controller cannot open every route to query tokens
      queryToken: Reflect.getMetadata(QUERY_TOKEN, targets[0]) === true,
    }));
  }

  canActivate(context: ExecutionContext): boolean {
    const refusal = this.authenticate(context);
    if (refusal) throw refusal;
    return true;
  }

  /**
   * The check without the throw (the request guard counts a refused caller by its address
   * before it answers): undefined when the caller may go on, with `request.user` set for a
   * token, else the 401 / 403 to answer.
   */
  authenticate(context: ExecutionContext): DomainError | undefined {
    try {
      this.check(context);
      return undefined;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  }

  private check(context: ExecutionContext): void {
    if (this.config.AUTH_MODE === 'off' || context.getType() !== 'http') return;
    const plan = this.plans.of(context);
    if (plan.isPublic) return;
    const request = context.switchToHttp().getRequest<RequestWithUser>();
    const fromQuery = plan.queryToken && this.fromQuery(request);
    const claims = this.verifier.verify(this.tokenOf(fromQuery, request));
    // A missing or malformed header is the tenant guard's 400 (TENANT_REQUIRED / _INVALID).
    const requested = this.tenants.requestedSlug;
    if (requested !== undefined && requested !== claims.tenant)
      throw tenantMismatch(claims.tenant, requested);
    if (fromQuery) {
      const left = claims.expiresAt - Math.floor(Date.now() / 1000);
      if (left > QUERY_TOKEN_MAX_SECONDS) throw queryTokenTooLong(QUERY_TOKEN_MAX_SECONDS);
    }
    request.user = {
      id_usuario: claims.userId,
      tenant: claims.tenant,
      sessionId: claims.sessionId,
      expiresAt: claims.expiresAt,
      issuedAt: claims.issuedAt,
    };
  }

  /** The Authorization header's token; on a @QueryToken() route without one, ?access_token=. */
  private tokenOf(fromQuery: boolean, request: RequestWithUser): string {
    if (fromQuery) {
      const token = request.query.access_token as string;
      return bearerToken(`Bearer ${token}`);
    }
    return bearerToken(request.headers.authorization);
  }

  /** On a @QueryToken() route: whether the token comes from the query. */
  private fromQuery(request: RequestWithUser): boolean {
    if (request.headers.authorization !== undefined) return false;
    return typeof request.query?.access_token === 'string';
  }
}
