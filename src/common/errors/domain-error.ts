/**
 * Base of every error the service raises on purpose. A module declares its own subclasses
 * (or factory functions) with a machine `code`; the global filter turns them into the
 * envelope `{ error, code, detail }` with `status`.
 */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly detail?: unknown,
    /** Extra fields added at the top level of the envelope (seed 4.2.2 diagnostics). */
    readonly extra?: Record<string, unknown>,
    /** Response headers such as Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends DomainError {
  constructor(message: string, code = 'BAD_REQUEST', detail?: unknown) {
    super(400, code, message, detail);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string, code = 'NOT_FOUND', detail?: unknown) {
    super(404, code, message, detail);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code = 'CONFLICT', detail?: unknown) {
    super(409, code, message, detail);
  }
}

/** The database of a tenant (or the control database) cannot be reached right now. */
export class DatabaseUnavailableError extends DomainError {
  constructor(
    message = 'The database is not available right now, retry shortly',
    retryAfterSeconds = 5,
  ) {
    super(503, 'DATABASE_UNAVAILABLE', message, undefined, undefined, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}
