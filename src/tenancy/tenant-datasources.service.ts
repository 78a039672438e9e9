import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG, DATABASE_TARGET } from '../common/config/config.tokens';
import type { DomainError } from '../common/errors/domain-error';
import { AppLogger, type Logger } from '../common/logging/logger';
import {
  missingMigrations,
  tenantMigrationNames,
  type DatabaseTarget,
} from '../database/database-target';
import { directUrl } from '../database/pg-url';
import { databaseSwitchesOff, featureDefinitions } from '../common/config/features';
import type { Tenant } from './entities/tenant.entity';
import { TenantFeatures } from './tenant-features.service';
import { migrateCommand, tenantSchemaOutdated } from '../common/errors/common.errors';
import { tenantDatabaseUrl } from './tenant-database-url';
import {
  TenantDataSourceManager,
  type TenantConnectionTarget,
  type TenantDataSourceLease,
} from './tenant-datasource.manager';

/**
 * A tenant found behind the code is refused without opening its database again until the
 * catalog says it was migrated (its migrated_at changes), or this long has passed (a migration
 * run some other way than the tenant CLI).
 */
const OUTDATED_RECHECK_MS = 60_000;

interface Outdated {
  /** The schema stamp it was found outdated with. */
  stamp: string;
  recheckAt: number;
  error: DomainError;
}

/** What changes when a tenant's schema may have: the catalog's migrated_at. */
function schemaStampOf(tenant: Tenant): string {
  return String(tenant.migratedAt?.getTime() ?? 'never');
}

/**
 * The owner of the tenants' DataSources (one per tenant database, created on first use, bounded
 * in number, see TenantDataSourceManager): the tenant guard and TenantContext.run lease them,
 * health probes them, and they close once the HTTP server has stopped.
 *
 * A tenant database opened for the first time (and again after the tenant was migrated) has its
 * `schema_migrations` compared with the code's tenant migrations, one query: a tenant behind the
 * code (updated, not migrated yet) is refused with 503 TENANT_SCHEMA_OUTDATED naming
 * `npm run tenant -- migrate <slug>`, and logged once, rather than failing request by request
 * on a missing table or function.
 */
@Injectable()
export class TenantDataSources implements OnApplicationShutdown {
  private readonly manager: TenantDataSourceManager;
  private readonly directHosts: string | undefined;
  private readonly logger: Logger;
  private readonly outdated = new Map<string, Outdated>();
  /** The session settings each tenant's database was last told about (onOpen of features). */
  private readonly switchesTold = new Map<string, string>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
    logger: AppLogger,
    private readonly features: TenantFeatures,
  ) {
    this.directHosts = config.DIRECT_DATABASE_HOSTS;
    this.logger = logger.child('TenantDataSources');
    this.manager = new TenantDataSourceManager({
      poolMax: config.TENANT_POOL_MAX,
      maxDataSources: config.TENANT_DATASOURCE_MAX,
      idleTimeoutMs: config.TENANT_IDLE_TIMEOUT_MS,
      connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
      checkSchema: (target, dataSource) => this.checkSchema(target, dataSource),
      onOpen: (target, dataSource) => this.tellSwitches(target, dataSource),
    });
  }

  /**
   * The tenant's DataSource, held until the lease is released (at once when it is open).
   * Throws (or rejects with) 503 TENANT_SCHEMA_OUTDATED for a tenant behind the code.
   */
  acquire(tenant: Tenant): TenantDataSourceLease | Promise<TenantDataSourceLease> {
    const stamp = schemaStampOf(tenant);
    const outdated = this.outdated.get(tenant.slug);
    if (outdated && outdated.stamp === stamp && Date.now() < outdated.recheckAt) {
      throw outdated.error;
    }
    return this.manager.acquire({
      slug: tenant.slug,
      url: tenantDatabaseUrl(tenant, this.target.controlUrl),
      schemaStamp: stamp,
      sessionOptions: databaseSwitchesOff((feature) => this.features.isOn(feature, tenant)),
    });
  }

  /**
   * The features with triggers that must know when they were switched (FeatureDefinition's
   * `inDatabase.onOpen`) are told whether they are on, once per process and setting.
   */
  private async tellSwitches(target: TenantConnectionTarget, dataSource: DataSource) {
    const options = target.sessionOptions ?? '';
    const before = this.switchesTold.get(target.slug);
    if (before === options) return;
    const off = (settings: string, feature: string) => settings.includes(`comandas.${feature}=off`);
    for (const [feature, definition] of featureDefinitions()) {
      const onOpen = definition.inDatabase?.onOpen;
      if (!onOpen) continue;
      // switched on here after this process wrote with it off: told both, in order, so that
      // what this process did not record is repaired even if another instance said "on" since
      if (before !== undefined && off(before, feature) && !off(options, feature))
        await dataSource.query(onOpen, [false]);
      await dataSource.query(onOpen, [!off(options, feature)]);
    }
    this.switchesTold.set(target.slug, options);
  }

  /** Refuses a tenant database that lacks some of the code's tenant migrations. */
  private async checkSchema(target: TenantConnectionTarget, dataSource: DataSource): Promise<void> {
    const { slug } = target;
    const missing = await missingMigrations(dataSource, tenantMigrationNames());
    if (missing.length === 0) {
      if (this.outdated.delete(slug)) {
        this.logger.info({ tenant: slug }, `Tenant ${slug} is migrated: its requests are served`);
      }
      return;
    }
    const error = tenantSchemaOutdated(slug);
    if (!this.outdated.has(slug)) {
      this.logger.warn(
        { tenant: slug, code: error.code, missingMigrations: missing },
        `Tenant ${slug}: its database lacks ${missing.length} migration(s) of this version ` +
          `(${missing.join(', ')}): run ${migrateCommand(slug)} (or --all). Until then its ` +
          `requests are answered 503 ${error.code}`,
      );
    }
    this.outdated.set(slug, {
      stamp: target.schemaStamp ?? '',
      recheckAt: Date.now() + OUTDATED_RECHECK_MS,
      error,
    });
    throw error;
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
