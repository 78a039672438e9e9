import {
  DynamicModule,
  Injectable,
  MiddlewareConsumer,
  Module,
  NestMiddleware,
  NestModule,
  RequestMethod,
  type ModuleMetadata,
} from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { comandaExtensions, loadedModules } from './modules';
import type { AppConfig } from './common/config/app-config';
import { APP_CONFIG, CONTROL_CONNECTION, DATABASE_TARGET } from './common/config/config.tokens';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { AppLogger, type Logger } from './common/logging/logger';
import { FeatureGuard } from './tenancy/feature.guard';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { rateLimitStorage } from './rate-limit/redis-rate-limit.storage';
import { RouteTable } from './common/http/route-table';
import { RequestTimeouts } from './common/http/request-timeouts';
import type { DatabaseTarget } from './database/database-target';
import { AuthModule } from './auth/auth.module';
import { AuthenticationGuard } from './auth/authentication.guard';
import { PermissionGuard } from './auth/permission.guard';
import { ComandasModule } from './comandas/comandas.module';
import { OutboxModule } from './outbox/outbox.module';
import { OutboxCommitMiddleware } from './outbox/outbox-commit.middleware';
import { CatalogoModule } from './catalogo/catalogo.module';
import { HealthModule } from './health/health.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { TenancyModule } from './tenancy/tenancy.module';
import { Tenant } from './tenancy/entities/tenant.entity';
import { TenantContextMiddleware } from './tenancy/tenant-context.middleware';
import { RequestGuard } from './request.guard';

/**
 * The tenant-context middleware, then the outboxes' (their wake-up of a write reads the tenant
 * the context middleware put), as one middleware: Nest mounts a middleware once per path its
 * routes take (the API's, the time clocks'), and the router tries each of those on every
 * request, so two made twice as many for the router to walk before it reaches a route.
 */
@Injectable()
class TenantRequestMiddleware implements NestMiddleware {
  constructor(
    private readonly tenant: TenantContextMiddleware,
    private readonly outbox: OutboxCommitMiddleware,
  ) {}

  use(req: Request, res: Response, next: NextFunction): void {
    this.tenant.use(req, res, (error?: unknown) => {
      if (error !== undefined) return next(error);
      try {
        this.outbox.use(req, res, next);
      } catch (thrown) {
        next(thrown);
      }
    });
  }
}

export interface AppModuleOptions {
  config: AppConfig;
  target: DatabaseTarget;
  /** Extra modules (tests mount probe controllers this way). */
  imports?: ModuleMetadata['imports'];
  /** The root logger (app.factory.ts and the CLIs make it from the config). */
  logger: Logger;
}

/**
 * The root module. Built from an already validated config and database target, so that the
 * entry point, the CLI and every e2e test file build the same application against their own
 * databases.
 */
@Module({})
export class AppModule implements NestModule {
  static forRoot({ config, target, imports = [], logger }: AppModuleOptions): DynamicModule {
    // the modules of src/modules.ts, in its order: their Nest modules, their comanda extensions
    const modules = loadedModules();
    ComandasModule.extendWith(comandaExtensions());
    const appLogger = new AppLogger(logger);
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          load: [() => ({ ...config })],
        }),
        DiscoveryModule,
        ThrottlerModule.forRoot({
          throttlers: [
            { ttl: config.RATE_LIMIT_WINDOW_MS, limit: Math.max(1, config.RATE_LIMIT_MAX) },
          ],
          skipIf: () => config.RATE_LIMIT_MAX === 0,
          // REDIS_URL: counts shared by every instance, failing open; unset: in memory
          storage: rateLimitStorage(config, appLogger),
        }),
        TypeOrmModule.forRootAsync({
          name: CONTROL_CONNECTION,
          useFactory: () => ({
            type: 'postgres',
            url: target.controlUrl,
            // the modules' rows on the control database: the tenant catalog, the push clocks
            entities: [Tenant, ...modules.flatMap((m) => m.controlEntities ?? [])],
            synchronize: false,
            migrationsRun: false,
            poolSize: config.CONTROL_POOL_MAX,
            connectTimeoutMS: config.DB_CONNECT_TIMEOUT_MS,
            applicationName: 'comandas:control',
            retryAttempts: 0,
            logging: false,
          }),
        }),
        TenancyModule,
        AuthModule,
        HealthModule,
        ComandasModule,
        OutboxModule,
        CatalogoModule,
        ...modules.map((m) => m.module),
        // the request guard prepares the keyed calls of @Idempotent() writes
        IdempotencyModule,
        ...imports,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DATABASE_TARGET, useValue: target },
        { provide: AppLogger, useValue: appLogger },
        RouteTable,
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // The checks of every request, run by the one global guard (request.guard.ts says
        // which comes first and why; the tenant's guard is TenancyModule's). No global
        // interceptor: a route without one of its own runs its handler without an rxjs
        // pipeline around it.
        FeatureGuard,
        RateLimitGuard,
        AuthenticationGuard,
        PermissionGuard,
        RequestTimeouts,
        { provide: APP_GUARD, useClass: RequestGuard },
      ],
      exports: [APP_CONFIG, DATABASE_TARGET, AppLogger, RouteTable],
      global: true,
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(TenantRequestMiddleware)
      .exclude(
        { path: 'health', method: RequestMethod.ALL },
        { path: 'docs{/*path}', method: RequestMethod.ALL },
      )
      .forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}
