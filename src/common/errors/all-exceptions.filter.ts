import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ReplayedResponse } from '../http/replayed-response';
import { isRouteNotFound, unroutedAnswer } from '../http/route-not-found';
import { RouteTable } from '../http/route-table';
import { AppLogger, type Logger } from '../logging/logger';
import { DomainError, InternalError } from './domain-error';
import { codeForStatus, type ErrorEnvelope } from './error-envelope';
import { translatePgError } from './pg-error.translator';

interface HttpErrorBody {
  message?: unknown;
  error?: unknown;
  code?: unknown;
  detail?: unknown;
}

/** Errors thrown by Express' body parser carry a status and a `type`. */
interface BodyParserError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  message?: unknown;
}

const BODY_PARSER_MESSAGES: Record<string, string> = {
  'entity.too.large': 'request body is too large',
  'entity.parse.failed': 'request body is not valid JSON',
  'encoding.unsupported': 'unsupported request body encoding',
  'charset.unsupported': 'unsupported request body charset',
  'request.aborted': 'request aborted',
};

export function toEnvelope(error: DomainError, requestId: string | undefined): ErrorEnvelope {
  const envelope: ErrorEnvelope = { error: error.message, code: error.code };
  if (error.detail !== undefined) envelope.detail = error.detail;
  if (error.extra) Object.assign(envelope, error.extra);
  if (requestId) envelope.requestId = requestId;
  return envelope;
}

export function sendError(response: Response, error: DomainError, envelope: ErrorEnvelope): void {
  for (const [name, value] of Object.entries(error.headers ?? {})) response.setHeader(name, value);
  // always JSON, even on a route whose success is another type (the iClock routes' text/plain)
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.status(error.status).json(envelope);
}

/**
 * The one writer of error responses: every failure becomes `{ error, code, detail? }`
 * (docs/api-contract.md, errors) with the request id. 5xx details never reach the client; they
 * are logged.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger: Logger;

  constructor(
    logger: AppLogger,
    private readonly routes: RouteTable,
  ) {
    this.logger = logger.child('ExceptionFilter');
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const response = ctx.getResponse<Response>();
    const request = ctx.getRequest<Request & { id?: unknown }>();
    if (response.headersSent) return;
    if (exception instanceof ReplayedResponse) {
      exception.send(response);
      return;
    }

    const error = isRouteNotFound(exception, request)
      ? unroutedAnswer(request, this.routes)
      : domainErrorOf(exception);
    const envelope = toEnvelope(error, typeof request.id === 'string' ? request.id : undefined);

    // an outage the SQLSTATE translator recognised (a database away, a statement cancelled) is
    // expected: a warning, not a stack per request while it lasts
    const expected = exception instanceof DomainError || translatePgError(exception) !== undefined;
    if (error.status === 500 || (error.status > 500 && !expected)) {
      // a bug: logged once, with the real error, its cause and stack (the client sees none)
      this.logger.error({ err: exception, status: error.status, code: error.code }, error.message);
    } else if (error.status >= 500 && !error.reported) {
      // an expected outage (database down, tenant being provisioned, timeout): no stack
      this.logger.warn({ status: error.status, code: error.code }, error.message);
    } else {
      this.logger.debug({ status: error.status, code: error.code }, error.message);
    }
    sendError(response, error, envelope);
  }
}

/**
 * What any exception thrown on a request path answers: a DomainError as it is; Nest's HTTP
 * exceptions (validation) and the body parser's errors with their status; a PostgreSQL error
 * translated (constraint 400, timeout and outage 503); anything else 500.
 */
export function domainErrorOf(exception: unknown): DomainError {
  if (exception instanceof DomainError) return exception;
  // Nest wraps body-parser errors (bad JSON, too large) in an HttpException with a cause; a
  // DomainError there is the parser's verdict (a body nested too deep)
  const cause = exception instanceof HttpException ? exception.cause : exception;
  if (cause instanceof DomainError) return cause;
  const bodyParser = fromBodyParserError(cause);
  if (bodyParser) return bodyParser;
  if (exception instanceof HttpException) return fromHttpException(exception);
  const translated = translatePgError(exception);
  if (translated) return translated;
  return new InternalError();
}

function fromHttpException(exception: HttpException): DomainError {
  const status = exception.getStatus();
  const body = exception.getResponse();
  let message = exception.message;
  let code = codeForStatus(status);
  let detail: unknown;
  if (typeof body === 'object' && body !== null) {
    const b = body as HttpErrorBody;
    if (Array.isArray(b.message)) {
      // ValidationPipe: a list of violations
      message = 'Validation failed';
      detail = b.message;
    } else if (typeof b.message === 'string') {
      message = b.message;
    }
    if (typeof b.code === 'string') code = b.code;
    if (b.detail !== undefined) detail = b.detail;
  } else if (typeof body === 'string') {
    message = body;
  }
  if (status >= 500) message = 'Internal server error; the request id identifies it in the logs';
  return new DomainError({ status, code, message, detail });
}

function fromBodyParserError(exception: unknown): DomainError | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const e = exception as BodyParserError;
  const type = typeof e.type === 'string' ? e.type : undefined;
  const status =
    typeof e.status === 'number'
      ? e.status
      : typeof e.statusCode === 'number'
        ? e.statusCode
        : undefined;
  if (!type || !status || !(type in BODY_PARSER_MESSAGES)) return undefined;
  return new DomainError({
    status,
    code: codeForStatus(status),
    message: BODY_PARSER_MESSAGES[type],
  });
}
