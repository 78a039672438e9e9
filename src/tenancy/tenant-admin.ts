import { Client } from 'pg';
import { DataSource, Repository } from 'typeorm';
import { isTimeZone, type AppConfig } from '../common/config/app-config';
import { AdminRequestError } from '../common/errors/admin-request-error';
import { isServerUnreachable, pgErrorInfo } from '../common/errors/pg-error.translator';
import { todayIn } from '../common/time';
import { dropDatabase, ensureDatabase, runMigrations } from '../database/database-target';
import { finishDemoData, seedDemoData, type DemoDataSummary } from '../database/demo/demo-data';
import {
  demoPinSalt,
  hashDemoCredentials,
  seedDemoCredentials,
} from '../database/demo/sections/credentials';
import { tenantMigrations } from '../database/migrations/module-migrations';
import { demoFeatureOverrides, isTenantFeature, tenantFeatures } from '../common/config/features';
import { databaseOf, redactUrl } from '../database/pg-url';
import { inTransaction } from '../database/transaction';
import { Tenant } from './entities/tenant.entity';
import { tenantDatabaseUrl } from './tenant-database-url';
import { isTenantSlug, MAX_DATABASE_NAME_LENGTH, tenantDatabaseName } from './tenant-slug';

export { tenantDatabaseUrl };

export interface TenantAdminSettings {
  /** URL of the control database; tenant databases default to its server. */
  controlUrl: string;
  databasePrefix: string;
  defaultTimeZone: string;
  connectTimeoutMs: number;
  /**
   * Whether demo data includes the demo staff's development PINs and password (README): known
   * credentials, never seeded with NODE_ENV=production.
   */
  demoCredentials?: boolean;
}

/**
 * The settings of the config's tenant administration, for the control database at `controlUrl`:
 * the start-up (demo, migrations), the tenant CLI and the tests build it the same way.
 */
export function tenantAdminSettings(config: AppConfig, controlUrl: string): TenantAdminSettings {
  return {
    controlUrl,
    databasePrefix: config.TENANT_DB_PREFIX,
    defaultTimeZone: config.DEFAULT_TIME_ZONE,
    connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
    demoCredentials: config.NODE_ENV !== 'production',
  };
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
  /** The demo's share of the restaurant's tickets per day, (0, 1] (default 1: 60–150 a day). */
  demoScale?: number;
  /**
   * Leave the demo's statistics and report model (finishDemo) to the caller, who runs them
   * when it likes: `npm start` serves while they run. Default: create() waits for them.
   */
  deferDemoFinish?: boolean;
  /** Called when the demo's data starts being written (PostgreSQL's work for seconds). */
  onDemoSeeding?: () => void;
}

export interface CreateTenantResult {
  tenant: Tenant;
  created: boolean;
  databaseCreated: boolean;
  migrations: string[];
  demo?: DemoDataSummary;
}

export interface DropTenantResult {
  /** The database was dropped (false: it did not exist, or its server did not answer). */
  databaseDropped: boolean;
  /** The server of the database did not answer: the database is left for the operator to delete. */
  databaseLeft?: TenantServerUnreachableError;
}

/**
 * The server of a tenant's database did not answer: connection refused, unknown host, timeout,
 * or credentials refused (the CLI exits with code 1).
 */
export class TenantServerUnreachableError extends Error {
  constructor(
    readonly slug: string,
    readonly database: string,
    /** The tenant's database URL without its password. */
    readonly server: string,
    /** What the driver said. */
    readonly reason: string,
    advice = '',
    options?: ErrorOptions,
  ) {
    super(
      `tenant ${slug}: the server ${server} did not answer (${reason})${advice ? `. ${advice}` : ''}`,
      options,
    );
    this.name = 'TenantServerUnreachableError';
  }

  /** `the server <url> did not answer (<reason>)`, without the tenant. */
  get problem(): string {
    return `the server ${this.server} did not answer (${this.reason})`;
  }
}

/** Why migrating a tenant failed, in one line: the server's problem, or the error's message. */
export function migrationFailure(error: unknown): string {
  if (error instanceof TenantServerUnreachableError) return error.problem;
  return error instanceof Error ? error.message : String(error);
}

