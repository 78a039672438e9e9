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
 * may refuse it):
 *
 * 1. the route's feature is on (FeatureGuard: 404 like an unknown route, so a rate limit
 *    cannot reveal a switched-off route);
 * 2. the rate limit (RateLimitGuard, 429), when RATE_LIMIT_MAX is not 0;
 * 3. the token (AuthenticationGuard, 401 before anything about the tenant is told);
 * 4. the tenant, whose DataSource is held for the request (TenantGuard, 400 / 404 / 403 / 503);
 * 5. the user's roles in the tenant's database (PermissionGuard, 401 / 403);
 * 6. the body's media type (415, 400 INVALID_BODY), then the request's deadline starts
 *    (REQUEST_TIMEOUT_MS, except @LongRunning() routes); a @Versioned() route's answer is marked
 *    to carry its version as ETag (VersionedExpressAdapter); an @Idempotent() write with an
 *    Idempotency-Key is prepared to run in the key's transaction (400 for a malformed key).
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
    if (this.rateLimited)
      return this.rateLimit
        .canActivate(context)
        .then((allowed) => allowed && this.afterRate(context));
    return this.afterRate(context);
  }

  private afterRate(context: ExecutionContext): boolean | Promise<boolean> {
    this.authentication.canActivate(context);
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
