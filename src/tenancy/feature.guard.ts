import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { RequestContext } from '../common/context/request-context';
import { routeNotFound } from '../common/http/route-not-found';
import { RouteTable } from '../common/http/route-table';
import type { TenantFeature } from '../common/config/features';
import { REQUIRES_FEATURE } from './tenancy.decorators';
import { TENANT_KEYS } from './tenant-context.keys';
import { TenantFeatures } from './tenant-features.service';

/**
 * Keeps a switched-off feature's routes off: the tenant's catalog override when it
 * has one, else the global FEATURE_* switch. Off, the route answers exactly like a route that
 * does not exist, before any tenant check, so its existence does not leak.
 */
@Injectable()
export class FeatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly features: TenantFeatures,
    routes: RouteTable,
  ) {
    // A switched-off route is not among the methods a 405 offers either.
    routes.addAvailabilityCheck((route) => this.isServed(route.targets));
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.isServed([context.getHandler(), context.getClass()])) return true;
    throw routeNotFound(context.switchToHttp().getRequest<Request>());
  }

  /** Whether the route's feature (if it has one) is on for the request's tenant. */
  private isServed(targets: [handler: object, controller: object]): boolean {
    const feature = this.reflector.getAllAndOverride<TenantFeature | undefined>(
      REQUIRES_FEATURE,
      targets as [() => unknown, () => unknown],
    );
    return !feature || this.features.isOn(feature, RequestContext.get(TENANT_KEYS.tenant));
  }
}
