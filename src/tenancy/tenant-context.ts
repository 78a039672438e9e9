import { Injectable } from '@nestjs/common';
import { ClsService } from 'nestjs-cls';
import type { DataSource } from 'typeorm';
import type { DomainError } from '../common/errors/domain-error';
import type { Tenant } from './entities/tenant.entity';
import { TenantContextMissingError } from './tenancy.errors';
import { TenantCatalogService } from './tenant-catalog.service';

/** What the request context holds about the tenant. */
export interface TenantStore {
  /** The catalog row of the X-Tenant-ID tenant, when it exists (any status). */
  tenant?: Tenant;
  /** Why the header does not designate a usable tenant (raised by the tenant guard). */
  tenantError?: DomainError;
  /** The tenant's DataSource, held for the request by the tenant guard. */
  dataSource?: DataSource;
}

/**
 * The current tenant, kept in an AsyncLocalStorage request context (nestjs-cls): behaves like
 * a request-scoped provider without rebuilding the DI graph per request. Its getters throw
 * when no tenant context is active, so a missing context is a loud bug, not a default tenant.
 */
@Injectable()
export class TenantContext {
  constructor(
    private readonly cls: ClsService,
    private readonly catalog: TenantCatalogService,
  ) {}

  get tenant(): Tenant {
    const tenant = this.cls.isActive() ? this.cls.get<Tenant | undefined>('tenant') : undefined;
    if (!tenant || !this.dataSourceOrUndefined()) throw new TenantContextMissingError('the tenant');
    return tenant;
  }

  get dataSource(): DataSource {
    const dataSource = this.dataSourceOrUndefined();
    if (!dataSource) throw new TenantContextMissingError('the tenant DataSource');
    return dataSource;
  }

  /** Whether a tenant is set (for code that runs both inside and outside tenant requests). */
  get isSet(): boolean {
    return this.dataSourceOrUndefined() !== undefined;
  }

  /**
   * Runs `work` inside the context of tenant `slug` (CLI commands, jobs, imports): the same
   * checks as a request (the tenant must exist and be active) and the same DataSource cache.
   */
  async run<T>(slug: string, work: () => Promise<T>): Promise<T> {
    return this.cls.run({ ifNested: 'override' }, async () => {
      const tenant = await this.catalog.requireActive(slug);
      const lease = await this.catalog.acquireDataSource(tenant);
      try {
        this.cls.set('tenant', tenant);
        this.cls.set('dataSource', lease.dataSource);
        return await work();
      } finally {
        lease.release();
      }
    });
  }

  private dataSourceOrUndefined(): DataSource | undefined {
    return this.cls.isActive() ? this.cls.get<DataSource | undefined>('dataSource') : undefined;
  }
}
