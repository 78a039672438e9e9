import 'reflect-metadata';
// the modules' features are variables of the config: the list is read before the config is
import './modules';
import { existsSync } from 'node:fs';
import pino from 'pino';
import { loadTokenKeys } from './auth/token-keys';
import {
  ConfigValidationError,
  issuesTokens,
  loadConfig,
  type AppConfig,
} from './common/config/app-config';
import { openDatabase, type DatabaseHandle } from './database/database-bootstrap';
import { ensureDemoTenant } from './tenancy/demo-tenant';
import { migratesTenantsAtStart, migrateTenantsAtStart } from './tenancy/start-up-migrations';
import { EmbeddedPostgresError } from './database/embedded-postgres';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { webPage } from './common/http/web-page';
import { errorForLog, logDestination } from './common/logging/logger';

/**
 * The application's modules (Nest and everything under it) take about a second to load: they
 * are loaded while the embedded PostgreSQL starts, not before (see main).
 */
function loadApplication(): typeof import('./app.factory') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./app.factory') as typeof import('./app.factory');
}

const SHUTDOWN_TIMEOUT_MS = 10_000;
/** A second signal within this time of the first is the same one delivered twice. */
const REPEATED_SIGNAL_MS = 1_000;

function readConfig(): AppConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    const config = loadConfig(process.env);
    // A bad key file stops the start here, like any bad variable, before the database starts.
    if (config.AUTH_MODE === 'jwt') loadTokenKeys(config);
    return config;
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(
        `${error.message}\nSee .env.example for every variable and its default.\n`,
      );
      process.exit(1);
    }
    throw error;
  }
}

function banner(config: AppConfig): string {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const base = `http://${host}:${config.PORT}`;
  return [
    '',
    `  Comandas back-office is listening on ${base}`,
    ...(webPage() ? [`  Page:    ${base}/   (the back-office page; restaurant: demo)`] : []),
    `  API:     ${base}/api/v1   (header X-Tenant-ID: demo)`,
    `  Docs:    ${base}/api/docs   (OpenAPI JSON: ${base}/api/docs-json)`,
    `  Health:  ${base}/api/health`,
    ...(config.AUTH_MODE !== 'jwt'
      ? [`  Try:     curl -H 'X-Tenant-ID: demo' ${base}/api/v1/tenant`]
      : issuesTokens(config)
        ? [
            `  Sign in: on the page with a staff PIN (the demo's: README, "Authentication and roles"), or`,
            `           curl -H 'X-Tenant-ID: demo' -H 'Content-Type: application/json' -d '{"pin":"6284"}' ${base}/api/v1/auth/pin`,
            `  Tokens:  npm run token -- --tenant demo --list, then npm run -s token -- --tenant demo --user <documento>`,
          ]
        : [
            `  Auth:    Bearer tokens from the issuer of AUTH_JWT_PUBLIC_KEY_FILE (AUTH_MODE=jwt)`,
            `  Try:     curl -H 'X-Tenant-ID: demo' -H "Authorization: Bearer $TOKEN" ${base}/api/v1/tenant`,
          ]),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const config = readConfig();
  const log = pino(
    {
      level: config.LOG_LEVEL,
      base: { pid: process.pid },
      name: 'boot',
      serializers: { err: errorForLog },
    },
    logDestination(config.LOG_FORMAT) ?? pino.destination(1),
  );
  let database: DatabaseHandle | undefined;
  let app: NestExpressApplication | undefined;
  let stopping = false;

  let stoppingSince = 0;

  const shutdown = async (signal: string) => {
    if (stopping) {
      // One Ctrl-C on `npm start` arrives twice: from the terminal (to the whole process group)
      // and forwarded by npm; systemd and `timeout` signal the group as npm forwards too. Only
      // a signal sent again later forces the exit.
      if (Date.now() - stoppingSince < REPEATED_SIGNAL_MS) return;
      log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    stoppingSince = Date.now();
    log.info(`${signal} received: stopping`);
    const timer = setTimeout(() => {
      log.error(`Shutdown took longer than ${SHUTDOWN_TIMEOUT_MS} ms: exiting`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    try {
      await app?.close();
      await database?.close();
    } finally {
      clearTimeout(timer);
    }
    log.info('Stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    let launching!: () => void;
    const launched = new Promise<void>((resolve) => (launching = resolve));
    const opening = openDatabase(config, { log: (m) => log.info(m), onLaunching: launching });
    // Once PostgreSQL is starting (or the database is open: DATABASE_URL, a shared server, a
    // failure), load the application on this core while the server starts on another.
    await Promise.race([launched, opening.then(noop, noop)]);
    const { createApp, startBackgroundWork } = loadApplication();
    database = await opening;
    const { target } = database;
    // The tenants' databases (the demo's first provisioning is PostgreSQL's work for seconds)
    // and the application's initialisation (this process's) at once; nothing is served before
    // both are done. A first start initialises the application once PostgreSQL writes the
    // demo's year, not before: the provisioning's many short steps until then (the tenant's
    // database, its migrations) would each wait on this thread, which the initialisation holds
    // for a few hundred milliseconds.
    let finishDemo: (() => Promise<void>) | undefined;
    let seeding!: () => void;
    const demoSeeding = new Promise<void>((resolve) => (seeding = resolve));
    const preparing = (async () => {
      if (target.embedded && config.DEMO_TENANT) {
        finishDemo = await ensureDemoTenant(config, target, (m) => log.info(m), seeding);
      }
      seeding();
      if (migratesTenantsAtStart(config, target)) {
        await migrateTenantsAtStart(config, target, {
          info: (m) => log.info(m),
          warn: (m) => log.warn(m),
        });
      }
    })();
    const creating = Promise.race([demoSeeding, preparing.then(noop, noop)])
      .then(() => createApp(config, target))
      .then((created) => (app = created));
    await Promise.all([preparing, creating]);
    await listen(app!, config);
    if (stopping) return;
    await startBackgroundWork(app!);
    process.stdout.write(`${banner(config)}\n`);
    // a first start's demo: its statistics and report model while it already serves (a second
    // or so of PostgreSQL; requests meanwhile are answered, the first report may wait for it)
    finishDemo?.().then(
      () => log.info('Demo tenant: statistics gathered and the sales report model computed'),
      (error: unknown) => {
        if (!stopping) log.warn({ err: error }, 'Demo tenant: finishing its data failed');
      },
    );
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) log.fatal(error.message);
    else log.fatal({ err: error }, error instanceof Error ? error.message : 'start-up failed');
    await app?.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
    process.exit(1);
  }
}

async function listen(app: NestExpressApplication, config: AppConfig): Promise<void> {
  try {
    await app.listen(config.PORT, config.HOST);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        `PORT ${config.PORT} is already in use on ${config.HOST}: stop the other program or set PORT`,
        { cause: error },
      );
    }
    throw error;
  }
}

const noop = () => undefined;

void main();
