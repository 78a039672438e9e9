import { DataSource, Repository } from 'typeorm';
import { isTimeZone } from '../common/config/app-config';
import { todayIn } from '../common/time';
import { dropDatabase, ensureDatabase, runMigrations } from '../database/database-target';
import { seedDemoData, type DemoDataSummary } from '../database/demo/demo-data';
import { TENANT_MIGRATIONS } from '../database/migrations/tenant';
import { databaseOf, withDatabase } from '../database/pg-url';
import { Tenant, TENANT_FEATURES, type TenantFeature } from './entities/tenant.entity';
import { isTenantSlug, MAX_DATABASE_NAME_LENGTH, tenantDatabaseName } from './tenant-slug';

export interface TenantAdminSettings {
  /** URL of the control database; tenant databases default to its server. */
  controlUrl: string;
  databasePrefix: string;
  defaultTimeZone: string;
  connectTimeoutMs: number;
}

export interface CreateTenantInput {
  slug: string;
  name?: string;
  /** URL of the tenant's own database on another server. */
  databaseUrl?: string;
  timeZone?: string;
  demo?: boolean;
  /** The provisioning day (YYYY-MM-DD) that demo dates are relative to; default: today in the tenant's zone. */
  demoToday?: string;
}

export interface CreateTenantResult {
  tenant: Tenant;
  created: boolean;
  databaseCreated: boolean;
  migrations: string[];
  demo?: DemoDataSummary;
}

/** A problem with an administrative request (the CLI exits with code 2 for these). */
export class TenantAdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TenantAdminError';
  }
}

/** The URL of a tenant's database. */
export function tenantDatabaseUrl(
  tenant: Pick<Tenant, 'databaseName' | 'databaseUrl'>,
  controlUrl: string,
): string {
  return tenant.databaseUrl ?? withDatabase(controlUrl, tenant.databaseName);
}

/**
 * Tenant operations of the CLI (and of the demo provisioning at start-up). Every operation
 * is idempotent: running it again after a success or a half-done failure finishes the job.
 */
export class TenantAdmin {
  private readonly tenants: Repository<Tenant>;

  constructor(
    control: DataSource,
    private readonly settings: TenantAdminSettings,
  ) {
    this.tenants = control.getRepository(Tenant);
  }

  list(): Promise<Tenant[]> {
    return this.tenants.find({ order: { slug: 'ASC' } });
  }

  async get(slug: string): Promise<Tenant> {
    this.checkSlug(slug);
    const tenant = await this.tenants.findOneBy({ slug });
    if (!tenant) throw new TenantAdminError(`Tenant "${slug}" does not exist`);
    return tenant;
  }

  async create(input: CreateTenantInput): Promise<CreateTenantResult> {
    this.checkSlug(input.slug);
    const timeZone = input.timeZone ?? this.settings.defaultTimeZone;
    if (!isTimeZone(timeZone)) throw new TenantAdminError(`"${timeZone}" is not an IANA time zone`);
    const databaseName = input.databaseUrl
      ? this.databaseOfUrl(input.databaseUrl)
      : tenantDatabaseName(this.settings.databasePrefix, input.slug);
    if (databaseName.length > MAX_DATABASE_NAME_LENGTH) {
      throw new TenantAdminError(
        `The database name "${databaseName}" is longer than ${MAX_DATABASE_NAME_LENGTH} characters: use a shorter slug`,
      );
    }

    let tenant = await this.tenants.findOneBy({ slug: input.slug });
    let created = false;
    if (tenant) {
      const sameDatabase =
        tenant.databaseName === databaseName &&
        (tenant.databaseUrl ?? undefined) === input.databaseUrl;
      if (!sameDatabase) {
        throw new TenantAdminError(
          `Tenant "${input.slug}" already exists with another database (${tenant.databaseName}); drop it first`,
        );
      }
    } else {
      const clash = await this.tenants
        .createQueryBuilder('t')
        .where("coalesce(t.database_url, '') = :url AND t.database_name = :db", {
          url: input.databaseUrl ?? '',
          db: databaseName,
        })
        .getOne();
      if (clash)
        throw new TenantAdminError(
          `Database "${databaseName}" already belongs to tenant "${clash.slug}"`,
        );
      tenant = await this.tenants.save(
        this.tenants.create({
          slug: input.slug,
          name: input.name?.trim() || input.slug,
          databaseName,
          databaseUrl: input.databaseUrl ?? null,
          status: 'provisioning',
          timeZone,
          features: {},
        }),
      );
      created = true;
    }

    const url = tenantDatabaseUrl(tenant, this.settings.controlUrl);
    const databaseCreated = await ensureDatabase(
      url,
      tenant.databaseName,
      this.settings.connectTimeoutMs,
    );
    const migrations = await runMigrations(url, TENANT_MIGRATIONS, this.settings.connectTimeoutMs);
    if (migrations.length > 0 || !tenant.migratedAt) tenant = await this.markMigrated(tenant);
    let demo: DemoDataSummary | undefined;
    if (input.demo) demo = await this.seedDemo(tenant, url, input.demoToday);
    if (tenant.status === 'provisioning') {
      tenant.status = 'active';
      tenant = await this.tenants.save(tenant);
    }
    return { tenant, created, databaseCreated, migrations, demo };
  }

