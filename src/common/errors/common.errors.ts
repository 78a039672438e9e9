import { DomainError } from './domain-error';
import { defineError, type ErrorSpec } from './error-catalogue';
import { validationFailedInSpanish } from './validation-spanish';

/**
 * The codes every route shares (docs/api-contract.md, "Errors"): the tenant header and the
 * tenant's state, the token and the roles, the rate limit, the request body, validation, ids and
 * versions, the database's answers and outages. The OpenAPI document adds them to the operations
 * they apply to (src/common/http/openapi-contract.ts); a module's own codes are in its folder.
 */

// ---- the tenant header and the tenant's state (every tenant route) -----------------------

export const tenantRequired = defineError({
  status: 400,
  code: 'TENANT_REQUIRED',
  summary: 'No X-Tenant-ID header',
  en: () => 'The X-Tenant-ID header is required',
  es: () => 'Falta la cabecera X-Tenant-ID (el restaurante)',
  example: [],
});

export const tenantInvalid = defineError({
  status: 400,
  code: 'TENANT_INVALID',
  summary: 'X-Tenant-ID is not a tenant slug',
  en: () =>
    'X-Tenant-ID must be a tenant slug: a lowercase letter, then 1 to 62 of a-z, 0-9, _ or -',
  es: () =>
    'X-Tenant-ID debe ser el identificador de un restaurante: una letra minúscula y luego de 1 a 62 caracteres entre a-z, 0-9, _ o -',
  example: [],
});

export const tenantNotFound = defineError({
  status: 404,
  code: 'TENANT_NOT_FOUND',
  summary: 'No tenant has this slug',
  en: (slug: string) => `Tenant "${slug}" does not exist`,
  es: (slug) => `El restaurante "${slug}" no existe`,
  example: ['la-mar'],
});

export const tenantSuspended = defineError({
  status: 403,
  code: 'TENANT_SUSPENDED',
  summary: 'The tenant is suspended',
  en: (slug: string) => `Tenant "${slug}" is suspended`,
  es: (slug) => `El restaurante "${slug}" está suspendido`,
  example: ['la-mar'],
});

export const tenantProvisioning = defineError({
  status: 503,
  code: 'TENANT_PROVISIONING',
  summary: 'The tenant is still being created (Retry-After)',
  en: (slug: string) =>
    `Tenant "${slug}" is still being provisioned: npm run tenant -- create ${slug} finishes it`,
  es: (slug) =>
    `El restaurante "${slug}" todavía se está creando: npm run tenant -- create ${slug} lo termina`,
  headers: () => ({ 'Retry-After': '5' }),
  example: ['la-mar'],
});

/** The command that brings a tenant's database to the code's schema. */
export const migrateCommand = (slug: string) => `npm run tenant -- migrate ${slug}`;

/**
 * The tenant's database lacks migrations of this version of the code (the service was updated,
 * the tenant not migrated yet): 503 naming the command to run. Logged once per tenant where it
 * is found (TenantDataSources), not at every request.
 */
export const tenantSchemaOutdated = defineError({
  status: 503,
  code: 'TENANT_SCHEMA_OUTDATED',
  summary:
    'The tenant’s database is behind this version of the service: the operator migrates it (Retry-After)',
  en: (slug: string) =>
    `The database of tenant "${slug}" is behind this version of the service: run ${migrateCommand(slug)}`,
  es: (slug) =>
    `La base de datos del restaurante "${slug}" está atrasada respecto de esta versión del servicio: ejecute ${migrateCommand(slug)}`,
  detail: (slug) => ({ command: migrateCommand(slug) }),
  headers: () => ({ 'Retry-After': '30' }),
  reported: true,
  example: ['la-mar'],
});

// ---- outages and time limits --------------------------------------------------------------

export const databaseUnavailable = defineError({
  status: 503,
  code: 'DATABASE_UNAVAILABLE',
  summary: 'The tenant database (or the catalog) does not answer (Retry-After)',
  en: () => 'The database is not available right now, retry shortly',
  es: () =>
    'La base de datos no está disponible en este momento: vuelva a intentarlo en un momento',
  headers: () => ({ 'Retry-After': '5' }),
  example: [],
});

