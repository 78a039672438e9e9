import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG, CONTROL_CONNECTION, DATABASE_TARGET } from '../common/config/config.tokens';
import type { DatabaseTarget } from '../database/database-target';
import { Tenant, type TenantFeature } from './entities/tenant.entity';
import { tenantNotFound, tenantProvisioning, tenantSuspended } from './tenancy.errors';
import { tenantDatabaseUrl } from './tenant-admin';
import { TenantDataSourceManager, type TenantDataSourceLease } from './tenant-datasource.manager';

interface CachedTenant {
  tenant: Tenant | null;
  expires: number;
}

/**
 * Reads the tenant catalog of the control database, with a short cache
 * (TENANT_CACHE_TTL_MS) so that a request costs no catalog query, while a suspension or a
 * feature override made with the CLI takes effect within the TTL without a restart.
 */
@Injectable()
export class TenantCatalogService implements OnApplicationShutdown {
  private readonly tenants: Repository<Tenant>;
  private readonly cache = new Map<string, CachedTenant>();
  private readonly pending = new Map<string, Promise<Tenant | null>>();
  readonly dataSources: TenantDataSourceManager;

  constructor(
    @InjectDataSource(CONTROL_CONNECTION) control: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
  ) {
    this.tenants = control.getRepository(Tenant);
    this.dataSources = new TenantDataSourceManager({
      poolMax: config.TENANT_POOL_MAX,
      maxDataSources: config.TENANT_DATASOURCE_MAX,
      idleTimeoutMs: config.TENANT_IDLE_TIMEOUT_MS,
      connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    });
  }

  /** The catalog row of `slug`, or null when there is none (cached). */
  async find(slug: string): Promise<Tenant | null> {
    const now = Date.now();
    const cached = this.cache.get(slug);
    if (cached && cached.expires > now) return cached.tenant;
    let pending = this.pending.get(slug);
    if (!pending) {
      pending = this.tenants.findOneBy({ slug }).finally(() => this.pending.delete(slug));
      this.pending.set(slug, pending);
    }
    const tenant = await pending;
    if (this.config.TENANT_CACHE_TTL_MS > 0) {
      this.cache.set(slug, { tenant, expires: now + this.config.TENANT_CACHE_TTL_MS });
    }
    return tenant;
  }

  /** The tenant, refusing unknown, suspended and half-provisioned ones. */
  async requireActive(slug: string): Promise<Tenant> {
    const tenant = await this.find(slug);
    this.assertUsable(slug, tenant);
    return tenant;
  }

  assertUsable(slug: string, tenant: Tenant | null): asserts tenant is Tenant {
    if (!tenant) throw tenantNotFound(slug);
    if (tenant.status === 'suspended') throw tenantSuspended(slug);
    if (tenant.status === 'provisioning') throw tenantProvisioning(slug);
  }

  /** Whether `feature` is on for `tenant` (its override, else the global switch). */
  isFeatureEnabled(feature: TenantFeature, tenant: Tenant | null | undefined): boolean {
    const override = tenant?.features?.[feature];
    if (typeof override === 'boolean') return override;
    return feature === 'genericTables'
      ? this.config.FEATURE_GENERIC_TABLES
      : this.config.FEATURE_RPC;
  }

  acquireDataSource(tenant: Tenant): Promise<TenantDataSourceLease> {
    return this.dataSources.acquire({
      slug: tenant.slug,
      url: tenantDatabaseUrl(tenant, this.target.controlUrl),
    });
  }

  /** Drops cached catalog rows (all, or one tenant's). */
  invalidate(slug?: string): void {
    if (slug) this.cache.delete(slug);
    else this.cache.clear();
  }

  /**
   * Closes every tenant pool once the HTTP server has stopped and its requests are answered:
   * Nest runs the shutdown hooks after closing the server, the destroy hooks before it.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.dataSources.closeAll();
  }
}
