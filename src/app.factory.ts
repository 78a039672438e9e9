import { RequestMethod, VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppModule, type AppModuleOptions } from './app.module';
import type { AppConfig } from './common/config/app-config';
import { setupOpenApi } from './common/http/openapi';
import { createValidationPipe } from './common/validation';
import { assignRequestId } from './common/http/request-id';
import { sendError, toEnvelope } from './common/errors/all-exceptions.filter';
import { DomainError } from './common/errors/domain-error';
import { text, type NextFunction, type Request, type Response } from 'express';
import type { DatabaseTarget } from './database/database-target';

/** Builds the HTTP application (used by main.ts and by every e2e test). */
export async function createApp(
  config: AppConfig,
  target: DatabaseTarget,
  imports: AppModuleOptions['imports'] = [],
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, target, imports }),
    {
      bufferLogs: true,
      bodyParser: false,
      abortOnError: false,
    },
  );
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // Security headers. No upgrade-insecure-requests: the service (and its Swagger UI) is served
  // over plain HTTP on a restaurant's network or behind a TLS proxy that sets its own.
  app.use(
    helmet({
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    }),
  );
  const origins = config.CORS_ORIGINS.split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  if (origins.length > 0) {
    app.enableCors({
      origin: origins,
      exposedHeaders: ['ETag', 'X-Total-Count', 'X-Request-Id', 'Retry-After', 'Location'],
      maxAge: 600,
    });
  }
  // First of all: every request, whatever its path, gets its id (pino-http logs it).
  app.use((req: Request & { id?: string }, res: Response, next: NextFunction) => {
    req.id = assignRequestId(req, res);
    next();
  });
  app.useBodyParser('json', { limit: config.BODY_LIMIT });
  // Clocks in push mode call fixed paths: /iclock/... stays outside /api, with a text body.
  app.setGlobalPrefix('api', {
    exclude: [
      { path: 'iclock/cdata', method: RequestMethod.ALL },
      { path: 'iclock/getrequest', method: RequestMethod.ALL },
    ],
  });
  app.use('/iclock', text({ type: () => true, limit: config.BODY_LIMIT }));
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  app.useGlobalPipes(createValidationPipe());
  setupOpenApi(app, config);
  await app.init();
  // Paths outside /api never reach Nest's router: answer them like its unknown routes.
  app.use((req: Request & { id?: string }, res: Response) => {
    const notFound = new DomainError(404, 'NOT_FOUND', `Cannot ${req.method} ${req.originalUrl}`);
    sendError(res, notFound, toEnvelope(notFound, req.id));
  });
  return app;
}
