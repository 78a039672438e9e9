import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ReplayedResponse } from '../http/replayed-response';
import { isRouteNotFound, unroutedAnswer } from '../http/route-not-found';
import { RouteTable } from '../http/route-table';
import { AppLogger, type Logger } from '../logging/logger';
import {
  bodyCharsetUnsupported,
  bodyEncodingUnsupported,
  httpExceptionInSpanish,
  internalError,
  malformedJson,
  payloadTooLarge,
  requestAborted,
  validationError,
} from './common.errors';
import { DomainError } from './domain-error';
import type { ErrorEntry } from './error-catalogue';
import { answerLanguage, codeForStatus, toEnvelope } from './error-envelope';
import { requestedLanguage, setErrorLanguage, type Language } from './language';
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

/** The body parser's errors, by their `type`. */
const BODY_PARSER_ERRORS: Record<string, ErrorEntry<[]>> = {
  'entity.too.large': payloadTooLarge,
  'entity.parse.failed': malformedJson,
  'encoding.unsupported': bodyEncodingUnsupported,
  'charset.unsupported': bodyCharsetUnsupported,
  'request.aborted': requestAborted,
};

/** Writes an error answer: its headers, the envelope in `language`, always as JSON. */
export function sendError(
  response: Response,
  error: DomainError,
  requestId: string | undefined,
  requested: Language,
): void {
  for (const [name, value] of Object.entries(error.headers ?? {})) response.setHeader(name, value);
  const language = answerLanguage(error, requested);
  setErrorLanguage(response, language);
  // always JSON, even on a route whose success is another type (the iClock routes' text/plain)
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.status(error.status).json(toEnvelope(error, requestId, language));
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
    const requested = requestedLanguage(request.headers['accept-language']);
    if (exception instanceof ReplayedResponse) {
      exception.send(response, requested);
      return;
    }

    const error = isRouteNotFound(exception, request)
      ? unroutedAnswer(request, this.routes)
      : domainErrorOf(exception);

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
    sendError(response, error, typeof request.id === 'string' ? request.id : undefined, requested);
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
  return internalError();
}

/**
 * An HTTP exception of Nest or of a library (multer's refusals of an upload): its status, its
 * message and the Spanish of it; a list of violations is VALIDATION_FAILED.
 */
function fromHttpException(exception: HttpException): DomainError {
  const status = exception.getStatus();
  const body = exception.getResponse();
  let message = exception.message;
  let spanish: string | undefined;
  let code = codeForStatus(status);
  let detail: unknown;
  if (typeof body === 'object' && body !== null) {
    const b = body as HttpErrorBody;
    if (Array.isArray(b.message)) {
      // a ValidationPipe without the service's exception factory: a list of violations
      const problems = b.message.map(String);
      ({ en: message, es: spanish } = validationError.texts(problems));
      detail = b.message;
    } else if (typeof b.message === 'string') {
      message = b.message;
    }
    if (typeof b.code === 'string') code = b.code;
    if (b.detail !== undefined) detail = b.detail;
  } else if (typeof body === 'string') {
    message = body;
  }
  if (status >= 500) ({ en: message, es: spanish } = internalError.texts());
  spanish ??= httpExceptionInSpanish(status, message, exception.cause);
  return new DomainError({ status, code, message, spanish, detail });
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
  if (!type || !status || !(type in BODY_PARSER_ERRORS)) return undefined;
  return new DomainError({
    ...BODY_PARSER_ERRORS[type].options(),
    status,
    code: codeForStatus(status),
  });
}