export const databaseWithoutConnections = defineError({
  status: 503,
  code: 'DATABASE_UNAVAILABLE',
  name: 'DATABASE_WITHOUT_CONNECTIONS',
  summary: 'The database server has no free connection (too_many_connections) (Retry-After)',
  en: () => 'the database has no free connections, retry shortly',
  es: () => 'la base de datos no tiene conexiones libres: vuelva a intentarlo en un momento',
  headers: () => ({ 'Retry-After': '5' }),
  example: [],
});

export const tenantDatabaseMissing = defineError({
  status: 503,
  code: 'DATABASE_UNAVAILABLE',
  name: 'TENANT_DATABASE_MISSING',
  summary: 'The tenant’s database does not exist on its server (Retry-After)',
  en: () => 'the tenant database does not exist or is not reachable',
  es: () => 'la base de datos del restaurante no existe o no se puede alcanzar',
  headers: () => ({ 'Retry-After': '5' }),
  example: [],
});

export const requestTimeout = defineError({
  status: 503,
  code: 'REQUEST_TIMEOUT',
  summary: 'Not answered within REQUEST_TIMEOUT_MS (Retry-After)',
  en: (ms: number) => `The request was not answered within ${ms} ms; retry shortly`,
  es: (ms) => `La solicitud no se respondió en ${ms} ms: vuelva a intentarlo en un momento`,
  headers: () => ({ 'Retry-After': '5' }),
  example: [60000],
});

export const statementTimeout = defineError({
  status: 503,
  code: '57014',
  summary: 'A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After)',
  en: () => 'the query took too long and was cancelled',
  es: () => 'la consulta tardó demasiado y se canceló',
  headers: () => ({ 'Retry-After': '1' }),
  example: [],
});

export const shuttingDown = defineError({
  status: 503,
  code: 'SHUTTING_DOWN',
  summary: 'The instance is stopping: another one answers (Retry-After)',
  en: () => 'The service is shutting down',
  es: () => 'El servicio se está deteniendo',
  headers: () => ({ 'Retry-After': '1' }),
  example: [],
});

export const rateLimited = defineError({
  status: 429,
  code: 'RATE_LIMITED',
  summary: 'Past RATE_LIMIT_MAX requests in the window (Retry-After)',
  en: (limit: number, seconds: number, client: 'tenant' | 'anonymous', retryAfter: number) =>
    `Too many requests: at most ${limit} every ${seconds} s ${
      client === 'tenant'
        ? 'for a client of a tenant'
        : 'from an address without a known tenant or a valid token'
    }; retry in ${retryAfter} s`,
  es: (limit, seconds, client, retryAfter) =>
    `Demasiadas solicitudes: como máximo ${limit} cada ${seconds} s ${
      client === 'tenant'
        ? 'por cliente de un restaurante'
        : 'desde una dirección sin restaurante conocido ni token válido'
    }; vuelva a intentarlo en ${retryAfter} s`,
  headers: (_limit, _seconds, _client, retryAfter) => ({ 'Retry-After': String(retryAfter) }),
  example: [1200, 60, 'tenant', 17],
});

/** 500: a bug. The client sees this text only; the cause is logged. */
const internal: ErrorSpec<[]> = {
  status: 500,
  code: 'INTERNAL_ERROR',
  summary: 'A bug: the log has the cause, under the request id',
  en: () => 'Internal server error; the request id identifies it in the logs',
  es: () => 'Error interno del servicio: el id de la solicitud lo identifica en los registros',
  example: [],
};
export const internalError = defineError(internal);

/** A 500 with a code of its own (a context missing): the text of every 500, the cause logged. */
export class InternalError extends DomainError {
  constructor(code = 'INTERNAL_ERROR', cause?: unknown) {
    super({ ...internalError.options(), code, cause });
  }
}

// ---- paths, methods and request bodies ----------------------------------------------------

/**
 * 404 for a path no route serves, or a route that is switched off: the same body whether the
 * router or a guard says it, so a switched-off feature cannot be told from a missing route.
 */
export const unknownRoute = defineError({
  status: 404,
  code: 'NOT_FOUND',
  summary: 'The feature is switched off for this tenant: the answer of a route that does not exist',
  en: (method: string, url: string) => `Cannot ${method} ${url}`,
  es: (method, url) => `No existe la ruta ${method} ${url}`,
  example: ['GET', '/api/v1/tables'],
});