/** What a connection failure says: its message, or that of the first attempt when several failed. */
function reasonOf(error: unknown): string {
  const info = pgErrorInfo(error);
  if (info?.message) return info.message;
  const first = error instanceof AggregateError ? pgErrorInfo(error.errors[0]) : undefined;
  return first?.message || info?.code || String(error);
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
    if (!tenant) throw new AdminRequestError(`Tenant "${slug}" does not exist`);
    return tenant;
  }

  async create(input: CreateTenantInput): Promise<CreateTenantResult> {
    this.checkSlug(input.slug);
    const timeZone = input.timeZone ?? this.settings.defaultTimeZone;
    if (!isTimeZone(timeZone))
      throw new AdminRequestError(`"${timeZone}" is not an IANA time zone`);
    const databaseName = input.databaseUrl
      ? this.databaseOfUrl(input.databaseUrl)
      : tenantDatabaseName(this.settings.databasePrefix, input.slug);
    if (databaseName.length > MAX_DATABASE_NAME_LENGTH) {
      throw new AdminRequestError(
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
        throw new AdminRequestError(
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
        throw new AdminRequestError(
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
          // the demo restaurant shows the features marked for it (the registry's `demo`)
          features: input.demo ? demoFeatureOverrides() : {},
        }),
      );
      created = true;
    }

    const url = tenantDatabaseUrl(tenant, this.settings.controlUrl);
    const advice =
      tenant.status === 'provisioning'
        ? `The tenant is registered but not ready (status provisioning): run create again once the server answers to finish the job, or remove it with: npm run tenant -- drop ${tenant.slug} --yes`
        : 'Run create again once the server answers';
    const timeoutMs = this.settings.connectTimeoutMs;
    const { databaseCreated, migrations } = await this.onServer(
      tenant,
      url,
      async () => ({
        databaseCreated: await ensureDatabase(url, databaseName, timeoutMs),
        migrations: await runMigrations(url, tenantMigrations(), timeoutMs),
      }),
      advice,
    );
    if (migrations.length > 0 || !tenant.migratedAt) tenant = await this.markMigrated(tenant);
    let demo: DemoDataSummary | undefined;
    if (input.demo) {
      const { timeZone } = tenant;
      input.onDemoSeeding?.();
      demo = await this.onServer(
        tenant,
        url,
        () => this.seedDemo(timeZone, url, input.demoToday, input.demoScale),
        advice,
      );
    }
    if (tenant.status === 'provisioning') {
      tenant.status = 'active';
      tenant = await this.tenants.save(tenant);
    }
    // after the tenant is active: its data is all there, this only makes its first reads fast
    if (demo && !input.deferDemoFinish) await this.finishDemo(tenant);
    return { tenant, created, databaseCreated, migrations, demo };
  }

  /**
   * Runs pending tenant migrations on one tenant, and records the time in the catalog so
   * that running services refresh their cached schema metadata of this tenant and check its
   * schema again. `markUpToDate: false` records it only when a migration ran (a start-up pass
   * over every tenant leaves the catalog alone when there was nothing to do).
   */
  async migrate(slug: string, { markUpToDate = true } = {}): Promise<string[]> {
    const tenant = await this.get(slug);
    const url = tenantDatabaseUrl(tenant, this.settings.controlUrl);
    const ran = await this.onServer(tenant, url, () =>
      runMigrations(url, tenantMigrations(), this.settings.connectTimeoutMs),
    );
    if (ran.length > 0 || markUpToDate || !tenant.migratedAt) await this.markMigrated(tenant);
    return ran;
  }

  /** Runs `work` on the server of a tenant's database; one that does not answer is named. */
  private async onServer<T>(
    tenant: Tenant,
    url: string,
    work: () => Promise<T>,
    advice?: string,
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!isServerUnreachable(error)) throw error;
      throw new TenantServerUnreachableError(
        tenant.slug,
        tenant.databaseName,
        redactUrl(url),
        reasonOf(error),
        advice,
        { cause: error },
      );
    }
  }

  private async markMigrated(tenant: Tenant): Promise<Tenant> {
    tenant.migratedAt = new Date();
    return this.tenants.save(tenant);
  }

  async setStatus(slug: string, status: 'active' | 'suspended'): Promise<Tenant> {
    const tenant = await this.get(slug);
    if (tenant.status === 'provisioning') {
      throw new AdminRequestError(
        `Tenant "${slug}" is still being provisioned: run create again to finish it`,
      );
    }
    if (tenant.status === status) return tenant;
    tenant.status = status;
    return this.tenants.save(tenant);
  }

  /** Sets a per-tenant feature override (`undefined`: follow the global switch). */
  async setFeature(slug: string, feature: string, enabled: boolean | undefined): Promise<Tenant> {
    if (!isTenantFeature(feature)) {
      throw new AdminRequestError(
        `Unknown feature "${feature}": one of ${tenantFeatures().join(', ')}`,
      );
    }
    const tenant = await this.get(slug);
    const features = { ...tenant.features };
    if (enabled === undefined) delete features[feature];
    else features[feature] = enabled;
    tenant.features = features;
    return this.tenants.save(tenant);
  }

  /**
   * Drops the tenant's database and its catalog row (its devices go with it). When the server
   * of the database does not answer, the catalog row goes all the same and the result says
   * which database is left, so that a tenant on a server that is gone can be removed.
   */
  async drop(slug: string): Promise<DropTenantResult> {
    const tenant = await this.get(slug);
    const url = tenantDatabaseUrl(tenant, this.settings.controlUrl);
    // Suspend first so that running services refuse new requests while the database goes.
    await this.tenants.update({ id: tenant.id }, { status: 'suspended' });
    let databaseDropped = false;
    let databaseLeft: TenantServerUnreachableError | undefined;
    try {
      databaseDropped = await this.onServer(tenant, url, () =>
        dropDatabase(url, tenant.databaseName, this.settings.connectTimeoutMs),
      );
    } catch (error) {
      if (!(error instanceof TenantServerUnreachableError)) throw error;
      databaseLeft = error;
    }
    await this.tenants.delete({ id: tenant.id });
    return { databaseDropped, databaseLeft };
  }

  private async seedDemo(
    timeZone: string,
    url: string,
    today?: string,
    scale?: number,
  ): Promise<DemoDataSummary | undefined> {
    const dataSource = new DataSource({
      type: 'postgres',
      url,
      poolSize: 1,
      connectTimeoutMS: this.settings.connectTimeoutMs,
    });
    await dataSource.initialize();
    try {
      // the credentials' scrypt hashes are this process's work: they run on the thread pool
      // while PostgreSQL writes the year (the salt is the migration's, committed already)
      const hashing = this.settings.demoCredentials
        ? hashDemoCredentials(await demoPinSalt((sql) => dataSource.query(sql)))
        : undefined;
      hashing?.catch(() => undefined); // awaited below; a failure of the SQL must not leave it unhandled
      // a server lost under the load fails with its connection's error (transaction.ts), which
      // onServer names as an unreachable server: run create again
      return await inTransaction(dataSource, async (manager) => {
        // Demo data goes into an empty tenant only: a re-run never duplicates it.
        const [{ count }] = await manager.query<{ count: number }[]>(
          'SELECT count(*)::int AS count FROM productos',
        );
        if (count > 0) return undefined;
        const query = (sql: string, params?: unknown[]) => manager.query(sql, params);
        const summary = await seedDemoData(query, {
          today: today ?? todayIn(timeZone),
          timeZone,
          scale,
        });
        if (hashing) await seedDemoCredentials(query, await hashing);
        return summary;
      });
    } finally {
      await dataSource.destroy();
    }
  }

  /**
   * What follows a demo's commit (finishDemoData): its statistics and the sales report's read
   * model. create() runs it unless told to defer it; `npm start` runs it after its banner.
   */
  async finishDemo(tenant: Tenant): Promise<void> {
    const url = tenantDatabaseUrl(tenant, this.settings.controlUrl);
    const client = new Client({
      connectionString: url,
      connectionTimeoutMillis: this.settings.connectTimeoutMs,
    });
    await this.onServer(tenant, url, async () => {
      await client.connect();
      try {
        await finishDemoData((sql, params) => client.query(sql, params), tenant.timeZone);
      } finally {
        await client.end();
      }
    });
  }

  private checkSlug(slug: string): void {
    if (!isTenantSlug(slug)) {
      throw new AdminRequestError(
        `"${slug}" is not a valid tenant slug: a lowercase letter, then 1 to 62 of a-z, 0-9, _ or -`,
      );
    }
  }

  private databaseOfUrl(url: string): string {
    let name: string;
    try {
      name = databaseOf(url);
    } catch {
      throw new AdminRequestError(`"${url}" is not a valid PostgreSQL URL`);
    }
    if (!/^postgres(ql)?:$/.test(new URL(url).protocol) || !name) {
      throw new AdminRequestError('--database-url must be a postgres:// URL naming the database');
    }
    return name;
  }
}
