import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { sendError } from '../errors/all-exceptions.filter';
import { requestTimeout } from '../errors/common.errors';
import { requestedLanguage } from '../errors/language';
import { AppLogger, type Logger } from '../logging/logger';
import { onResponseEnd } from '../logging/request-logging';

interface Deadline {
  at: number;
  /** Until the response ends: an answered request is not kept alive by its deadline. */
  req: (Request & { id?: string }) | undefined;
  res: Response | undefined;
}

/**
 * A request whose handler has not answered within REQUEST_TIMEOUT_MS gets 503 REQUEST_TIMEOUT
 * with Retry-After, instead of holding the client (and a proxy) indefinitely; its database
 * statement, if any, is cancelled by DB_STATEMENT_TIMEOUT_MS. Routes marked @LongRunning()
 * (file imports) are exempt.
 *
 * Every request has the same timeout, so deadlines are queued in the order they are set and one
 * timer waits for the oldest: a request costs an entry in an array, not a timer of its own (nor
 * an rxjs pipeline around its handler). When the handler answers after its 503, Nest's reply
 * finds the response sent and the exception filter drops it.
 */
@Injectable()
export class RequestTimeouts implements OnApplicationShutdown {
  private readonly ms: number;
  private readonly logger: Logger;
  private queue: Deadline[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(@Inject(APP_CONFIG) config: AppConfig, logger: AppLogger) {
    this.ms = config.REQUEST_TIMEOUT_MS;
    this.logger = logger.child('ExceptionFilter');
  }

  /** Starts the request's deadline (the route's handler is about to run). */
  start(req: Request, res: Response): void {
    if (this.ms === 0) return;
    const deadline: Deadline = { at: Date.now() + this.ms, req, res };
    this.queue.push(deadline);
    onResponseEnd(res, () => {
      deadline.req = undefined;
      deadline.res = undefined;
    });
    if (this.timer === undefined) this.arm(this.ms);
  }

  onApplicationShutdown(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(delay: number): void {
    this.timer = setTimeout(() => this.expire(), delay);
    this.timer.unref();
  }

  private expire(): void {
    this.timer = undefined;
    const now = Date.now();
    while (this.head < this.queue.length) {
      const deadline = this.queue[this.head];
      if (deadline.res !== undefined && deadline.at > now) break;
      this.head += 1;
      if (deadline.res !== undefined) this.answer(deadline.req!, deadline.res);
    }
    // drop the answered part of the queue now and then, not on every expiry
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.head < this.queue.length) this.arm(Math.max(1, this.queue[this.head].at - now));
  }

  private answer(req: Request & { id?: string }, res: Response): void {
    if (res.headersSent || res.writableEnded) return;
    const error = requestTimeout(this.ms);
    this.logger.warn({ status: error.status, code: error.code }, error.message);
    // a request without headers (as a bare one made by hand) answers in English
    sendError(res, error, req.id, requestedLanguage(req.headers?.['accept-language']));
  }
}
