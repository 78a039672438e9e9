import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { RequestContext } from '../common/context/request-context';
import { NO_TENANT } from './tenancy.decorators';
import { TenantContextMissingError } from './tenancy.errors';
import { TenantCatalogService } from './tenant-catalog.service';
import { TENANT_KEYS } from './tenant-context.keys';
import { TenantDataSources } from './tenant-datasources.service';

/**
 * Every route is tenant-scoped unless marked `@NoTenant()`. Raises the tenant middleware's
 * verdict (400 / 404 / 403 / 503) and holds the tenant's DataSource for the request.
 */
@Injectable()
export class TenantGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly catalog: TenantCatalogService,
    private readonly dataSources: TenantDataSources,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const noTenant = this.reflector.getAllAndOverride<boolean>(NO_TENANT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (noTenant) return true;
    const error = RequestContext.get(TENANT_KEYS.tenantError);
    if (error) throw error;
    const tenant = RequestContext.get(TENANT_KEYS.tenant);
    if (!tenant)
      throw new TenantContextMissingError('the tenant (the tenant middleware did not run)');
    // Every later log line of the request (and its completion line) names the tenant.
    RequestContext.assignLog({ tenant: tenant.slug });
    this.catalog.assertUsable(tenant.slug, tenant);
    const lease = await this.dataSources.acquire(tenant);
    const response = context.switchToHttp().getResponse<Response>();
    response.once('finish', lease.release);
    response.once('close', lease.release);
    RequestContext.set(TENANT_KEYS.dataSource, lease.dataSource);
    return true;
  }
}
