import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ClsService } from 'nestjs-cls';
import type { Tenant, TenantFeature } from '../../tenancy/entities/tenant.entity';
import { TenantCatalogService } from '../../tenancy/tenant-catalog.service';
import { REQUIRES_FEATURE } from '../decorators';
import { routeNotFound } from '../http/route-not-found';

/**
 * Keeps a switched-off feature's routes off (DESIGN §5): the tenant's catalog override when it
 * has one, else the global FEATURE_* switch. Off, the route answers exactly like a route that
 * does not exist, before any tenant check, so its existence does not leak.
 */
@Injectable()
export class FeatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly cls: ClsService,
    private readonly catalog: TenantCatalogService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const feature = this.reflector.getAllAndOverride<TenantFeature | undefined>(REQUIRES_FEATURE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!feature) return true;
    const tenant = this.cls.get<Tenant | undefined>('tenant');
    if (this.catalog.isFeatureEnabled(feature, tenant)) return true;
    throw routeNotFound(context.switchToHttp().getRequest<Request>());
  }
}
