import type { AppConfig } from '../common/config/app-config';
import { controlMigrations as controlHistory } from './migrations/module-migrations';
import { ensureDatabase, runMigrations, type DatabaseTarget } from './database-target';
import { EmbeddedPostgres } from './embedded-postgres';
import { databaseOf, DEFAULT_CONTROL_DATABASE, withDatabase } from './pg-url';

export interface DatabaseHandle {
  target: DatabaseTarget;
  /** The migrations this start applied to the control database. */
  controlMigrations: string[];
  /** Stops the embedded PostgreSQL when this process started it. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  log: (message: string) => void;
  /** Share an embedded server another live process of ours already runs (CLI). */
  allowShared?: boolean;
  /** Extra settings of the embedded server. */
  embeddedSettings?: Record<string, string>;
  /** The embedded server was launched and is starting (see EmbeddedPostgresOptions). */
  onLaunching?: () => void;
}

/**
 * Finds the PostgreSQL server: DATABASE_URL when set, else the embedded server (started here).
 * Then makes sure the control database exists and is migrated.
 */
export async function openDatabase(
  config: AppConfig,
  options: OpenDatabaseOptions,
): Promise<DatabaseHandle> {
  let controlUrl: string;
  let embedded: EmbeddedPostgres | undefined;
  if (config.DATABASE_URL) {
    const name = databaseOf(config.DATABASE_URL) || DEFAULT_CONTROL_DATABASE;
    controlUrl = withDatabase(config.DATABASE_URL, name);
  } else {
    embedded = new EmbeddedPostgres({
      dataDir: config.EMBEDDED_PG_DATA_DIR,
      port: config.EMBEDDED_PG_PORT,
      allowShared: options.allowShared,
      settings: options.embeddedSettings,
      log: options.log,
      onLaunching: options.onLaunching,
    });
    const connection = await embedded.start();
    controlUrl = withDatabase(connection.adminUrl, DEFAULT_CONTROL_DATABASE);
  }
  const close = async () => {
    await embedded?.stop();
  };
  try {
    const name = databaseOf(controlUrl);
    if (await ensureDatabase(controlUrl, name, config.DB_CONNECT_TIMEOUT_MS)) {
      options.log(`Created the control database ${name}`);
    }
    const controlMigrations = await runMigrations(
      controlUrl,
      controlHistory(),
      config.DB_CONNECT_TIMEOUT_MS,
    );
    return { target: { controlUrl, embedded: embedded !== undefined }, controlMigrations, close };
  } catch (error) {
    await close();
    throw error;
  }
}
