import type { NextFunction, Request, Response } from 'express';
import { RequestContext, type LogBindings } from '../context/request-context';
import { assignRequestId } from '../http/request-id';
import type { Logger } from './logger';

type LoggedRequest = Request & { id?: string; logBindings?: LogBindings };

/** What runs when a response has ended (finished or closed), kept on the response. */
const END_HOOKS = Symbol('responseEndHooks');
/** The hooks of a response, or `ended` once they have run. */
type WithEndHooks = Response & { [END_HOOKS]?: (() => void)[] | 'ended' };

/**
 * Runs `hook` once when the response has been sent or its connection closed, whichever comes
 * first (at once if it already has). The request's first middleware listens for both and runs
 * every hook: a request pays for two listeners, however many parts of the service need to know
 * it ended (its log line, its tenant lease, its deadline).
 */
export function onResponseEnd(res: Response, hook: () => void): void {
  const hooks = (res as WithEndHooks)[END_HOOKS];
  if (hooks === 'ended') hook();
  else if (hooks) hooks.push(hook);
  else {
    // a response the middleware did not see (a test calling a handler directly)
    let ran = false;
    const once = () => {
      if (ran) return;
      ran = true;
      hook();
    };
    res.once('finish', once);
    res.once('close', once);
  }
}

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
    const hooks: (() => void)[] = [];
    (res as WithEndHooks)[END_HOOKS] = hooks;
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      (res as WithEndHooks)[END_HOOKS] = 'ended';
      for (const hook of hooks) hook();
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
  if (!url.includes('?')) return url;
  return url.replace(/([?&]access_token=)[^&#]*/gi, '$1[redacted]');
}
