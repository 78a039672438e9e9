import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig, type AppConfig } from '../../src/common/config/app-config';
import { MIGRATIONS_TABLE, type DatabaseTarget } from '../../src/database/database-target';
import { tenantMigrations } from '../../src/database/migrations/module-migrations';
import '../../src/modules';
import { withDatabase } from '../../src/database/pg-url';
import { quoteIdent } from '../../src/database/sql';
import type { TenantFeatureOverrides } from '../../src/common/config/features';
import type { TenantStatus } from '../../src/tenancy/entities/tenant.entity';
import { templateNames, testServer } from './test-server';

export interface TestTenantOptions {
  name?: string;
  status?: TenantStatus;
  features?: TenantFeatureOverrides;
  timeZone?: string;
}

/** The name of the newest tenant migration of the code. */
export const NEWEST_TENANT_MIGRATION = new (tenantMigrations().at(-1)!)().name!;

/**
 * Takes the tenant database of `url` back to before the newest tenant migration (its `down`,
 * then its row out of the history), as it was before the code was updated. Returns its name.
 */
export async function revertNewestTenantMigration(url: string): Promise<string> {
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    migrations: tenantMigrations(),
    migrationsTableName: MIGRATIONS_TABLE,
    poolSize: 1,
    logging: false,
  });
  await dataSource.initialize();
  try {
    await dataSource.undoLastMigration({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
  return NEWEST_TENANT_MIGRATION;
}

/**
 * The databases of one test file: its own control database and tenant databases, cloned from
 * the run's migrated templates (fast), all dropped by `drop()`. Nothing is shared with other
 * files, so files run in any order and in parallel.
 */
export class TestDatabases {
  readonly prefix: string;
  readonly controlDatabase: string;
  private readonly created: string[] = [];

  private constructor(
    readonly serverUrl: string,
    private readonly runId: string,
  ) {
    const fileId = randomBytes(3).toString('hex');
    this.prefix = `t${runId}_${fileId}_`;
    this.controlDatabase = `${this.prefix}control`;
  }

  static async create(): Promise<TestDatabases> {
    const { serverUrl, runId } = testServer();
    const dbs = new TestDatabases(serverUrl, runId);
    await dbs.cloneTemplate(templateNames(runId).control, dbs.controlDatabase);
    return dbs;
  }

  get controlUrl(): string {
    return withDatabase(this.serverUrl, this.controlDatabase);
  }

  get target(): DatabaseTarget {
    return { controlUrl: this.controlUrl, embedded: false };
  }

  /** Environment of a service (or CLI) process that uses these databases. */
  env(overrides: Record<string, string> = {}): Record<string, string> {
    return {
      DATABASE_URL: this.controlUrl,
      TENANT_DB_PREFIX: this.prefix,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_MAX: '0', // suites send many requests from one client; limits.e2e-spec turns it on
      TENANT_CACHE_TTL_MS: '0',
      DEMO_TENANT: 'false',
      ...overrides,
    };
  }

  config(overrides: Record<string, string> = {}): AppConfig {
    return loadConfig({ NODE_ENV: 'test', ...this.env(overrides) });
  }

  tenantUrl(slug: string): string {
    return withDatabase(this.serverUrl, `${this.prefix}${slug}`);
  }

  /** A migrated tenant database and its catalog row. */
  async createTenant(slug: string, options: TestTenantOptions = {}): Promise<string> {
    const database = `${this.prefix}${slug}`;
    await this.cloneTemplate(templateNames(this.runId).tenant, database);
    await this.query(
      this.controlUrl,
      `INSERT INTO tenants (slug, name, database_name, status, time_zone, features)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        slug,
        options.name ?? `Tenant ${slug}`,
        database,
        options.status ?? 'active',
        options.timeZone ?? 'America/Lima',
        JSON.stringify(options.features ?? {}),
      ],
    );
    return database;
  }

  /**
   * Takes a tenant's database back to before the newest tenant migration (its `down`, then its
   * row out of the history): a tenant not migrated since the code was updated. Returns the
   * migration's name.
   */
  revertNewestMigration(slug: string): Promise<string> {
    return revertNewestTenantMigration(this.tenantUrl(slug));
  }

  /** Runs one statement on a database of this file and returns its rows. */
  async query<T = Record<string, unknown>>(
    url: string,
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Names of this file's databases that exist on the server. */
  async existingDatabases(): Promise<string[]> {
    const rows = await this.query<{ datname: string }>(
      this.serverUrl,
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname',
      [this.prefix],
    );
    return rows.map((r) => r.datname);
  }

  async drop(): Promise<void> {
    for (const database of await this.existingDatabases()) {
      await this.query(
        this.serverUrl,
        `DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`,
      );
    }
  }

  private async cloneTemplate(template: string, database: string): Promise<void> {
    await this.query(
      this.serverUrl,
      `CREATE DATABASE ${quoteIdent(database)} TEMPLATE ${quoteIdent(template)}`,
    );
    this.created.push(database);
  }
}
