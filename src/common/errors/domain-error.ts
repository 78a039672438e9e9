/** What a domain error is made of (see DomainError). */
export interface DomainErrorOptions {
  status: number;
  /** Machine code: a name (`COMANDA_NOT_FOUND`) or a PostgreSQL SQLSTATE (`23505`). */
  code: string;
  /** For people, in English: the default language, and the one of the logs. */
  message: string;
  /**
   * The same text in Spanish, answered to a request that prefers it (`Accept-Language: es`).
   * An error of a catalogue always has it (error-catalogue.ts); one without answers English.
   */
  spanish?: string;
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
 * Base of every error the service raises on purpose. A module declares its codes in its
 * catalogue, one entry each (`src/x/x.errors.ts`, built with defineError of
 * error-catalogue.ts); the global filter turns them into the envelope `{ error, code, detail }`
 * with `status` and `headers`, the text in the request's language.
 */
export class DomainError extends Error {
  readonly status: number;
  readonly code: string;
  readonly spanish?: string;
  readonly detail?: unknown;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly reported: boolean;

  constructor(options: DomainErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.code = options.code;
    this.spanish = options.spanish;
    this.detail = options.detail;
    this.extra = options.extra;
    this.headers = options.headers;
    this.reported = options.reported ?? false;
  }
}

/*
 * Errors made on the spot, with an English text only (they answer English whatever the request
 * asks for): the command-line tools' refusals, which they print, and a test's probe. The
 * service's own errors come from the entries of their catalogues (error-catalogue.ts), which
 * speak Spanish too.
 */

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
