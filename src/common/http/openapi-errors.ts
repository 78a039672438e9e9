import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from '../errors/error-body.dto';

/**
 * The error responses of the OpenAPI document: a catalogue of the error codes the service
 * answers, each with a realistic body, and the one builder of an error response (the envelope
 * schema plus one example per code). Controllers declare the codes of their own operations
 * with `ApiErrors(...)`; the statuses every route shares are added by `openapi-contract.ts`
 * with the same builder, so every error response of the document looks alike.
 */

/** One error body the document shows as an example of a status. */
export interface ErrorExample {
  /** The key of the example in its response (usually the code; unique within a response). */
  name: string;
  status: number;
  /** One line for the example list and the response description. */
  summary: string;
  body: { error: string; code: string; detail?: unknown; [extra: string]: unknown };
}

const REQUEST_ID = '3f0e8a52-6d1c-4f7e-9b0a-52c1d7e4a9b6';

export function example(
  status: number,
  code: string,
  summary: string,
  error: string,
  detail?: unknown,
  extra: Record<string, unknown> = {},
  name = code,
): ErrorExample {
  return {
    name,
    status,
    summary,
    body: {
      error,
      code,
      ...(detail === undefined ? {} : { detail }),
      ...extra,
      requestId: REQUEST_ID,
    },
  };
}