/** 405: the path exists, with other methods (the Allow header names them). */
export const methodNotAllowed = defineError({
  status: 405,
  code: 'METHOD_NOT_ALLOWED',
  summary: 'The path is served with other methods (Allow)',
  en: (method: string, path: string, allowed: string[]) =>
    `${method} is not served on ${path}: use ${allowed.join(', ')}`,
  es: (method, path, allowed) => `${path} no atiende ${method}: use ${allowed.join(', ')}`,
  detail: (_method, _path, allowed) => ({ allowed }),
  headers: (_method, _path, allowed) => ({ Allow: allowed.join(', ') }),
  example: ['PATCH', '/api/v1/comandas', ['GET', 'POST']],
});

export const payloadTooLarge = defineError({
  status: 413,
  code: 'PAYLOAD_TOO_LARGE',
  summary: 'The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES)',
  en: () => 'request body is too large',
  es: () => 'el cuerpo de la solicitud es demasiado grande',
  example: [],
});

export const malformedJson = defineError({
  status: 400,
  code: 'BAD_REQUEST',
  summary: 'The body is not valid JSON',
  en: () => 'request body is not valid JSON',
  es: () => 'el cuerpo de la solicitud no es un JSON válido',
  example: [],
});

export const bodyEncodingUnsupported = defineError({
  status: 415,
  code: 'UNSUPPORTED_MEDIA_TYPE',
  name: 'BODY_ENCODING_UNSUPPORTED',
  summary: 'The body’s Content-Encoding is not one the service reads',
  en: () => 'unsupported request body encoding',
  es: () => 'la codificación del cuerpo de la solicitud no se admite',
  example: [],
});

export const bodyCharsetUnsupported = defineError({
  status: 415,
  code: 'UNSUPPORTED_MEDIA_TYPE',
  name: 'BODY_CHARSET_UNSUPPORTED',
  summary: 'The body’s charset is not one the service reads',
  en: () => 'unsupported request body charset',
  es: () => 'el juego de caracteres del cuerpo de la solicitud no se admite',
  example: [],
});

export const requestAborted = defineError({
  status: 400,
  code: 'BAD_REQUEST',
  name: 'REQUEST_ABORTED',
  summary: 'The client stopped sending the body',
  en: () => 'request aborted',
  es: () => 'la solicitud se interrumpió',
  example: [],
});

export const unsupportedMediaType = defineError({
  status: 415,
  code: 'UNSUPPORTED_MEDIA_TYPE',
  summary: 'The body came with another Content-Type than the route reads',
  en: (expected: string[], received: string | null) =>
    `The body must be sent as ${expected.join(' or ')}` +
    (received ? ` (it came as ${received})` : ' (it came without a Content-Type)'),
  es: (expected, received) =>
    `El cuerpo debe enviarse como ${expected.join(' o ')}` +
    (received ? ` (llegó como ${received})` : ' (llegó sin Content-Type)'),
  detail: (expected, received) => ({ expected, received }),
  example: [['application/json'], 'application/x-www-form-urlencoded'],
});

export const invalidBody = defineError({
  status: 400,
  code: 'INVALID_BODY',
  summary: 'The JSON body is not an object (a string, a number, null, an array)',
  en: (_received: string) => 'The body must be a JSON object',
  es: () => 'El cuerpo debe ser un objeto JSON',
  detail: (received) => ({ received }),
  example: ['array'],
});

/**
 * 400 VALIDATION_FAILED: one message per field in the detail (the same in every language);
 * the Spanish text says each of them in Spanish (validation-spanish.ts). Thrown as the
 * validation pipe's exception by `validationFailed` (src/common/validation.ts).
 */
export const validationError = defineError({
  status: 400,
  code: 'VALIDATION_FAILED',
  summary:
    'A field or parameter is missing, unknown or of the wrong type or range: one message per field',
  en: (_problems: string[]) => 'Validation failed',
  es: (problems) => validationFailedInSpanish(problems),
  detail: (problems) => problems,
  example: [['id_mesa must be an integer number', 'propina should not exist']],
});

export const invalidId = defineError({
  status: 400,
  code: 'INVALID_ID',
  summary: 'A path id is not a positive integer of its range',
  en: (name: string, _value: string) => `${name} must be a positive integer`,
  es: (name) => `${name} debe ser un número entero positivo`,
  detail: (name, value) => ({ [name]: value }),
  example: ['id', 'abc'],
});

