import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RequestContext } from '../common/context/request-context';
import { routeNotFound } from '../common/http/route-not-found';
import { routeMetadata, type RoutePlans } from '../common/http/route-plans';
import { RouteTable } from '../common/http/route-table';
import type { TenantFeature } from '../common/config/features';
import { REQUIRES_FEATURE } from './tenancy.decorators';
import { TENANT_KEYS } from './tenant-context.keys';
import { TenantFeatures } from './tenant-features.service';

/**
 * Keeps a switched-off feature's routes off: the tenant's catalog override when it
 * has one, else the global FEATURE_* switch. Off, the route answers exactly like a route that
 * does not exist, before any tenant check, so its existence does not leak. The first check of
 * the request guard (src/request.guard.ts).
 */
@Injectable()
export class FeatureGuard implements CanActivate {
  /** Each route's feature (undefined: always served), read once. */
  private readonly plans: RoutePlans<{ feature: TenantFeature | undefined }>;

  constructor(
    private readonly features: TenantFeatures,
    routes: RouteTable,
  ) {
    this.plans = routes.plansOf((targets) => ({
      feature: routeMetadata<TenantFeature>(REQUIRES_FEATURE, targets),
    }));
    // A switched-off route is not among the methods a 405 offers either.
    routes.addAvailabilityCheck((route) => this.isServed(this.plans.prime(route.targets)));
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.isServed(this.plans.of(context))) return true;
    throw routeNotFound(context.switchToHttp().getRequest<Request>());
  }

  /** Whether the route's feature (if it has one) is on for the request's tenant. */
  private isServed({ feature }: { feature: TenantFeature | undefined }): boolean {
    return !feature || this.features.isOn(feature, RequestContext.get(TENANT_KEYS.tenant));
  }
}
