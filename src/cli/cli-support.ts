import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { existsSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { ConfigValidationError, loadConfig, type AppConfig } from '../common/config/app-config';
import { CONTROL_CONNECTION, DATABASE_TARGET } from '../common/config/config.tokens';
import { AdminRequestError } from '../common/errors/admin-request-error';
import { DomainError } from '../common/errors/domain-error';
import { createLogger } from '../common/logging/logger';
import { openDatabase } from '../database/database-bootstrap';
import type { DatabaseTarget } from '../database/database-target';
import { EmbeddedPostgresError } from '../database/embedded-postgres';

/** Wrong usage of a command: exit code 2 with the usage text. */
export class UsageError extends Error {}

export const out = (line: string) => process.stdout.write(`${line}\n`);
export const err = (line: string) => process.stderr.write(`${line}\n`);

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>;

/** The application as a CLI sees it: the services, the control database, the tenant context. */
export interface CliApp {
  /** Any provider of the application (TenantContext, AttendanceFilesService, DriverRegistry ...). */
  get: INestApplicationContext['get'];
  /** The control database (tenant catalog, registered clocks). */
  control: DataSource;
  /** Where the control database lives (tenant databases default to its server). */
  target: DatabaseTarget;
}

export interface CliInput<O extends Options> {
  values: Parsed<O>['values'];
  positionals: string[];
  config: AppConfig;
  /**
   * Runs `work` with the application built without HTTP, on DATABASE_URL or the embedded server
   * shared with `npm start`; closed afterwards. Log lines of warn and above go to standard error:
   * standard output stays the command's.
   */
  withApp<T>(work: (app: CliApp) => Promise<T>): Promise<T>;
}

export interface CliDefinition<O extends Options> {
  usage: string;
  options?: O;
  /** Returns the exit code (0 when it returns nothing). */
  run(input: CliInput<O>): Promise<number | void>;
}

/**
 * Every command line of the service (`npm run tenant`, `devices`, `drivers`, `token`, `staff`,
 * `asistencia:import`) is one `defineCli`: its arguments are parsed strictly, `help` / `--help`
 * (or nothing at all) prints the usage, `.env` is read like `npm start` does, and the database
 * is reached one way, through the application (withApp). Exit codes: 0 done, 1 failure (database
 * unreachable ...), 2 wrong usage or a refused request (a 4xx domain error, an AdminRequestError).
 */
export function defineCli<O extends Options>(definition: CliDefinition<O>): void {
  runCli(definition.usage, async () => {
    const args = process.argv.slice(2);
    const { values, positionals } = parseArgs({
      args: args.filter((arg) => arg !== '--help'),
      options: definition.options ?? ({} as O),
      allowPositionals: true,
      strict: true,
    });
    if (args.length === 0 || args.includes('--help') || positionals[0] === 'help') {
      out(definition.usage);
      return 0;
    }
    const config = readCliConfig();
    return definition.run({
      values,
      positionals,
      config,
      withApp: (work) => withAppContext(config, work),
    });
  });
}

function readCliConfig(): AppConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return loadConfig(process.env);
}

async function withAppContext<T>(config: AppConfig, work: (app: CliApp) => Promise<T>): Promise<T> {
  const database = await openDatabase(config, { log: err, allowShared: true });
  try {
    const app = await NestFactory.createApplicationContext(
      AppModule.forRoot({
        config,
        target: database.target,
        logger: createLogger(
          config.LOG_LEVEL === 'silent' ? 'silent' : 'warn',
          pino.destination(2),
        ),
      }),
      { logger: ['error', 'warn'], abortOnError: false },
    );
    try {
      return await work({
        get: app.get.bind(app),
        control: app.get<DataSource>(getDataSourceToken(CONTROL_CONNECTION)),
        target: app.get<DatabaseTarget>(DATABASE_TARGET),
      });
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

/** Runs a command and exits with its code (see defineCli). */
function runCli(usage: string, command: () => Promise<number | void>): void {
  command()
    .then((code) => process.exit(code ?? 0))
    .catch((error: unknown) => {
      if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
        err(`${error.message}\n\n${usage}`);
        process.exit(2);
      }
      const refused = error instanceof DomainError && error.status < 500;
      if (refused || error instanceof AdminRequestError || error instanceof ConfigValidationError) {
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