export const invalidIfMatch = defineError({
  status: 400,
  code: 'INVALID_IF_MATCH',
  summary: 'If-Match is not an ETag such as "3"',
  en: (_header: string) => 'If-Match must be an ETag such as "3"',
  es: () => 'If-Match debe ser un ETag como "3"',
  detail: (header) => ({ 'If-Match': header }),
  example: ['tres'],
});

export const staleVersion = defineError({
  status: 412,
  code: 'STALE_VERSION',
  summary: 'If-Match names another version than the current one',
  en: (current: number, expected: number) =>
    `The resource changed: its version is ${current}, not ${expected}`,
  es: (current, expected) => `El recurso cambió: su versión es ${current}, no ${expected}`,
  detail: (current, expected) => ({ currentVersion: current, expectedVersion: expected }),
  example: [4, 3],
});

/** A live stream's Last-Event-ID (the comandas' and the kitchen's). */
export const invalidLastEventId = defineError({
  status: 400,
  code: 'INVALID_LAST_EVENT_ID',
  summary: 'Last-Event-ID is not an event id (a non-negative integer)',
  en: (_header: string) => 'Last-Event-ID must be an event id',
  es: () => 'Last-Event-ID debe ser el id de un evento',
  detail: (header) => ({ lastEventId: header }),
  example: ['abc'],
});

// ---- authentication and roles (AUTH_MODE=jwt) ---------------------------------------------

/** Why a request is not authenticated (the `detail.reason` of a 401). */
export type UnauthenticatedReason =
  | 'missing'
  | 'malformed'
  | 'expired'
  | 'not_yet_valid'
  | 'invalid_signature'
  | 'unsupported_algorithm'
  | 'unknown_key'
  | 'invalid_claims'
  | 'unknown_user'
  | 'session_ended'
  | 'query_token_too_long';

/**
 * A 401 UNAUTHENTICATED entry for one `reason`: the detail names it, and the RFC 6750 challenge
 * has no `error` attribute when no credentials were sent, `invalid_token` (with the English text)
 * otherwise. The token's 401s are in src/auth/auth.errors.ts.
 */
export function unauthenticatedSpec<A extends readonly unknown[]>(
  reason: UnauthenticatedReason,
  spec: Pick<ErrorSpec<A>, 'name' | 'summary' | 'en' | 'es' | 'example'>,
): ErrorSpec<A> {
  return {
    ...spec,
    status: 401,
    code: 'UNAUTHENTICATED',
    detail: () => ({ reason }),
    headers: (...values) => ({
      'WWW-Authenticate':
        reason === 'missing'
          ? 'Bearer realm="comandas"'
          : `Bearer realm="comandas", error="invalid_token", error_description="${spec
              .en(...values)
              .replace(/"/g, "'")}"`,
    }),
  };
}

export const authenticationRequired = defineError(
  unauthenticatedSpec('missing', {
    summary:
      'No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate)',
    en: () => 'Authentication required: send Authorization: Bearer <token>',
    es: () => 'Se necesita autenticación: envíe Authorization: Bearer <token>',
    example: [],
  }),
);

export const tenantMismatch = defineError({
  status: 403,
  code: 'TENANT_MISMATCH',
  summary: 'The token was issued for another tenant than X-Tenant-ID',
  en: (claim: string, requested: string) =>
    `The token was issued for tenant "${claim}", not for "${requested}"`,
  es: (claim, requested) =>
    `El token se emitió para el restaurante "${claim}", no para "${requested}"`,
  detail: (claim, requested) => ({ tokenTenant: claim, requestedTenant: requested }),
  example: ['demo', 'la-mar'],
});

export const forbidden = defineError({
  status: 403,
  code: 'FORBIDDEN',
  summary: "The user's roles do not give the permission the route needs",
  en: (permission: string, roles: readonly string[]) =>
    roles.length === 0
      ? `This needs the permission "${permission}" and the user holds no role`
      : `This needs the permission "${permission}", which the role(s) ${roles.join(', ')} do not give`,
  es: (permission, roles) =>
    roles.length === 0
      ? `Se necesita el permiso "${permission}" y el usuario no tiene ningún rol`
      : `Se necesita el permiso "${permission}", que ${
          roles.length === 1 ? `el rol ${roles[0]} no da` : `los roles ${roles.join(', ')} no dan`
        }`,
  detail: (permission, roles) => ({ permission, roles }),
  example: ['comandas:close', ['mozo']],
});