/** The reason phrase that opens the description of an error response. */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/** Every error code the document names, with an example body. */
export const ERRORS = {
  // the tenant header and the tenant's state (every tenant route)
  TENANT_REQUIRED: example(
    400,
    'TENANT_REQUIRED',
    'No X-Tenant-ID header',
    'The X-Tenant-ID header is required',
  ),
  TENANT_INVALID: example(
    400,
    'TENANT_INVALID',
    'X-Tenant-ID is not a tenant slug',
    'X-Tenant-ID must be a tenant slug: a lowercase letter, then 1 to 62 of a-z, 0-9, _ or -',
  ),
  TENANT_NOT_FOUND: example(
    404,
    'TENANT_NOT_FOUND',
    'No tenant has this slug',
    'Tenant "la-mar" does not exist',
  ),
  TENANT_SUSPENDED: example(
    403,
    'TENANT_SUSPENDED',
    'The tenant is suspended',
    'Tenant "la-mar" is suspended',
  ),
  TENANT_PROVISIONING: example(
    503,
    'TENANT_PROVISIONING',
    'The tenant is still being created (Retry-After)',
    'Tenant "la-mar" is still being provisioned',
  ),
  TENANT_SCHEMA_OUTDATED: example(
    503,
    'TENANT_SCHEMA_OUTDATED',
    'The tenant’s database is behind this version of the service: the operator migrates it (Retry-After)',
    'The database of tenant "la-mar" is behind this version of the service: run npm run tenant -- migrate la-mar',
    { command: 'npm run tenant -- migrate la-mar' },
  ),
  DATABASE_UNAVAILABLE: example(
    503,
    'DATABASE_UNAVAILABLE',
    'The tenant database (or the catalog) does not answer (Retry-After)',
    'The database is not available right now, retry shortly',
  ),
  REQUEST_TIMEOUT: example(
    503,
    'REQUEST_TIMEOUT',
    'Not answered within REQUEST_TIMEOUT_MS (Retry-After)',
    'The request was not answered within 60000 ms; retry shortly',
  ),
  STATEMENT_TIMEOUT: example(
    503,
    '57014',
    'A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After)',
    'the query took too long and was cancelled',
  ),
  RATE_LIMITED: example(
    429,
    'RATE_LIMITED',
    'Past RATE_LIMIT_MAX requests in the window (Retry-After)',
    'Too many requests: at most 1200 every 60 s for a client of a tenant; retry in 17 s',
  ),
  FEATURE_OFF: example(
    404,
    'NOT_FOUND',
    'The feature is switched off for this tenant: the answer of a route that does not exist',
    'Cannot GET /api/v1/tables',
  ),

  // request bodies (every route that reads one)
  PAYLOAD_TOO_LARGE: example(
    413,
    'PAYLOAD_TOO_LARGE',
    'The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES)',
    'request body is too large',
  ),
  UNSUPPORTED_MEDIA_TYPE: example(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'The body came with another Content-Type than the route reads',
    'The body must be sent as application/json (it came as application/x-www-form-urlencoded)',
    { expected: ['application/json'], received: 'application/x-www-form-urlencoded' },
  ),
  INVALID_BODY: example(
    400,
    'INVALID_BODY',
    'The JSON body is not an object (a string, a number, null, an array)',
    'The body must be a JSON object',
    { received: 'array' },
  ),
  MALFORMED_JSON: example(
    400,
    'BAD_REQUEST',
    'The body is not valid JSON',
    'request body is not valid JSON',
  ),
  VALIDATION_FAILED: example(
    400,
    'VALIDATION_FAILED',
    'A field or parameter is missing, unknown or of the wrong type or range: one message per field',
    'Validation failed',
    ['id_mesa must be an integer number', 'propina should not exist'],
  ),
  INVALID_ID: example(
    400,
    'INVALID_ID',
    'A path id is not a positive integer of its range',
    'id must be a positive integer',
    { id: 'abc' },
  ),

  // authentication (AUTH_MODE=jwt)
  UNAUTHENTICATED: example(
    401,
    'UNAUTHENTICATED',
    'No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate)',
    'Authentication required: send Authorization: Bearer and a token',
    { reason: 'missing' },
  ),
  TENANT_MISMATCH: example(
    403,
    'TENANT_MISMATCH',
    'The token was issued for another tenant than X-Tenant-ID',
    'The token was issued for tenant "demo", not for "la-mar"',
    { tokenTenant: 'demo', requestedTenant: 'la-mar' },
  ),
  FORBIDDEN: example(
    403,
    'FORBIDDEN',
    "The user's roles do not give the permission the route needs",
    'This needs the permission "comandas:close", which the role(s) mozo do not give',
    { permission: 'comandas:close', roles: ['mozo'] },
  ),

  // comandas
  COMANDA_NOT_FOUND: example(
    404,
    'COMANDA_NOT_FOUND',
    'No comanda has this id',
    'Comanda 9999 does not exist',
    { id_comanda: 9999 },
  ),
  ITEM_NOT_FOUND: example(
    404,
    'ITEM_NOT_FOUND',
    'The comanda has no line with this id',
    'Comanda 301 has no line 12',
    { id_comanda: 301, id_item: 12 },
  ),
  INVALID_TRANSITION: example(
    409,
    'INVALID_TRANSITION',
    'Not allowed in the comanda’s current state (detail.estado)',
    'Cannot cerrar a comanda that is cerrada',
    { estado: 'cerrada', action: 'cerrar' },
  ),
  COMANDA_EMPTY: example(
    409,
    'COMANDA_EMPTY',
    'A comanda without lines cannot be closed',
    'Comanda 301 has no lines: there is nothing to close',
    { id_comanda: 301 },
  ),
  IDEMPOTENCY_KEY_INVALID: example(
    400,
    'IDEMPOTENCY_KEY_INVALID',
    'Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice',
    'Idempotency-Key has a character that is not visible ASCII',
    { rule: '1 to 255 visible ASCII characters, sent once' },
  ),
  IDEMPOTENCY_KEY_IN_USE: example(
    409,
    'IDEMPOTENCY_KEY_IN_USE',
    'A request with this Idempotency-Key is still running: retry after Retry-After seconds',
    'A request with this Idempotency-Key is still running',
    { retryAfterSeconds: 1 },
  ),
  IDEMPOTENCY_KEY_REUSED: example(
    422,
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was used for another request (method, route, ids or body)',
    'This Idempotency-Key was used for another request',
    { method: 'POST', route: '/api/v1/comandas' },
  ),
  INVALID_SPLIT: example(
    400,
    'INVALID_SPLIT',
    'A line to move is not on the comanda, is listed twice, or asks for more than it has',
    'Cannot split comanda 301 this way',
    { lineas: [{ id_item: 12, reason: 'asks for 3 of a line of 2' }] },
  ),
  INVALID_MERGE: example(
    400,
    'INVALID_MERGE',
    'A comanda to merge does not exist, is listed twice, or is the target itself',
    'Cannot merge these comandas into 301',
    { comandas: [{ id_comanda: 999, reason: 'does not exist' }] },
  ),
  MERGE_NOT_ABIERTA: example(
    409,
    'INVALID_TRANSITION',
    'A comanda to merge is not abierta (detail.id_comanda, detail.estado)',
    'Cannot unir a comanda that is cerrada',
    { estado: 'cerrada', action: 'unir', id_comanda: 302 },
    {},
    'MERGE_NOT_ABIERTA',
  ),
  INVALID_LAST_EVENT_ID: example(
    400,
    'INVALID_LAST_EVENT_ID',
    'Last-Event-ID is not an event id (a non-negative integer)',
    'Last-Event-ID must be an event id',
    { lastEventId: 'abc' },
  ),
  TOO_MANY_STREAMS: example(
    503,
    'TOO_MANY_STREAMS',
    'This instance serves SSE_MAX_CLIENTS live streams already (Retry-After): another instance may not',
    'This instance serves 1000 live streams already',
  ),
  TOO_MANY_STREAMS_SHARE: example(
    429,
    'TOO_MANY_STREAMS',
    "The tenant's (SSE_MAX_PER_TENANT) or the user's (SSE_MAX_PER_USER) share of the instance's live streams is taken (Retry-After)",
    'This user has 10 live streams open already: close one (another tab or device)',
    { scope: 'user', limit: 10 },
    {},
    'TOO_MANY_STREAMS_SHARE',
  ),
  STALE_VERSION: example(
    412,
    'STALE_VERSION',
    'If-Match names another version than the current one',
    'The resource changed: its version is 4, not 3',
    { currentVersion: 4, expectedVersion: 3 },
  ),
  INVALID_IF_MATCH: example(
    400,
    'INVALID_IF_MATCH',
    'If-Match is not an ETag such as "3"',
    'If-Match must be an ETag such as "3"',
    { 'If-Match': 'tres' },
  ),
  ACTION_WITH_FIELDS: example(
    400,
    'ACTION_WITH_FIELDS',
    'An action sent together with field changes',
    'An action cannot be combined with field changes (id_mesa): send them separately',
    { fields: ['id_mesa'] },
  ),
  EMPTY_CHANGE: example(
    400,
    'EMPTY_CHANGE',
    'Nothing to change',
    'Send {"action": "abrir" | "cerrar" | "restaurar"} or at least one of id_mesa, id_usuario, id_cliente, observacion',
  ),
  PRODUCT_NOT_FOUND: example(
    400,
    'PRODUCT_NOT_FOUND',
    'A line names a product that does not exist',
    'Unknown product(s): 999',
    { id_producto: [999] },
  ),
  PRODUCT_INACTIVE: example(
    400,
    'PRODUCT_INACTIVE',
    'A line names a product that is not on sale',
    'Product(s) not on sale: 4',
    { id_producto: [4] },
  ),
  UNKNOWN_REFERENCE: example(
    400,
    '23503',
    'An id that does not exist (table, waiter, customer, referenced row): PostgreSQL’s detail, the column and the constraint',
    'foreign-key violation: fk_comandas_id_mesa (id_mesa)',
    'Key (id_mesa)=(99) is not present in table "mesas".',
    { column: 'id_mesa', constraint: 'fk_comandas_id_mesa' },
    'FOREIGN_KEY',
  ),

  // generic tables
  INVALID_IDENTIFIER: example(
    400,
    'INVALID_IDENTIFIER',
    'A table or column name that is not an identifier',
    'Invalid table name: "a-b"',
  ),
  TABLE_NOT_ALLOWED: example(
    400,
    'TABLE_NOT_ALLOWED',
    'A table outside the allow-list',
    'Table not allowed: tenants',
  ),
  TABLE_NOT_FOUND: example(
    400,
    'TABLE_NOT_FOUND',
    'An allowed table missing from this tenant’s database',
    "Table vw_compras does not exist in this tenant's database",
  ),
  UNKNOWN_COLUMN: example(
    400,
    'UNKNOWN_COLUMN',
    'The table has no such column',
    'Table productos has no column nope',
  ),
  INVALID_LIMIT: example(
    400,
    'INVALID_LIMIT',
    'limit is not a positive integer',
    'limit must be a positive integer (at most 1000 rows are returned)',
    { limit: '0' },
  ),
  NOT_INSERTABLE: example(
    400,
    'NOT_INSERTABLE',
    'The view takes no rows',
    'vw_compras is a view: rows cannot be inserted into it',
  ),
  TABLE_READ_ONLY: example(
    400,
    'TABLE_READ_ONLY',
    'A table a module owns: read it here, write it with the routes named',
    'Table comandas is read-only through the generic table routes: a comanda changes only ' +
      'through its state machine, its total is the sum of its lines, and each change is an ' +
      'audit entry naming who made it (the live stream, the kitchen, the stock and the sales ' +
      'report follow them). Use POST /api/v1/comandas, PUT /api/v1/comandas/:id, ' +
      'DELETE /api/v1/comandas/:id instead',
    {
      table: 'comandas',
      module: 'comandas',
      routes: ['POST /api/v1/comandas', 'PUT /api/v1/comandas/:id', 'DELETE /api/v1/comandas/:id'],
    },
  ),
  INVALID_VALUE: example(
    400,
    'INVALID_VALUE',
    'An object or array for a column that is not JSON',
    'Column nombre (character varying(80)) takes a single value',
    { column: 'nombre' },
  ),
  UNIQUE_VIOLATION: example(
    400,
    '23505',
    'A value already taken',
    'uniqueness violation: uq_categorias_nombre (nombre)',
    'Key (nombre)=(Bebidas) already exists.',
    { column: 'nombre', constraint: 'uq_categorias_nombre' },
    'UNIQUE',
  ),
  CHECK_VIOLATION: example(
    400,
    '23514',
    'A CHECK constraint refused a value',
    'CHECK violation: ck_productos_precio',
    'Failing row contains (31, Suspiro, null, -5.00, t, 1, ...).',
    { constraint: 'ck_productos_precio' },
    'CHECK',
  ),
  NOT_NULL_VIOLATION: example(
    400,
    '23502',
    'A required column left empty',
    'missing NOT NULL field: nombre',
    'Failing row contains (8, null, x, t).',
    { column: 'nombre' },
    'NOT_NULL',
  ),
  INVALID_TEXT: example(
    400,
    '22P02',
    'A value the column’s type cannot read, or another failure of the query: its SQLSTATE',
    'invalid value',
    'invalid input syntax for type integer: "cuarenta"',
    {},
    'SQLSTATE',
  ),

  // RPC
  RPC_FAILED: example(
    500,
    'RPC_FAILED',
    'The store function failed (the log has the cause, under the request id)',
    'save_producto failed',
  ),

  // time clocks
  FILE_REQUIRED: example(
    400,
    'FILE_REQUIRED',
    'No file field in the form',
    'Send the export as the multipart/form-data field "file", and the driver name as "driver"',
  ),
  UNKNOWN_DRIVER: example(
    400,
    'UNKNOWN_DRIVER',
    'No loaded driver has this name',
    'Unknown driver "acme": one of generic-csv, zkteco-attlog, zkteco-push',
    { drivers: ['generic-csv', 'zkteco-attlog', 'zkteco-push'] },
  ),
  DRIVER_NOT_FILE: example(
    400,
    'DRIVER_NOT_FILE',
    'The driver reads no files',
    'Driver zkteco-push has transport http: only file drivers import files',
  ),
  DRIVER_NOT_IMPORTABLE: example(
    400,
    'DRIVER_NOT_IMPORTABLE',
    'The driver’s record format is unknown or its settings are invalid',
    'Driver acme cannot import records: /format must be one of zk-attlog, csv',
    { driver: 'acme', problems: [{ path: '/format', message: 'must be one of zk-attlog, csv' }] },
  ),
  EXPORT_HEADER_MISMATCH: example(
    400,
    'EXPORT_HEADER_MISMATCH',
    'The header row of a CSV export lacks a mapped column',
    'Line 1: the header row has no column "documento"',
    { line: 1, missing: ['documento'], header: ['doc', 'fecha', 'hora'] },
  ),
} satisfies Record<string, ErrorExample>;

