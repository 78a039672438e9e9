/** What a domain error is made of (see DomainError). */
export interface DomainErrorOptions {
  status: number;
  /** Machine code: a name (`COMANDA_NOT_FOUND`) or a PostgreSQL SQLSTATE (`23505`). */
  code: string;
  /** For people. */
  message: string;
  /** The envelope's `detail`: what exactly was wrong (a value, a list of violations ...). */
  detail?: unknown;
  /** Fields added at the top level of the envelope (an RPC failure's diagnostics, a constraint's column). */
  extra?: Record<string, unknown>;
  /** Response headers such as Retry-After or Allow. */
  headers?: Record<string, string>;
  /** The error this one explains (logged, never sent). */
  cause?: unknown;
  /**
   * Already logged where it was found, once and not per request (a tenant whose schema is
   * behind the code): the exception filter logs its answers at debug only.
   */
  reported?: boolean;
}

/**
 * Base of every error the service raises on purpose. A module declares its own factories or
 * subclasses with a machine `code` (comandas.errors.ts, tenancy.errors.ts ...); the global
 * filter turns them into the envelope `{ error, code, detail }` with `status` and `headers`.
 */
export class DomainError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail?: unknown;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly reported: boolean;

  constructor(options: DomainErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.code = options.code;
    this.detail = options.detail;
    this.extra = options.extra;
    this.headers = options.headers;
    this.reported = options.reported ?? false;
  }
}

/** 400: the request itself is wrong. */
export class BadRequestError extends DomainError {
  constructor(message: string, code = 'BAD_REQUEST', detail?: unknown) {
    super({ status: 400, code, message, detail });
  }
}

/** 403: understood, and refused to this caller. */
export class ForbiddenError extends DomainError {
  constructor(message: string, code = 'FORBIDDEN', detail?: unknown) {
    super({ status: 403, code, message, detail });
  }
}

/** 404: the resource does not exist. */
export class NotFoundError extends DomainError {
  constructor(message: string, code = 'NOT_FOUND', detail?: unknown) {
    super({ status: 404, code, message, detail });
  }
}

/** 409: the resource's state does not allow it. */
export class ConflictError extends DomainError {
  constructor(message: string, code = 'CONFLICT', detail?: unknown) {
    super({ status: 409, code, message, detail });
  }
}

/**
 * 404 for a path no route serves, or a route that is switched off: the same body whether the
 * router or a guard says it, so a switched-off feature cannot be told from a missing route.
 */
export class RouteNotFoundError extends NotFoundError {
  constructor(method: string, url: string) {
    super(`Cannot ${method} ${url}`, 'NOT_FOUND');
  }
}

/** 405: the path exists, with other methods (the Allow header names them). */
export class MethodNotAllowedError extends DomainError {
  constructor(method: string, path: string, allowed: string[]) {
    super({
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      message: `${method} is not served on ${path}: use ${allowed.join(', ')}`,
      detail: { allowed },
      headers: { Allow: allowed.join(', ') },
    });
  }
}

/** 415: the body is not of a media type the route reads. */
export class UnsupportedMediaTypeError extends DomainError {
  constructor(message: string, detail?: unknown) {
    super({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message, detail });
  }
}

/** 429: too many requests; retry after `retryAfterSeconds`. */
export class TooManyRequestsError extends DomainError {
  constructor(message: string, retryAfterSeconds: number) {
    super({
      status: 429,
      code: 'RATE_LIMITED',
      message,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** 503: not now (an outage, a timeout, a tenant being provisioned); retry after a while. */
export class ServiceUnavailableError extends DomainError {
  constructor(message: string, code: string, retryAfterSeconds: number, detail?: unknown) {
    super({
      status: 503,
      code,
      message,
      detail,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** The database of a tenant (or the control database) cannot be reached right now. */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  constructor(
    message = 'The database is not available right now, retry shortly',
    retryAfterSeconds = 5,
  ) {
    super(message, 'DATABASE_UNAVAILABLE', retryAfterSeconds);
  }
}

/** 500: a bug. The client sees this message only; the cause is logged. */
export class InternalError extends DomainError {
  constructor(code = 'INTERNAL_ERROR', cause?: unknown) {
    super({
      status: 500,
      code,
      message: 'Internal server error; the request id identifies it in the logs',
      cause,
    });
  }
}
