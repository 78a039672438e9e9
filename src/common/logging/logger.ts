import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/app-config';
import { RequestContext } from '../context/request-context';

export type { Logger };

/**
 * The service's logger: pino writing JSON lines. Every line written inside a request (or a CLI
 * job's context) carries the request id, tenant and user of the request context, read by a
 * mixin: no child logger per request, no second AsyncLocalStorage.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { pid: process.pid },
    mixin: () => RequestContext.logBindings() ?? {},
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
