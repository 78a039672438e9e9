import {
  BadRequestError,
  ConflictError,
  DatabaseUnavailableError,
  DomainError,
} from './domain-error';

/**
 * The one place that inspects PostgreSQL driver errors: maps a SQLSTATE to a domain error.
 * Returns `undefined` for errors that are not PostgreSQL's (the caller then treats them as
 * unexpected). https://www.postgresql.org/docs/current/errcodes-appendix.html
 */

interface PgErrorLike {
  code?: unknown;
  detail?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  message?: unknown;
  driverError?: PgErrorLike | null;
}

/** Node/network error codes meaning the server cannot be reached. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EPIPE',
]);

const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout expired',
  'Connection refused',
  'the database system is starting up',
  'the database system is shutting down',
];

function pgErrorOf(error: unknown): PgErrorLike | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const candidate = error as PgErrorLike;
  // TypeORM wraps driver errors in QueryFailedError.driverError
  if (typeof candidate.driverError === 'object' && candidate.driverError !== null) {
    return candidate.driverError;
  }
  return candidate;
}

export function isConnectionError(error: unknown): boolean {
  const pg = pgErrorOf(error);
  if (!pg) return false;
  const code = typeof pg.code === 'string' ? pg.code : '';
  if (CONNECTION_ERROR_CODES.has(code)) return true;
  // Class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now)
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')
    return true;
  const message = typeof pg.message === 'string' ? pg.message : '';
  return CONNECTION_MESSAGES.some((m) => message.includes(m));
}

function constraintDetail(pg: PgErrorLike): Record<string, unknown> {
  const detail: Record<string, unknown> = {};
  if (typeof pg.detail === 'string') detail.detail = pg.detail;
  if (typeof pg.constraint === 'string') detail.constraint = pg.constraint;
  if (typeof pg.table === 'string') detail.table = pg.table;
  if (typeof pg.column === 'string') detail.column = pg.column;
  return detail;
}

const CONSTRAINT_MESSAGES: Record<string, string> = {
  '23503': 'foreign-key violation',
  '23001': 'foreign-key violation', // restrict_violation (ON DELETE RESTRICT)
  '23505': 'uniqueness violation',
  '23514': 'CHECK violation',
  '23502': 'missing NOT NULL field',
};

export function translatePgError(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  if (isConnectionError(error)) return new DatabaseUnavailableError();
  const pg = pgErrorOf(error);
  if (!pg || typeof pg.code !== 'string' || !/^[0-9A-Z]{5}$/.test(pg.code)) return undefined;
  const code = pg.code;
  const constraintMessage = CONSTRAINT_MESSAGES[code];
  if (constraintMessage) {
    const info = constraintDetail(pg);
    const detail =
      (typeof info.detail === 'string' ? info.detail : undefined) ??
      (typeof pg.message === 'string' ? pg.message : undefined);
    return new BadRequestError(constraintMessage, code, detail);
  }
  switch (code) {
    case '22P02': // invalid_text_representation
    case '22003': // numeric_value_out_of_range
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
    case '22001': // string_data_right_truncation
    case '22023': // invalid_parameter_value
      return new BadRequestError(
        'invalid value',
        code,
        typeof pg.message === 'string' ? pg.message : undefined,
      );
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
    case '55P03': // lock_not_available
      return new ConflictError('the row is being changed by another request, retry', code);
    case '57014': // query_canceled (statement_timeout)
      return new DomainError(
        503,
        code,
        'the query took too long and was cancelled',
        undefined,
        undefined,
        {
          'Retry-After': '1',
        },
      );
    case '53300': // too_many_connections
      return new DatabaseUnavailableError('the database has no free connections, retry shortly');
    case '3D000': // invalid_catalog_name: the tenant database does not exist
      return new DatabaseUnavailableError('the tenant database does not exist or is not reachable');
    default:
      return undefined;
  }
}
