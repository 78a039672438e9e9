import { Client } from 'pg';
import { DataSource, type MigrationInterface } from 'typeorm';
import { pgErrorInfo } from '../common/errors/pg-error.translator';
import { tenantMigrations } from './migrations/module-migrations';
import { databaseOf, withDatabase } from './pg-url';
import { quoteIdent, type Queryable } from './sql';

/** Where the control database lives; tenant databases default to the same server. */
export interface DatabaseTarget {
  /** URL of the control database (the tenant catalog). */
  controlUrl: string;
  /** Whether the server is the embedded PostgreSQL of this project. */
  embedded: boolean;
}

export const MIGRATIONS_TABLE = 'schema_migrations';

/** Runs `work` with a client on the maintenance database of the server of `serverUrl`. */
async function withAdminClient<T>(
  serverUrl: string,
  connectTimeoutMs: number,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client({
    connectionString: withDatabase(serverUrl, 'postgres'),
    connectionTimeoutMillis: connectTimeoutMs,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(client: Client, database: string): Promise<boolean> {
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  return (found.rowCount ?? 0) > 0;
}

/** Creates `database` on the server of `serverUrl` when it does not exist yet. */
export function ensureDatabase(
  serverUrl: string,
  database: string,
  connectTimeoutMs: number,
): Promise<boolean> {
  return withAdminClient(serverUrl, connectTimeoutMs, async (client) => {
    if (await databaseExists(client, database)) return false;
    try {
      await client.query(
        `CREATE DATABASE ${quoteIdent(database)} ENCODING 'UTF8' TEMPLATE template0`,
      );
      return true;
    } catch (error) {
      // 42P04 duplicate_database: created concurrently by another process
      if (pgErrorInfo(error)?.code === '42P04') return false;
      throw error;
    }
  });
}

/** Drops `database` (closing its connections first) when it exists. */
export function dropDatabase(
  serverUrl: string,
  database: string,
  connectTimeoutMs: number,
): Promise<boolean> {
  return withAdminClient(serverUrl, connectTimeoutMs, async (client) => {
    if (!(await databaseExists(client, database))) return false;
    await client.query(`DROP DATABASE ${quoteIdent(database)} WITH (FORCE)`);
    return true;
  });
}

/**
 * Runs pending migrations on the database of `url`, each in its own transaction, under an
 * advisory lock so that two processes (a CLI and a starting service) never migrate one
 * database at once. Returns the names of the migrations it ran.
 */
export async function runMigrations(
  url: string,
  migrations: (new () => MigrationInterface)[],
  connectTimeoutMs: number,
): Promise<string[]> {
  const lock = new Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  await lock.connect();
  try {
    await lock.query("SELECT pg_advisory_lock(hashtext('comandas:migrations'))");
    // the usual case, every start: nothing to run, and no TypeORM DataSource to build to know it
    if (!(await hasPendingMigrations(lock, migrations))) return [];
    const dataSource = new DataSource({
      type: 'postgres',
      url,
      migrations,
      migrationsTableName: MIGRATIONS_TABLE,
      migrationsTransactionMode: 'each',
      poolSize: 1,
      connectTimeoutMS: connectTimeoutMs,
      logging: false,
    });
    await dataSource.initialize();
    try {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      return ran.map((m) => m.name);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await lock.end();
  }
}

/** Whether some of `migrations` are not recorded in the migrations table of the database. */
async function hasPendingMigrations(
  client: Client,
  migrations: (new () => MigrationInterface)[],
): Promise<boolean> {
  const exists = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [
    MIGRATIONS_TABLE,
  ]);
  if (!exists.rows[0].found) return true;
  const { rows } = await client.query<{ name: string }>(
    `SELECT name FROM ${quoteIdent(MIGRATIONS_TABLE)}`,
  );
  const done = new Set(rows.map((row) => row.name));
  return migrations.some((Migration) => !done.has(new Migration().name ?? Migration.name));
}

/**
 * Which of `names` the migrations table of a database lacks (every one when it has no such
 * table): a database behind the code. One query.
 */
export async function missingMigrations(
  db: Queryable,
  names: readonly string[],
): Promise<string[]> {
  let done: Set<string>;
  try {
    const rows = await db.query<{ name: string }[]>(
      `SELECT name FROM ${quoteIdent(MIGRATIONS_TABLE)}`,
    );
    done = new Set(rows.map((row) => row.name));
  } catch (error) {
    // 42P01 undefined_table: a database no migration ever ran on
    if (pgErrorInfo(error)?.code !== '42P01') throw error;
    done = new Set();
  }
  return names.filter((name) => !done.has(name));
}

let tenantNames: readonly string[] | undefined;

/**
 * The names of the code's tenant migrations, oldest first (`tenantMigrations()`, loaded on first
 * use: the request path loads the migrations, their SQL, only when it first opens a tenant
 * database, to check its schema).
 */
export function tenantMigrationNames(): readonly string[] {
  tenantNames ??= tenantMigrations().map((Migration) => new Migration().name ?? Migration.name);
  return tenantNames;
}

export { databaseOf };
