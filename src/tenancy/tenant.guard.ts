import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { ClsService } from 'nestjs-cls';
import { PinoLogger } from 'nestjs-pino';
import { NO_TENANT } from '../common/decorators';
import type { DomainError } from '../common/errors/domain-error';
import type { Tenant } from './entities/tenant.entity';
import { TenantContextMissingError } from './tenancy.errors';
import { TenantCatalogService } from './tenant-catalog.service';

/**
 * Every route is tenant-scoped unless marked `@NoTenant()`. Raises the tenant middleware's
 * verdict (400 / 404 / 403 / 503) and holds the tenant's DataSource for the request.
 */
@Injectable()
export class TenantGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly cls: ClsService,
    private readonly catalog: TenantCatalogService,
    private readonly logger: PinoLogger,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const noTenant = this.reflector.getAllAndOverride<boolean>(NO_TENANT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (noTenant) return true;
    const error = this.cls.get<DomainError | undefined>('tenantError');
    if (error) throw error;
    const tenant = this.cls.get<Tenant | undefined>('tenant');
    if (!tenant)
      throw new TenantContextMissingError('the tenant (the tenant middleware did not run)');
    // Every later log line of the request (and its completion line) names the tenant.
    this.logger.assign({ tenant: tenant.slug });
    this.catalog.assertUsable(tenant.slug, tenant);
    const lease = await this.catalog.acquireDataSource(tenant);
    const response = context.switchToHttp().getResponse<Response>();
    response.once('finish', lease.release);
    response.once('close', lease.release);
    this.cls.set('dataSource', lease.dataSource);
    return true;
  }
}
