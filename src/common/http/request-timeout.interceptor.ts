import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { throwError, timeout, type Observable } from 'rxjs';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { LONG_RUNNING } from '../decorators';
import { ServiceUnavailableError } from '../errors/domain-error';

/**
 * A request whose handler has not answered within REQUEST_TIMEOUT_MS gets 503 REQUEST_TIMEOUT
 * with Retry-After, instead of holding the client (and a proxy) indefinitely. Its database
 * statement, if any, is cancelled by DB_STATEMENT_TIMEOUT_MS. Routes marked @LongRunning()
 * (file imports) are exempt.
 */
@Injectable()
export class RequestTimeoutInterceptor implements NestInterceptor {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const ms = this.config.REQUEST_TIMEOUT_MS;
    const exempt = this.reflector.getAllAndOverride<boolean>(LONG_RUNNING, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (ms === 0 || exempt) return next.handle();
    return next.handle().pipe(
      timeout({
        first: ms,
        with: () =>
          throwError(
            () =>
              new ServiceUnavailableError(
                `The request was not answered within ${ms} ms; retry shortly`,
                'REQUEST_TIMEOUT',
                5,
              ),
          ),
      }),
    );
  }
}
