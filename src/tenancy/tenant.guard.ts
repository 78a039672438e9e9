import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RequestContext } from '../common/context/request-context';
import { routeMetadata, type RoutePlans } from '../common/http/route-plans';
import { RouteTable } from '../common/http/route-table';
import { onResponseEnd } from '../common/logging/request-logging';
import { NO_TENANT } from './tenancy.decorators';
import { TenantContextMissingError } from './tenancy.errors';
import { TenantCatalogService } from './tenant-catalog.service';
import { TENANT_KEYS } from './tenant-context.keys';
import type { TenantDataSourceLease } from './tenant-datasource.manager';
import { TenantDataSources } from './tenant-datasources.service';

/**
 * Every route is tenant-scoped unless marked `@NoTenant()`. Raises the tenant middleware's
 * verdict (400 / 404 / 403 / 503) and holds the tenant's DataSource for the request: at once
 * when it is open (the usual case: nothing to wait for), else once it has opened.
 */
@Injectable()
export class TenantGuard implements CanActivate {
  private readonly plans: RoutePlans<{ noTenant: boolean }>;

  constructor(
    private readonly catalog: TenantCatalogService,
    private readonly dataSources: TenantDataSources,
    routes: RouteTable,
  ) {
    this.plans = routes.plansOf((targets) => ({
      noTenant: routeMetadata<boolean>(NO_TENANT, targets) === true,
    }));
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const held = this.check(context);
    return held ? held.then(() => true) : true;
  }

  /** Undefined when the request may go on now; a promise while its DataSource opens. */
  check(context: ExecutionContext): Promise<void> | undefined {
    if (context.getType() !== 'http' || this.plans.of(context).noTenant) return undefined;
    const error = RequestContext.get(TENANT_KEYS.tenantError);
    if (error) throw error;
    const tenant = RequestContext.get(TENANT_KEYS.tenant);
    if (!tenant)
      throw new TenantContextMissingError('the tenant (the tenant middleware did not run)');
    // Every later log line of the request (and its completion line) names the tenant.
    RequestContext.assignLog({ tenant: tenant.slug });
    this.catalog.assertUsable(tenant.slug, tenant);
    const response = context.switchToHttp().getResponse<Response>();
    const lease = this.dataSources.acquire(tenant);
    if (lease instanceof Promise) return lease.then((opened) => this.hold(response, opened));
    this.hold(response, lease);
    return undefined;
  }

  private hold(response: Response, lease: TenantDataSourceLease): void {
    onResponseEnd(response, lease.release);
    RequestContext.set(TENANT_KEYS.dataSource, lease.dataSource);
  }
}
