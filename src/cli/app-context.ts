import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { AppModule } from '../app.module';
import type { AppConfig } from '../common/config/app-config';
import { openDatabase } from '../database/database-bootstrap';
import { err } from './cli-support';

/**
 * Runs `work` with the application built without HTTP (the services, the tenant context and
 * its DataSource cache), on DATABASE_URL or the embedded server shared with `npm start`. Log
 * lines of warn and above go to standard error; standard output stays the command's.
 */
export async function withAppContext<T>(
  config: AppConfig,
  work: (app: INestApplicationContext) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(config, { log: err, allowShared: true });
  try {
    const app = await NestFactory.createApplicationContext(
      AppModule.forRoot({
        config: { ...config, LOG_LEVEL: config.LOG_LEVEL === 'silent' ? 'silent' : 'warn' },
        target: database.target,
        logDestination: pino.destination(2),
      }),
      { logger: ['error', 'warn'], abortOnError: false },
    );
    try {
      return await work(app);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}
