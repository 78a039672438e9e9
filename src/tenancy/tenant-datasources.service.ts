import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG, DATABASE_TARGET } from '../common/config/config.tokens';
import type { DatabaseTarget } from '../database/database-target';
import { directUrl } from '../database/pg-url';
import type { Tenant } from './entities/tenant.entity';
import { tenantDatabaseUrl } from './tenant-database-url';
import { TenantDataSourceManager, type TenantDataSourceLease } from './tenant-datasource.manager';

/**
 * The owner of the tenants' DataSources (one per tenant database, created on first use, bounded
 * in number, see TenantDataSourceManager): the tenant guard and TenantContext.run lease them,
 * health probes them, and they close once the HTTP server has stopped.
 */
@Injectable()
export class TenantDataSources implements OnApplicationShutdown {
  private readonly manager: TenantDataSourceManager;
  private readonly directHosts: string | undefined;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
  ) {
    this.directHosts = config.DIRECT_DATABASE_HOSTS;
    this.manager = new TenantDataSourceManager({
      poolMax: config.TENANT_POOL_MAX,
      maxDataSources: config.TENANT_DATASOURCE_MAX,
      idleTimeoutMs: config.TENANT_IDLE_TIMEOUT_MS,
      connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    });
  }

  /** The tenant's DataSource, held until the lease is released (at once when it is open). */
  acquire(tenant: Tenant): TenantDataSourceLease | Promise<TenantDataSourceLease> {
    return this.manager.acquire({
      slug: tenant.slug,
      url: tenantDatabaseUrl(tenant, this.target.controlUrl),
    });
  }

  /**
   * The URL of a session connection to the tenant's database, for what a pooled connection
   * cannot do (LISTEN): the pool's, with a pooler's host:port swapped for the server's own
   * when DIRECT_DATABASE_HOSTS names it (docs/architecture.md, Scale-out).
   */
  sessionUrl(tenant: Tenant): string {
    return directUrl(tenantDatabaseUrl(tenant, this.target.controlUrl), this.directHosts);
  }

  /** DataSources open (or opening) now. */
  get size(): number {
    return this.manager.size;
  }

  /** Slugs of the cached DataSources, least recently used first. */
  cachedTenants(): string[] {
    return this.manager.cachedTenants();
  }

  /** Tenants whose database does not answer now (health). */
  unreachable(timeoutMs: number): Promise<string[]> {
    return this.manager.unreachable(timeoutMs);
  }

  /** Closes the tenant's DataSource now (after it was migrated or dropped). */
  forget(slug: string): Promise<void> {
    return this.manager.forget(slug);
  }

  /**
   * Closes every tenant pool once the HTTP server has stopped and its requests are answered:
   * Nest runs the shutdown hooks after closing the server, the destroy hooks before it.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.manager.closeAll();
  }
}
