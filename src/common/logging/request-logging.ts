import type { NextFunction, Request, Response } from 'express';
import { RequestContext, type LogBindings } from '../context/request-context';
import { assignRequestId } from '../http/request-id';
import type { Logger } from './logger';

type LoggedRequest = Request & { id?: string; logBindings?: LogBindings };

/**
 * The first middleware of every request, whatever its path: gives it its request id (echoed as
 * X-Request-Id) and writes one `request completed` line when the response is done, with the
 * tenant and user the guards assigned on the way. Error details are the exception filter's to
 * log (once, with the real stack), not this line's.
 */
export function requestIdAndLog(logger: Logger) {
  return (req: LoggedRequest, res: Response, next: NextFunction): void => {
    const requestId = assignRequestId(req, res);
    req.id = requestId;
    const bindings: LogBindings = { requestId };
    req.logBindings = bindings;
    const started = process.hrtime.bigint();
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      if (!logger.isLevelEnabled('info')) return;
      logger.info(
        {
          ...bindings,
          req: { method: req.method, url: redactQueryToken(req.originalUrl) },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        'request completed',
      );
    };
    res.once('finish', done);
    res.once('close', done);
    next();
  };
}

/**
 * Opens the request context (AsyncLocalStorage). Mounted after the body parsers: they call
 * `next` from stream callbacks, which would leave a context opened before them.
 */
export function openRequestContext(req: LoggedRequest, _res: Response, next: NextFunction): void {
  RequestContext.run(req.logBindings ?? { requestId: req.id }, next);
}

/** The URL as logged: a token in the query (a live stream's access_token) never reaches a log. */
export function redactQueryToken(url: string): string {
  return url.replace(/([?&]access_token=)[^&#]*/gi, '$1[redacted]');
}