// ---- what the database refuses (pg-error.translator.ts) -----------------------------------

/** What a constraint violation names at the top level of its body. */
export interface ConstraintFields {
  column?: string;
  columns?: string[];
  constraint?: string;
}

/** `: constraint (columns)`, or what of them PostgreSQL named; a NOT NULL names its columns. */
function constraintSuffix(fields: ConstraintFields, notNull = false): string {
  const columns = fields.column !== undefined ? [fields.column] : fields.columns;
  if (notNull && columns) return `: ${columns.join(', ')}`;
  if (fields.constraint !== undefined && columns)
    return `: ${fields.constraint} (${columns.join(', ')})`;
  if (fields.constraint !== undefined) return `: ${fields.constraint}`;
  return columns ? `: ${columns.join(', ')}` : '';
}

/** The fields, when PostgreSQL named any. */
const namedFields = (fields: ConstraintFields) =>
  Object.keys(fields).length > 0 ? { ...fields } : undefined;

/** `detail`: PostgreSQL's detail of the violation (or its message when it gave none). */
type Violation = [detail: string | undefined, fields: ConstraintFields];

export const foreignKeyViolation = defineError<Violation>({
  status: 400,
  code: '23503',
  name: 'FOREIGN_KEY',
  summary:
    'An id that does not exist (table, waiter, customer, referenced row): PostgreSQL’s detail, the column and the constraint',
  en: (_detail, fields) => `foreign-key violation${constraintSuffix(fields)}`,
  es: (_detail, fields) => `violación de clave foránea${constraintSuffix(fields)}`,
  detail: (detail) => detail,
  extra: (_detail, fields) => namedFields(fields),
  example: [
    'Key (id_mesa)=(99) is not present in table "mesas".',
    { column: 'id_mesa', constraint: 'fk_comandas_id_mesa' },
  ],
});

export const restrictViolation = defineError<Violation>({
  status: 400,
  code: '23001',
  name: 'RESTRICT',
  summary: 'A row other rows still refer to (ON DELETE RESTRICT)',
  en: (_detail, fields) => `foreign-key violation${constraintSuffix(fields)}`,
  es: (_detail, fields) => `violación de clave foránea${constraintSuffix(fields)}`,
  detail: (detail) => detail,
  extra: (_detail, fields) => namedFields(fields),
  example: [
    'Key (id_categoria)=(2) is still referenced from table "productos".',
    { column: 'id_categoria', constraint: 'fk_productos_id_categoria' },
  ],
});

export const uniqueViolation = defineError<Violation>({
  status: 400,
  code: '23505',
  name: 'UNIQUE',
  summary: 'A value already taken',
  en: (_detail, fields) => `uniqueness violation${constraintSuffix(fields)}`,
  es: (_detail, fields) => `valor repetido${constraintSuffix(fields)}`,
  detail: (detail) => detail,
  extra: (_detail, fields) => namedFields(fields),
  example: [
    'Key (nombre)=(Bebidas) already exists.',
    { column: 'nombre', constraint: 'uq_categorias_nombre' },
  ],
});

export const checkViolation = defineError<Violation>({
  status: 400,
  code: '23514',
  name: 'CHECK',
  summary: 'A CHECK constraint refused a value',
  en: (_detail, fields) => `CHECK violation${constraintSuffix(fields)}`,
  es: (_detail, fields) => `la restricción CHECK rechazó el valor${constraintSuffix(fields)}`,
  detail: (detail) => detail,
  extra: (_detail, fields) => namedFields(fields),
  example: [
    'Failing row contains (31, Suspiro, null, -5.00, t, 1, ...).',
    { constraint: 'ck_productos_precio' },
  ],
});

export const notNullViolation = defineError<Violation>({
  status: 400,
  code: '23502',
  name: 'NOT_NULL',
  summary: 'A required column left empty',
  en: (_detail, fields) => `missing NOT NULL field${constraintSuffix(fields, true)}`,
  es: (_detail, fields) => `falta un campo obligatorio (NOT NULL)${constraintSuffix(fields, true)}`,
  detail: (detail) => detail,
  extra: (_detail, fields) => namedFields(fields),
  example: ['Failing row contains (8, null, x, t).', { column: 'nombre' }],
});

