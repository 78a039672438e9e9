import { RequestMethod, VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { AppModule, type AppModuleOptions } from './app.module';
import type { AppConfig } from './common/config/app-config';
import { setupOpenApi } from './common/http/openapi';
import {
  bufferedStdout,
  createLogger,
  logDestination,
  NestLoggerAdapter,
  type LogOutput,
} from './common/logging/logger';
import { openRequestContext, requestIdAndLog } from './common/logging/request-logging';
import { createValidationPipe } from './common/validation';
import { sendError } from './common/errors/all-exceptions.filter';
import { requestedLanguage } from './common/errors/language';
import { unroutedAnswer } from './common/http/route-not-found';
import { RouteTable } from './common/http/route-table';
import { webPage } from './common/http/web-page';
import { refuseDeepJson, refuseHostileInput } from './common/http/hostile-input';
import { applyServerLimits } from './common/http/server-limits';
import { VersionedExpressAdapter } from './common/http/versioned';
import { json, text, type Request, type Response } from 'express';
import type { DatabaseTarget } from './database/database-target';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.service';

/** Builds the HTTP application (used by main.ts and by every e2e test). */
export async function createApp(
  config: AppConfig,
  target: DatabaseTarget,
  imports: AppModuleOptions['imports'] = [],
  /** Where the log lines go: stdout, or a test's own output. */
  logTo?: LogOutput,
): Promise<NestExpressApplication> {
  const logger = createLogger(
    config.LOG_LEVEL,
    logTo
      ? (logDestination(config.LOG_FORMAT, logTo) ?? logTo)
      : (logDestination(config.LOG_FORMAT) ?? bufferedStdout()),
  );
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, target, imports, logger }),
    // Express, writing a @Versioned() answer's ETag as it replies
    new VersionedExpressAdapter(),
    {
      logger: new NestLoggerAdapter(logger),
      bodyParser: false,
      abortOnError: false,
    },
  );
  app.disable('x-powered-by');
  applyServerLimits(app.getHttpServer(), config);
  // the client's address (rate limit, PIN lockout) from X-Forwarded-For only through the proxies
  // TRUST_PROXY names
  const proxies = config.TRUST_PROXY.trim();
  if (proxies !== '') app.set('trust proxy', /^\d+$/.test(proxies) ? Number(proxies) : proxies);
  // With tokens, an answer depends on who asks (a comanda's `acciones`, /me): a browser or a
  // cache must not serve one user's copy (or revalidate it with If-None-Match) to another.
  if (config.AUTH_MODE === 'jwt')
    app.use((_request: unknown, response: { vary(field: string): void }, next: () => void) => {
      response.vary('Authorization');
      next();
    });
  // First of all: every request, whatever its path, gets its id and its completion log line.
  app.use(requestIdAndLog(logger));
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
  // Any JSON value is read (strict: false) so that a body that is not an object gets the
  // precise 400 INVALID_BODY of checkBodyType (src/common/http/body-type.ts, run by the
  // request guard) rather than "not valid JSON".
  // Nested too deep, it is refused before it is parsed (refuseDeepJson).
  app.use(json({ limit: config.BODY_LIMIT, strict: false, verify: refuseDeepJson }));
  // Clocks in push mode call fixed paths: /iclock/... stays outside /api, with a text body.
  app.setGlobalPrefix('api', { exclude: [{ path: 'iclock/{*path}', method: RequestMethod.ALL }] });
  app.use('/iclock', text({ type: () => true, limit: config.BODY_LIMIT }));
  // After the body parsers (they call next from stream callbacks): the request context, then
  // the input no route accepts (control characters, prototype keys), refused in one place.
  app.use(openRequestContext);
  app.use(refuseHostileInput);
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  app.useGlobalPipes(createValidationPipe());
  setupOpenApi(app, config);
  await app.init();
  const routes = app.get(RouteTable);
  routes.load(app);
  // The back-office page at / (built by npm run build:web; docs/web.md), when it was built.
  const page = webPage();
  if (page) app.use(page);
  // Paths outside /api never reach Nest's router: answer them like its unknown routes.
  app.use((req: Request & { id?: string }, res: Response) => {
    const error = unroutedAnswer(req, routes);
    sendError(res, error, req.id, requestedLanguage(req.headers['accept-language']));
  });
  return app;
}

/**
 * Starts the work the service does besides answering requests: the webhooks' delivery
 * (docs/webhooks.md). Called once the tenants' start-up migrations are done (a tenant visited
 * before would be found behind the code), and never by the CLIs, which build the same modules.
 * Resolves once the other instances' wake-ups are heard (REDIS_URL), a second at most.
 */
export function startBackgroundWork(app: NestExpressApplication): Promise<void> {
  return app.get(WebhookDispatcher).start();
}
