import {
  checkViolation,
  databaseUnavailable,
  databaseWithoutConnections,
  foreignKeyViolation,
  invalidValue,
  notNullViolation,
  queryFailed,
  restrictViolation,
  statementTimeout,
  tenantDatabaseMissing,
  transientConflict,
  uniqueViolation,
  type ConstraintFields,
} from './common.errors';
import { DomainError } from './domain-error';

/**
 * SQLSTATEs of a conflict that passes by itself (a serialization failure, a deadlock, a lock not
 * available): answered 409, but not a verdict on the request. An idempotent write does not keep
 * them as its key's answer, so its retry runs again.
 */
export const TRANSIENT_SQLSTATES: ReadonlySet<string> = new Set(['40001', '40P01', '55P03']);

/**
 * The one place that inspects PostgreSQL driver errors: `pgErrorInfo` reads them (the only
 * reader of SQLSTATEs in the service) and `translatePgError` maps a SQLSTATE to a domain error.
 * https://www.postgresql.org/docs/current/errcodes-appendix.html
 * https://www.postgresql.org/docs/current/protocol-error-fields.html
 */

/** What a PostgreSQL error (or a network error of the driver) says about itself. */
export interface PgErrorInfo {
  /** The SQLSTATE (`23505`) of a PostgreSQL error, or Node's code (`ECONNREFUSED`) of a network error. */
  code?: string;
  message?: string;
  severity?: string;
  detail?: string;
  hint?: string;
  /** The call stack of a failure inside a function (PL/pgSQL context). */
  where?: string;
  schema?: string;
  table?: string;
  column?: string;
  dataType?: string;
  constraint?: string;
}

const PG_ERROR_FIELDS = [
  'code',
  'message',
  'severity',
  'detail',
  'hint',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
] as const satisfies readonly (keyof PgErrorInfo)[];

/**
 * The text fields of a driver error: a node-postgres error, or TypeORM's QueryFailedError
 * (unwrapped to its `driverError`). Any other object gives what it has of these fields (an
 * Error its `message`); a value that is not an object gives `undefined`.
 */
export function pgErrorInfo(error: unknown): PgErrorInfo | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { driverError } = error as { driverError?: unknown };
  const source = (
    typeof driverError === 'object' && driverError !== null ? driverError : error
  ) as Record<string, unknown>;
  const info: PgErrorInfo = {};
  for (const field of PG_ERROR_FIELDS) {
    const value = source[field];
    if (typeof value === 'string') info[field] = value;
  }
  return info;
}

/** The SQLSTATE of an error, when it is a PostgreSQL error. */
function sqlStateOf(info: PgErrorInfo | undefined): string | undefined {
  return info?.code !== undefined && /^[0-9A-Z]{5}$/.test(info.code) ? info.code : undefined;
}

/** Node/network error codes meaning the server cannot be reached. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout expired',
  'Connection refused',
  'the database system is starting up',
  'the database system is shutting down',
  // 55000 when a database is closed to new connections (ALTER DATABASE ... ALLOW_CONNECTIONS false,
  // or during a drop): for the client it is a database that does not answer now
  'is not currently accepting connections',
];

export function isConnectionError(error: unknown): boolean {
  const pg = pgErrorInfo(error);
  if (!pg) return false;
  const code = pg.code ?? '';
  if (CONNECTION_ERROR_CODES.has(code)) return true;
  // Class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now)
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')
    return true;
  const message = pg.message ?? '';
  return CONNECTION_MESSAGES.some((m) => message.includes(m));
}

/**
 * A connection could not be opened to a server, or was lost: a connection failure, or the
 * server refused the credentials (class 28: wrong password, unknown role, no pg_hba.conf
 * entry). For administrative work on a tenant's server; requests keep `isConnectionError`.
 */
export function isServerUnreachable(error: unknown): boolean {
  return isConnectionError(error) || (sqlStateOf(pgErrorInfo(error))?.startsWith('28') ?? false);
}

/**
 * The columns of the key a 23505/23503/23001 detail shows (`Key (a, b)=(1, 2) already
 * exists.`), or `undefined` when the detail shows none or the key holds an expression.
 */
export function keyColumnsOf(detail: string | undefined): string[] | undefined {
  const prefix = 'Key (';
  if (!detail?.startsWith(prefix)) return undefined;
  const items: string[] = [];
  let current = '';
  let depth = 0;
  let quoted = false;
  for (let i = prefix.length; i < detail.length; i++) {
    const char = detail[i];
    if (quoted) {
      current += char;
      if (char === '"') quoted = false; // a doubled quote closes and reopens
    } else if (char === '"') {
      current += char;
      quoted = true;
    } else if (char === '(') {
      depth++;
      current += char;
    } else if (char === ')' && depth > 0) {
      depth--;
      current += char;
    } else if (char === ')') {
      if (!detail.startsWith('=(', i + 1)) return undefined;
      items.push(current.trim());
      const columns = items.map(identifierOf);
      return columns.every((c): c is string => c !== undefined) ? columns : undefined;
    } else if (char === ',' && depth === 0) {
      items.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  return undefined;
}

/** A column name as PostgreSQL prints it (quoted when needed), or `undefined` for an expression. */
function identifierOf(text: string): string | undefined {
  if (/^[a-z_][a-z0-9_$]*$/.test(text)) return text;
  const quoted = /^"((?:[^"]|"")+)"$/.exec(text);
  return quoted ? quoted[1].replace(/""/g, '"') : undefined;
}