export type ErrorName = keyof typeof ERRORS;

/**
 * The 500 of an RPC operation: `{error: "<operation> failed", code: "RPC_FAILED"}`, or with the
 * diagnostics some operations add at the top level (PostgreSQL's message, detail, PL/pgSQL
 * context and SQLSTATE as code).
 */
export function rpcFailed(
  operation: string,
  diagnostics: 'none' | 'message-detail-code' | 'message-detail-where-code' = 'none',
): ErrorExample {
  if (diagnostics === 'none') {
    return {
      ...ERRORS.RPC_FAILED,
      body: { ...ERRORS.RPC_FAILED.body, error: `${operation} failed` },
    };
  }
  const where =
    diagnostics === 'message-detail-where-code'
      ? { where: `PL/pgSQL function ${operation}(jsonb) line 12 at SQL statement` }
      : {};
  return example(
    500,
    '23503',
    'The store function failed: PostgreSQL’s message, detail' +
      (diagnostics === 'message-detail-where-code' ? ', context' : '') +
      ' and SQLSTATE (code) are added',
    `${operation} failed`,
    'Key (id_proveedor)=(999) is not present in table "proveedores".',
    {
      message:
        'insert or update on table "compras" violates foreign key constraint "fk_compras_id_proveedor"',
      ...where,
    },
    'RPC_FAILED_WITH_DIAGNOSTICS',
  );
}

