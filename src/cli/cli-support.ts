import { existsSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { ConfigValidationError, loadConfig, type AppConfig } from '../common/config/app-config';
import { DomainError } from '../common/errors/domain-error';
import { CONTROL_ENTITIES } from '../database/control-entities';
import { openDatabase, type DatabaseHandle } from '../database/database-bootstrap';
import { EmbeddedPostgresError } from '../database/embedded-postgres';
import { TenantAdminError } from '../tenancy/tenant-admin';

/** Wrong usage of a command: exit code 2 with the usage text. */
export class UsageError extends Error {}

export const out = (line: string) => process.stdout.write(`${line}\n`);
export const err = (line: string) => process.stderr.write(`${line}\n`);

export function readCliConfig(): AppConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return loadConfig(process.env);
}

/** The control database (DATABASE_URL or the embedded server, shared with npm start). */
export async function openControl(
  config: AppConfig,
): Promise<{ database: DatabaseHandle; control: DataSource }> {
  const database = await openDatabase(config, { log: err, allowShared: true });
  const control = new DataSource({
    type: 'postgres',
    url: database.target.controlUrl,
    entities: CONTROL_ENTITIES,
    poolSize: 2,
    connectTimeoutMS: config.DB_CONNECT_TIMEOUT_MS,
  });
  try {
    await control.initialize();
  } catch (error) {
    await database.close();
    throw error;
  }
  return { database, control };
}

/**
 * Runs a CLI command and exits: 0 done, 1 failure (database unreachable...), 2 wrong usage or
 * refused request (a 4xx domain error: unknown tenant, unknown driver ...).
 */
export function runCli(usage: string, command: () => Promise<number | void>): void {
  command()
    .then((code) => process.exit(code ?? 0))
    .catch((error: unknown) => {
      if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
        err(`${error.message}\n\n${usage}`);
        process.exit(2);
      }
      const refused = error instanceof DomainError && error.status < 500;
      if (refused || error instanceof TenantAdminError || error instanceof ConfigValidationError) {
        err(error.message);
        process.exit(2);
      }
      err(
        error instanceof EmbeddedPostgresError
          ? error.message
          : `Failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      process.exit(1);
    });
}
