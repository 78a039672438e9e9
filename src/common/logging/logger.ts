import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogFormatSetting, LogLevel } from '../config/app-config';
import { RequestContext } from '../context/request-context';

export type { Logger };

/** Where log lines go: stdout, or any stream that says whether it is a terminal. */
export interface LogOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** LOG_FORMAT, or with `auto`: pretty on a terminal (a person reads it), JSON otherwise. */
export function logFormat(setting: LogFormatSetting, output: LogOutput): 'json' | 'pretty' {
  if (setting !== 'auto') return setting;
  return output.isTTY === true ? 'pretty' : 'json';
}

/**
 * The destination of the log lines for `output` (stdout by default): undefined for JSON (pino
 * writes its lines there itself), or pino-pretty's formatter applied to each line as pino
 * writes it, in the same call: a synchronous stream, no worker thread (pino's `transport`), so
 * the last lines before an exit are never lost and a start costs no extra thread.
 */
export function logDestination(
  setting: LogFormatSetting,
  output: LogOutput = process.stdout,
): DestinationStream | undefined {
  if (logFormat(setting, output) === 'json') return undefined;
  // loaded for pretty output only: a JSON start (a server, a pipe) does not pay for it
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
  const hasColors = (output as { hasColors?: () => boolean }).hasColors?.() ?? false;
  const prettify = prettyFactory({
    colorize: hasColors,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  return { write: (line: string) => void output.write(prettify(line)) };
}

/** How long a JSON log line may wait in the buffer of `bufferedStdout` before it is written. */
export const LOG_FLUSH_MS = 100;

/**
 * The service's JSON lines on stdout, written in batches: a line waits in a buffer until 4 KB
 * are there or `LOG_FLUSH_MS` has passed, so a busy server makes one write system call for
 * dozens of requests instead of one per request (about 5 % of a request's CPU time: the
 * `request completed` line's synchronous write was the largest single cost on the request path,
 * docs/performance.md). What is buffered is written out when the process exits (pino flushes it
 * on `exit`, after a fatal line too); only a kill -9 can lose the last 100 ms of lines.
 */
export function bufferedStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  let closed = false;
  // a write still in flight makes a flush a no-op: the next tick writes what is left
  const flusher = setInterval(() => closed || destination.flush(), LOG_FLUSH_MS);
  flusher.unref();
  destination.on('close', () => {
    closed = true;
    clearInterval(flusher);
  });
  return destination;
}

/** What a database error's `detail` says with the row's or the key's values taken out. */
function detailWithoutValues(detail: string): string {
  if (detail.startsWith('Failing row contains')) return 'Failing row contains (values not logged).';
  return detail.replace(
    /=\(.*?\)( already exists| is not present| is still referenced| conflicts)/g,
    '=(values not logged)$1',
  );
}

function scrubbed(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > 3) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    // a statement's bound values: a secret, a URL with its token, a customer's data
    if (key === 'parameters') continue;
    out[key] =
      key === 'detail' && typeof field === 'string'
        ? detailWithoutValues(field)
        : scrubbed(field, depth + 1);
  }
  return out;
}

/**
 * pino's serializer of an `err` field, without what a failed statement carries of the values it
 * was sent (TypeORM's QueryFailedError keeps them as `parameters`, PostgreSQL repeats a row's or
 * a key's values in `detail`): a log never holds a bound value (docs/security.md).
 */
export function errorForLog(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  return scrubbed(pino.stdSerializers.err(error as Error), 0);
}

/**
 * The service's logger: pino writing JSON lines, or readable ones (see logDestination). Every
 * line written inside a request (or a CLI job's context) carries the request id, tenant and user
 * of the request context, read by a mixin: no child logger per request, no second
 * AsyncLocalStorage.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { pid: process.pid },
    mixin: () => RequestContext.logBindings() ?? {},
    // pino's default merge writes a line's own fields into the mixin's object, here the
    // request's bindings, so they would reach every later line of the request (an error's
    // `err` and `code` on its `request completed` line): merge into a new object instead
    mixinMergeStrategy: (line: object, bindings: object) => ({ ...bindings, ...line }),
    serializers: { err: errorForLog },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Injectable handle on the root logger: `child('Context')` for a class's own logger. */
export class AppLogger {
  constructor(readonly root: Logger) {}

  child(context: string): Logger {
    return this.root.child({ context });
  }
}

/**
 * Nest's own start-up messages (modules initialised, every route mapped) are detail: logged at
 * debug, so the start banner is the last thing a default `npm start` prints.
 */
const FRAMEWORK_DETAIL = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/** Nest's LoggerService on top of pino (framework messages: modules, routes, shutdown). */
export class NestLoggerAdapter implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    const level = context && FRAMEWORK_DETAIL.has(context) ? 'debug' : 'info';
    this.write(level, message, context);
  }

  error(message: unknown, ...params: unknown[]): void {
    // Nest passes (message, stack?, context?)
    const context = contextOf(params);
    const stack = params.find((p) => typeof p === 'string' && p.includes('\n    at '));
    this.logger.error({ context, ...(stack ? { stack } : {}) }, text(message));
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, contextOf(params));
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, contextOf(params));
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, contextOf(params));
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, contextOf(params));
  }

  private write(level: pino.Level, message: unknown, context: string | undefined): void {
    this.logger[level]({ context }, text(message));
  }
}

function contextOf(params: unknown[]): string | undefined {
  const last = params[params.length - 1];
  return typeof last === 'string' ? last : undefined;
}

function text(message: unknown): string {
  if (typeof message === 'string') return message;
  if (message instanceof Error) return message.message;
  return JSON.stringify(message);
}