/**
 * A value the column's type cannot read (22P02, 22003 ...): the code is the SQLSTATE of the
 * failure (the translator sets it), the detail PostgreSQL's message.
 */
export const invalidValue = defineError({
  status: 400,
  code: '22P02',
  name: 'SQLSTATE',
  summary: 'A value the column’s type cannot read, or another failure of the query: its SQLSTATE',
  en: (_message: string | undefined) => 'invalid value',
  es: () => 'valor no válido',
  detail: (message) => message,
  example: ['invalid input syntax for type integer: "cuarenta"'],
});

/** Any other failure of a query whose failures are the request's: its SQLSTATE as code. */
export const queryFailed = defineError({
  status: 400,
  code: '42703',
  name: 'QUERY_FAILED',
  summary: 'The query failed: its SQLSTATE, and PostgreSQL’s message as detail',
  en: (_message: string | undefined) => 'query failed',
  es: () => 'la consulta falló',
  detail: (message) => message,
  example: ['column "nope" does not exist'],
});

/** A conflict that passes by itself (40001, 40P01, 55P03): the SQLSTATE as code. */
export const transientConflict = defineError({
  status: 409,
  code: '40001',
  name: 'TRANSIENT_CONFLICT',
  summary: 'Another request was changing the same rows: the same request may well pass again',
  en: () => 'the row is being changed by another request, retry',
  es: () => 'otra solicitud está cambiando la misma fila: vuelva a intentarlo',
  example: [],
});

// ---- the refusals of Nest and of the libraries under it -----------------------------------

/** multer's refusals of an upload, by their code (its message, English, stays the `error`). */
const UPLOAD_REFUSALS: Record<string, string> = {
  LIMIT_PART_COUNT: 'El formulario tiene demasiadas partes',
  LIMIT_FILE_SIZE: 'El archivo es demasiado grande',
  LIMIT_FILE_COUNT: 'Hay demasiados archivos',
  LIMIT_FIELD_KEY: 'El nombre de un campo es demasiado largo',
  LIMIT_FIELD_VALUE: 'El valor de un campo es demasiado largo',
  LIMIT_FIELD_COUNT: 'Hay demasiados campos',
  LIMIT_UNEXPECTED_FILE: 'Un archivo llegó en un campo que no se espera',
  MISSING_FIELD_NAME: 'Falta el nombre de un campo',
  LIMIT_FIELD_NESTING: 'El nombre de un campo anida demasiados niveles',
  LIMIT_FIELD_ARRAY_INDEX: 'El nombre de un campo tiene un índice demasiado grande',
  INVALID_FIELD_NAME: 'El nombre de un campo no es válido',
};

/** What a status means, for a refusal the service did not word itself. */
const STATUS_SPANISH: Record<number, string> = {
  400: 'La solicitud no es válida',
  401: 'Se necesita autenticación',
  403: 'Prohibido',
  404: 'No encontrado',
  405: 'Método no permitido',
  406: 'No se puede responder en el formato pedido',
  408: 'La solicitud tardó demasiado',
  409: 'Conflicto',
  411: 'Falta la longitud del cuerpo',
  412: 'No se cumple la condición previa',
  413: 'La solicitud es demasiado grande',
  415: 'El tipo del cuerpo no se admite',
  422: 'La solicitud no se puede procesar',
  429: 'Demasiadas solicitudes',
};

/**
 * The Spanish of an HTTP exception Nest or a library raised with an English message (multer
 * refusing an upload: `File too large`): multer's by their code, the field kept; any other says
 * what its status means, its English message kept in parentheses.
 */
export function httpExceptionInSpanish(status: number, message: string, cause: unknown): string {
  const { code, field } = (typeof cause === 'object' && cause !== null ? cause : {}) as {
    code?: unknown;
    field?: unknown;
  };
  const upload = typeof code === 'string' ? UPLOAD_REFUSALS[code] : undefined;
  if (upload) return typeof field === 'string' && field !== '' ? `${upload} - ${field}` : upload;
  return `${STATUS_SPANISH[status] ?? 'La solicitud no se pudo atender'} (${message})`;
}
