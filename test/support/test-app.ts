import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { createApp, startBackgroundWork } from '../../src/app.factory';
import type { AppModuleOptions } from '../../src/app.module';
import type { LogOutput } from '../../src/common/logging/logger';
import { TestDatabases } from './test-databases';

export interface TestApp {
  app: NestExpressApplication;
  http: Server;
  dbs: TestDatabases;
  close(): Promise<void>;
}

/** The whole application on this file's own databases (see TestDatabases). */
export async function startTestApp(
  env: Record<string, string> = {},
  dbs?: TestDatabases,
  imports: AppModuleOptions['imports'] = [],
  /** Where the app's log lines go (a test that reads them); stdout by default. */
  logTo?: LogOutput,
): Promise<TestApp> {
  const databases = dbs ?? (await TestDatabases.create());
  const app = await createApp(databases.config(env), databases.target, imports, logTo);
  await startBackgroundWork(app);
  return {
    app,
    http: app.getHttpServer(),
    dbs: databases,
    close: async () => {
      await app.close();
      if (!dbs) await databases.drop();
    },
  };
}