  /**
   * Runs pending tenant migrations on one tenant, and records the time in the catalog so
   * that running services refresh their cached schema metadata of this tenant.
   */
  async migrate(slug: string): Promise<string[]> {
    const tenant = await this.get(slug);
    const url = tenantDatabaseUrl(tenant, this.settings.controlUrl);
    const ran = await runMigrations(url, TENANT_MIGRATIONS, this.settings.connectTimeoutMs);
    await this.markMigrated(tenant);
    return ran;
  }

  private async markMigrated(tenant: Tenant): Promise<Tenant> {
    tenant.migratedAt = new Date();
    return this.tenants.save(tenant);
  }

  async setStatus(slug: string, status: 'active' | 'suspended'): Promise<Tenant> {
    const tenant = await this.get(slug);
    if (tenant.status === 'provisioning') {
      throw new TenantAdminError(
        `Tenant "${slug}" is still being provisioned: run create again to finish it`,
      );
    }
    if (tenant.status === status) return tenant;
    tenant.status = status;
    return this.tenants.save(tenant);
  }

  /** Sets a per-tenant feature override (`undefined`: follow the global switch). */
  async setFeature(slug: string, feature: string, enabled: boolean | undefined): Promise<Tenant> {
    if (!(TENANT_FEATURES as readonly string[]).includes(feature)) {
      throw new TenantAdminError(
        `Unknown feature "${feature}": one of ${TENANT_FEATURES.join(', ')}`,
      );
    }
    const tenant = await this.get(slug);
    const features = { ...tenant.features };
    if (enabled === undefined) delete features[feature as TenantFeature];
    else features[feature as TenantFeature] = enabled;
    tenant.features = features;
    return this.tenants.save(tenant);
  }

  /** Drops the tenant's database and its catalog row. */
  async drop(slug: string): Promise<{ databaseDropped: boolean }> {
    const tenant = await this.get(slug);
    const url = tenantDatabaseUrl(tenant, this.settings.controlUrl);
    // Suspend first so that running services refuse new requests while the database goes.
    await this.tenants.update({ id: tenant.id }, { status: 'suspended' });
    const databaseDropped = await dropDatabase(
      url,
      tenant.databaseName,
      this.settings.connectTimeoutMs,
    );
    await this.tenants.delete({ id: tenant.id });
    return { databaseDropped };
  }

  private async seedDemo(
    tenant: Tenant,
    url: string,
    today?: string,
  ): Promise<DemoDataSummary | undefined> {
    const dataSource = new DataSource({
      type: 'postgres',
      url,
      poolSize: 1,
      connectTimeoutMS: this.settings.connectTimeoutMs,
    });
    await dataSource.initialize();
    try {
      return await dataSource.transaction(async (manager) => {
        // Demo data goes into an empty tenant only: a re-run never duplicates it.
        const [{ count }] = await manager.query<{ count: number }[]>(
          'SELECT count(*)::int AS count FROM productos',
        );
        if (count > 0) return undefined;
        return seedDemoData((sql, params) => manager.query(sql, params), {
          today: today ?? todayIn(tenant.timeZone),
          timeZone: tenant.timeZone,
        });
      });
    } finally {
      await dataSource.destroy();
    }
  }

  private checkSlug(slug: string): void {
    if (!isTenantSlug(slug)) {
      throw new TenantAdminError(
        `"${slug}" is not a valid tenant slug: a lowercase letter, then 1 to 62 of a-z, 0-9, _ or -`,
      );
    }
  }

  private databaseOfUrl(url: string): string {
    let name: string;
    try {
      name = databaseOf(url);
    } catch {
      throw new TenantAdminError(`"${url}" is not a valid PostgreSQL URL`);
    }
    if (!/^postgres(ql)?:$/.test(new URL(url).protocol) || !name) {
      throw new TenantAdminError('--database-url must be a postgres:// URL naming the database');
    }
    return name;
  }
}