/** The lookup of the shared codes by their code (for responses declared by description alone). */
export function examplesNamedIn(text: string, status: number): ErrorExample[] {
  const words = new Set(text.match(/\b[A-Z0-9][A-Z0-9_]{3,}\b/g) ?? []);
  return Object.values(ERRORS).filter(
    (e: ErrorExample) => e.status === status && words.has(e.body.code),
  );
}

interface MediaTypeWithExamples {
  schema: { $ref: string };
  examples: Record<string, { summary: string; value: ErrorExample['body'] }>;
}

/** An error response object: the envelope schema and an example of each code, described. */
export function errorResponse(
  status: number,
  examples: readonly ErrorExample[],
): { description: string; content: { 'application/json': MediaTypeWithExamples } } {
  const byName = new Map(examples.map((e) => [e.name, e]));
  const list = [...byName.values()];
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${list
      .map((e) => `\`${e.body.code}\` ${e.summary}`)
      .join('; ')}.`,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorBody' },
        examples: Object.fromEntries(
          list.map((e) => [e.name, { summary: `${e.body.code}: ${e.summary}`, value: e.body }]),
        ),
      },
    },
  };
}

/**
 * The error responses an operation answers of its own (the statuses every route shares are
 * added to the document in one place, openapi-contract.ts): one response per status, with the
 * envelope schema and an example of each code.
 */
export function ApiErrors(...examples: ErrorExample[]): MethodDecorator & ClassDecorator {
  const statuses = [...new Set(examples.map((e) => e.status))];
  return applyDecorators(
    ...statuses.map((status) => {
      const ofStatus = examples.filter((e) => e.status === status);
      const response = errorResponse(status, ofStatus);
      return ApiResponse({
        status,
        type: ErrorBody,
        description: response.description,
        examples: response.content['application/json'].examples,
      });
    }),
  );
}