/** The entry of each constraint violation. */
const CONSTRAINT_VIOLATIONS: Record<string, typeof foreignKeyViolation> = {
  '23503': foreignKeyViolation,
  '23001': restrictViolation, // restrict_violation (ON DELETE RESTRICT)
  '23505': uniqueViolation,
  '23514': checkViolation,
  '23502': notNullViolation,
};

/** Violations whose detail shows the key: `Key (col)=(value) ...`. */
const KEY_VIOLATIONS = new Set(['23503', '23001', '23505']);

/**
 * The table and constraint of a CHECK violation (23514), which PostgreSQL reports without the
 * column: a caller that can read the constraint's columns from the catalog
 * (`pg_constraint.conkey`) passes them back as `checkColumns`. Undefined for any other error.
 */
export function checkViolationOf(
  error: unknown,
): { table: string; constraint: string } | undefined {
  const pg = pgErrorInfo(error);
  if (!pg || sqlStateOf(pg) !== '23514' || pg.column !== undefined) return undefined;
  if (pg.table === undefined || pg.constraint === undefined) return undefined;
  return { table: pg.table, constraint: pg.constraint };
}

/**
 * A constraint violation: 400 with the SQLSTATE, PostgreSQL's detail, and the fields it
 * concerns at the top level of the body (`column`, or `columns` for a key or a CHECK of several,
 * and `constraint`), also named in the message.
 */
function constraintViolation(
  code: string,
  pg: PgErrorInfo,
  checkColumns: readonly string[] | undefined,
): DomainError {
  const columns =
    pg.column !== undefined
      ? [pg.column]
      : KEY_VIOLATIONS.has(code)
        ? keyColumnsOf(pg.detail)
        : code === '23514' && checkColumns?.length
          ? [...checkColumns]
          : undefined;
  const fields: ConstraintFields = {};
  if (columns?.length === 1) fields.column = columns[0];
  else if (columns) fields.columns = columns;
  if (pg.constraint !== undefined) fields.constraint = pg.constraint;
  return CONSTRAINT_VIOLATIONS[code](pg.detail ?? pg.message, fields);
}

export interface PgTranslationOptions {
  /**
   * Every SQL failure is the request's: a SQLSTATE that would not be a 400 (one not mapped
   * below, a lock conflict, a cancelled query) becomes 400 `query failed` with the SQLSTATE
   * as code and PostgreSQL's message as detail. An unreachable database stays 503.
   */
  sqlFailuresAre400?: boolean;
  /**
   * The columns the violated CHECK constraint reads, for a 23514 (see `checkViolationOf`):
   * named as `column` (one) or `columns` (several), as PostgreSQL names no column for it.
   */
  checkColumns?: readonly string[];
}

/**
 * The domain error of a driver error: constraint violations and invalid values 400, lock
 * conflicts 409, an unreachable database 503 with `Retry-After`. `undefined` for an error that
 * is not PostgreSQL's, or a SQLSTATE without a mapping (the caller then treats it as unexpected),
 * unless `sqlFailuresAre400`. A DomainError is returned as it is.
 */
export function translatePgError(
  error: unknown,
  options: PgTranslationOptions = {},
): DomainError | undefined {
  if (error instanceof DomainError) return error;
  if (isConnectionError(error)) return databaseUnavailable();
  const pg = pgErrorInfo(error);
  const code = sqlStateOf(pg);
  if (!pg || !code) return undefined;
  const translated = translateSqlState(code, pg, options.checkColumns);
  if (options.sqlFailuresAre400 && translated?.status !== 400) {
    return new DomainError({ ...queryFailed.options(pg.message), code });
  }
  return translated;
}

function translateSqlState(
  code: string,
  pg: PgErrorInfo,
  checkColumns: readonly string[] | undefined,
): DomainError | undefined {
  if (CONSTRAINT_VIOLATIONS[code]) return constraintViolation(code, pg, checkColumns);
  switch (code) {
    case '22P02': // invalid_text_representation
    case '22003': // numeric_value_out_of_range
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
    case '22001': // string_data_right_truncation
    case '22023': // invalid_parameter_value
      return new DomainError({ ...invalidValue.options(pg.message), code });
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
    case '55P03': // lock_not_available
      // TRANSIENT_SQLSTATES: the same request may well succeed when sent again
      return new DomainError({ ...transientConflict.options(), code });
    case '57014': // query_canceled (statement_timeout)
      return statementTimeout();
    case '53300': // too_many_connections
      return databaseWithoutConnections();
    case '3D000': // invalid_catalog_name: the tenant database does not exist
      return tenantDatabaseMissing();
    default:
      return undefined;
  }
}
