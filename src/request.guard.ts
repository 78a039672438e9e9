import { CanActivate, ExecutionContext, Inject, Injectable, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import type { Request, Response } from 'express';
import { AuthenticationGuard } from './auth/authentication.guard';
import { PermissionGuard } from './auth/permission.guard';
import type { AppConfig } from './common/config/app-config';
import { APP_CONFIG } from './common/config/config.tokens';
import { LONG_RUNNING } from './common/decorators';
import { BODY_TYPES, checkBodyType } from './common/http/body-type';
import { RequestTimeouts } from './common/http/request-timeouts';
import { routeMetadata, type RoutePlans } from './common/http/route-plans';
import { RouteTable } from './common/http/route-table';
import { answersVersion, VERSIONED } from './common/http/versioned';
import { IDEMPOTENT } from './idempotency/idempotent.decorator';
import { IdempotentWrites } from './idempotency/idempotent-writes';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { FeatureGuard } from './tenancy/feature.guard';
import { TenantGuard } from './tenancy/tenant.guard';

/**
 * The one global guard: every check a request passes before its handler, in this order (each
 * may refuse it). This is the one place the order is written; the docs and other comments
 * point here.
 *
 * 1. the route's feature is on (FeatureGuard: a switched-off feature answers 404 exactly like
 *    an unknown route, to everyone, so neither a rate limit nor a token check reveals it);
 * 2. the token is read (AuthenticationGuard, AUTH_MODE=jwt), but its refusal (401 without a
 *    valid Bearer token, 403 TENANT_MISMATCH) waits for the rate limit, which counts a refused
 *    caller by its address alone;
 * 3. the rate limit (RateLimitGuard, 429 with Retry-After past RATE_LIMIT_MAX requests), when
 *    RATE_LIMIT_MAX is not 0: per client of a tenant the catalog knows and the caller passed
 *    authentication for, otherwise per client address whatever X-Tenant-ID says (floods of
 *    unknown tenants or bad tokens are limited, and buy no budget by varying the header);
 *    then the token's refusal, before anything about the tenant is told, so tenants cannot be
 *    enumerated;
 * 4. the tenant (TenantGuard: 400 / 404 / 403 / 503 from the middleware's verdict), whose
 *    DataSource is then held for the request;
 * 5. the user's roles in the tenant's database (PermissionGuard, AUTH_MODE=jwt: 401
 *    unknown_user, 403 FORBIDDEN);
 * 6. the body's media type (checkBodyType: 415 for a body that is not the route's, 400
 *    INVALID_BODY for JSON that is not an object), so an upload a role may not make is
 *    refused before it is read;
 * 7. a @Versioned() route's answer is marked to carry its version as ETag
 *    (VersionedExpressAdapter), and an @Idempotent() write with an Idempotency-Key is prepared
 *    to run in the key's transaction (400 IDEMPOTENCY_KEY_INVALID for a malformed key);
 * 8. the request's deadline starts (RequestTimeouts: 503 REQUEST_TIMEOUT past
 *    REQUEST_TIMEOUT_MS), except on @LongRunning() routes.
 *
 * The ValidationPipe (400 VALIDATION_FAILED) runs after all of them: a refused caller learns
 * nothing about the validity of their request.
 *
 * One guard rather than five: a request waits only where a check has something to wait for
 * (a rate-limit count, a DataSource still opening, roles not cached yet); a GET on an open
 * DataSource passes every check synchronously. What each check reads of its route is resolved
 * at start-up (RouteTable.plansOf), not per request. Each check is still a guard of its own,
 * usable alone with @UseGuards().
 */
@Injectable()
export class RequestGuard implements CanActivate {
  private readonly rateLimited: boolean;
  private readonly plans: RoutePlans<{
    longRunning: boolean;
    bodyTypes?: string[];
    versioned: boolean;
    /** An @Idempotent() write: the status its success is sent with, else undefined. */
    idempotentStatus: number | undefined;
  }>;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly feature: FeatureGuard,
    private readonly rateLimit: RateLimitGuard,
    private readonly authentication: AuthenticationGuard,
    private readonly tenant: TenantGuard,
    private readonly permission: PermissionGuard,
    private readonly timeouts: RequestTimeouts,
    private readonly idempotentWrites: IdempotentWrites,
    routes: RouteTable,
  ) {
    this.rateLimited = config.RATE_LIMIT_MAX > 0;
    this.plans = routes.plansOf((targets) => ({
      longRunning: routeMetadata<boolean>(LONG_RUNNING, targets) === true,
      bodyTypes: routeMetadata<string[]>(BODY_TYPES, targets),
      versioned: routeMetadata<boolean>(VERSIONED, targets) === true,
      idempotentStatus:
        routeMetadata<boolean>(IDEMPOTENT, targets) === true
          ? ((Reflect.getMetadata(HTTP_CODE_METADATA, targets[0]) as number | undefined) ??
            (Reflect.getMetadata(METHOD_METADATA, targets[0]) === RequestMethod.POST ? 201 : 200))
          : undefined,
    }));
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    this.feature.canActivate(context);
    const refusal = this.authentication.authenticate(context);
    if (this.rateLimited) {
      if (refusal) this.rateLimit.countByClientOnly(context.switchToHttp().getRequest<object>());
      return this.rateLimit.canActivate(context).then((allowed) => {
        if (refusal) throw refusal;
        return allowed && this.afterAuthentication(context);
      });
    }
    if (refusal) throw refusal;
    return this.afterAuthentication(context);
  }

  private afterAuthentication(context: ExecutionContext): boolean | Promise<boolean> {
    const tenant = this.tenant.check(context);
    if (tenant) return tenant.then(() => this.afterTenant(context));
    return this.afterTenant(context);
  }

  private afterTenant(context: ExecutionContext): boolean | Promise<boolean> {
    const permission = this.permission.check(context);
    if (permission) return permission.then(() => this.ready(context));
    return this.ready(context);
  }

  private ready(context: ExecutionContext): true {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const plan = this.plans.of(context);
    checkBodyType(request, plan.bodyTypes);
    const response = http.getResponse<Response>();
    if (plan.versioned) answersVersion(response);
    if (plan.idempotentStatus !== undefined)
      this.idempotentWrites.prepare(request, response, plan.idempotentStatus);
    if (!plan.longRunning) this.timeouts.start(request, response);
    return true;
  }
}
