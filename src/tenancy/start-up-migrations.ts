import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../common/config/app-config';
import type { DatabaseTarget } from '../database/database-target';
import { Tenant } from './entities/tenant.entity';
import { TenantAdmin, tenantAdminSettings, migrationFailure } from './tenant-admin';

/** The lock instances take turns on (one control database, every instance of the service). */
const LOCK_KEY = 'comandas:tenant-migrations-at-start';

export interface StartUpLog {
  info(message: string): void;
  warn(message: string): void;
}

/** MIGRATE_TENANTS_AT_START, or unset: on with the embedded PostgreSQL (development). */
export function migratesTenantsAtStart(config: AppConfig, target: DatabaseTarget): boolean {
  return config.MIGRATE_TENANTS_AT_START ?? target.embedded;
}

/**
 * Brings every tenant's database to the code's schema before the service serves (what
 * `npm run tenant -- migrate --all` does). Instances starting at once take turns under a
 * PostgreSQL advisory lock on the control database: the first migrates, the next find every
 * tenant up to date (each tenant's migrations also run under their own lock, so a tenant CLI
 * running meanwhile is safe too). A tenant that cannot be migrated (its server away, a failing
 * migration) is logged and left: the service starts, and that tenant answers 503
 * TENANT_SCHEMA_OUTDATED until it is migrated. Tenants still being created are left to
 * `npm run tenant -- create`.
 */
export async function migrateTenantsAtStart(
  config: AppConfig,
  target: DatabaseTarget,
  log: StartUpLog,
): Promise<void> {
  const lock = new Client({
    connectionString: target.controlUrl,
    connectionTimeoutMillis: config.DB_CONNECT_TIMEOUT_MS,
    application_name: 'comandas:tenant-migrations',
  });
  await lock.connect();
  const control = new DataSource({
    type: 'postgres',
    url: target.controlUrl,
    // the tenant administration reads and writes the catalog only
    entities: [Tenant],
    poolSize: 1,
    connectTimeoutMS: config.DB_CONNECT_TIMEOUT_MS,
    applicationName: 'comandas:tenant-migrations',
  });
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [LOCK_KEY]);
    await control.initialize();
    const admin = new TenantAdmin(control, tenantAdminSettings(config, target.controlUrl));
    const tenants = (await admin.list()).filter((tenant) => tenant.status !== 'provisioning');
    let migrated = 0;
    const failed: string[] = [];
    for (const { slug } of tenants) {
      try {
        const ran = await admin.migrate(slug, { markUpToDate: false });
        if (ran.length > 0) {
          migrated += 1;
          log.info(`Tenant ${slug} migrated: ${ran.join(', ')}`);
        }
      } catch (error) {
        failed.push(slug);
        const reason = migrationFailure(error);
        log.warn(`Tenant ${slug} could not be migrated at start: ${reason}`);
      }
    }
    log.info(
      `Tenant migrations at start: ${tenants.length} tenant(s), ${migrated} migrated, ` +
        `${tenants.length - migrated - failed.length} up to date` +
        (failed.length > 0 ? `, FAILED: ${failed.join(', ')}` : ''),
    );
  } finally {
    if (control.isInitialized) await control.destroy();
    // ending the session releases the lock
    await lock.end();
  }
}
