import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig, type AppConfig } from './common/config/app-config';
import { MIGRATIONS_TABLE } from './database/database-target';
import { EmbeddedPostgres } from './database/embedded-postgres';
import { controlMigrations, tenantMigrations } from './database/migrations/module-migrations';
import './modules';
import { databaseOf, DEFAULT_CONTROL_DATABASE, redactUrl, withDatabase } from './database/pg-url';
import { tenantDatabaseUrl } from './tenancy/tenant-database-url';

/**
 * The DataSource of the TypeORM CLI: `npm run typeorm -- migration:show` (or `migration:run`,
 * `migration:revert`), compiled to dist/ormconfig.js with the rest of src/. It reads `.env` like
 * the other commands. The service and the tenant CLI run migrations on their own
 * (docs/architecture.md); this is for looking at a database's history and for writing a
 * migration (docs/adding-a-module.md).
 *
 * Which database:
 * - `ORM_TARGET=control` (the default): the control database, DATABASE_URL; without it, the
 *   embedded PostgreSQL of a running `npm start` (EMBEDDED_PG_DATA_DIR), which this command
 *   never starts itself.
 * - `ORM_TARGET=tenant`: one tenant's database, with its migrations. `ORM_TENANT=<slug>` finds
 *   it in the catalog of that control database (its own server when the tenant has a
 *   database_url); `TENANT_DATABASE_URL=<postgres URL>` names it directly instead.
 */
async function ormDataSource(env: NodeJS.ProcessEnv): Promise<DataSource> {
  const target = env.ORM_TARGET?.trim() || 'control';
  if (target !== 'control' && target !== 'tenant') {
    throw new Error(`ORM_TARGET must be control or tenant (got "${target}")`);
  }
  const config = loadConfig(env);
  const tenant = target === 'tenant';
  const url = tenant ? await tenantUrl(env, config) : await controlUrl(config);
  return new DataSource({
    type: 'postgres',
    url,
    // it reads and runs migrations, written by hand: no entity is mapped, on either target
    entities: [],
    migrations: tenant ? tenantMigrations() : controlMigrations(),
    migrationsTableName: MIGRATIONS_TABLE,
    migrationsTransactionMode: 'each',
    synchronize: false,
    poolSize: 1,
    connectTimeoutMS: config.DB_CONNECT_TIMEOUT_MS,
  });
}

/** DATABASE_URL (its database, or comandas_control), else a running embedded server's. */
async function controlUrl(config: AppConfig): Promise<string> {
  if (config.DATABASE_URL) {
    return withDatabase(
      config.DATABASE_URL,
      databaseOf(config.DATABASE_URL) || DEFAULT_CONTROL_DATABASE,
    );
  }
  const embedded = await new EmbeddedPostgres({
    dataDir: config.EMBEDDED_PG_DATA_DIR,
    port: config.EMBEDDED_PG_PORT,
  }).running();
  if (!embedded) {
    throw new Error(
      'Set DATABASE_URL to the control database, or start the embedded PostgreSQL first ' +
        `(npm start, data in ${config.EMBEDDED_PG_DATA_DIR})`,
    );
  }
  return withDatabase(embedded.adminUrl, DEFAULT_CONTROL_DATABASE);
}

/** TENANT_DATABASE_URL, or the database of tenant ORM_TENANT in the control database's catalog. */
async function tenantUrl(env: NodeJS.ProcessEnv, config: AppConfig): Promise<string> {
  const direct = env.TENANT_DATABASE_URL?.trim();
  if (direct) return direct;
  const slug = env.ORM_TENANT?.trim();
  if (!slug) {
    throw new Error(
      'ORM_TARGET=tenant needs ORM_TENANT=<tenant slug> (or TENANT_DATABASE_URL=<postgres URL>)',
    );
  }
  const control = await controlUrl(config);
  const client = new Client({
    connectionString: control,
    connectionTimeoutMillis: config.DB_CONNECT_TIMEOUT_MS,
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ database_name: string; database_url: string | null }>(
      'SELECT database_name, database_url FROM tenants WHERE slug = $1',
      [slug],
    );
    if (!rows[0]) {
      throw new Error(`Tenant "${slug}" is not in the catalog of ${redactUrl(control)}`);
    }
    return tenantDatabaseUrl(
      { databaseName: rows[0].database_name, databaseUrl: rows[0].database_url },
      control,
    );
  } finally {
    await client.end();
  }
}

if (existsSync('.env')) process.loadEnvFile('.env');

export default ormDataSource(process.env);
