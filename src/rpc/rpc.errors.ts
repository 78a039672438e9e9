import { validationError } from '../common/errors/common.errors';
import { DomainError } from '../common/errors/domain-error';
import { defineError, type ErrorExample } from '../common/errors/error-catalogue';
import { pgErrorInfo } from '../common/errors/pg-error.translator';

import type { Diagnostics } from './store-functions';

/** The error codes of the RPC routes (docs/rpc.md). */

export const rpcFailed = defineError({
  status: 500,
  code: 'RPC_FAILED',
  summary: 'The store function failed (the log has the cause, under the request id)',
  en: (operation: string) => `${operation} failed`,
  es: (operation) => `${operation} falló`,
  example: ['save_producto'],
});

/** What PostgreSQL said of a failure, added to the body of the operations that show it. */
interface Diagnosed {
  message: string | null;
  detail: string | null;
  where?: string | null;
  code: string;
}

const SAMPLE = {
  message:
    'insert or update on table "compras" violates foreign key constraint "fk_compras_id_proveedor"',
  detail: 'Key (id_proveedor)=(999) is not present in table "proveedores".',
  code: '23503',
};

export const rpcFailedWithDiagnostics = defineError({
  status: 500,
  code: '23503',
  name: 'RPC_FAILED_WITH_DIAGNOSTICS',
  summary: 'The store function failed: PostgreSQL’s message, detail and SQLSTATE (code) are added',
  en: (operation: string, _diagnosed: Diagnosed) => `${operation} failed`,
  es: (operation) => `${operation} falló`,
  extra: (_operation, diagnosed) => ({ ...diagnosed }),
  example: ['report_gastos', SAMPLE],
});

export const rpcFailedWithContext = defineError({
  status: 500,
  code: '23503',
  name: 'RPC_FAILED_WITH_DIAGNOSTICS',
  summary:
    'The store function failed: PostgreSQL’s message, detail, context and SQLSTATE (code) are added',
  en: (operation: string, _diagnosed: Diagnosed) => `${operation} failed`,
  es: (operation) => `${operation} falló`,
  extra: (_operation, diagnosed) => ({ ...diagnosed }),
  example: [
    'save_compra',
    { ...SAMPLE, where: 'PL/pgSQL function save_compra(jsonb) line 12 at SQL statement' },
  ],
});

/** The 500 an operation's route shows in the document, with the diagnostics it adds. */
export function rpcFailedExample(operation: string, diagnostics: Diagnostics): ErrorExample {
  if (diagnostics === 'none') return rpcFailed.exampleOf(operation);
  if (diagnostics === 'message-detail-code')
    return rpcFailedWithDiagnostics.exampleOf(operation, SAMPLE);
  return rpcFailedWithContext.exampleOf(operation, {
    ...SAMPLE,
    where: `PL/pgSQL function ${operation}(jsonb) line 12 at SQL statement`,
  });
}

/**
 * A store function failed: HTTP 500 `{error: "<operation> failed"}`, plus `message`, `detail`,
 * `where` and `code` for report_tickets, report_asistencia and save_compra, and `message`,
 * `detail`, `code` for report_gastos (docs/api-contract.md, RPC routes).
 */
export class RpcFailedError extends DomainError {
  constructor(
    readonly operation: string,
    readonly original: unknown,
    diagnostics: Diagnostics,
  ) {
    const pg = pgErrorInfo(original) ?? {};
    // the envelope's code is always a string: a failure without a SQLSTATE is RPC_FAILED
    const sqlstate = pg.code ?? 'RPC_FAILED';
    const diagnosed: Diagnosed = {
      message: pg.message ?? null,
      detail: pg.detail ?? null,
      code: sqlstate,
    };
    const options =
      diagnostics === 'message-detail-where-code'
        ? rpcFailedWithContext.options(operation, {
            message: diagnosed.message,
            detail: diagnosed.detail,
            where: pg.where ?? null,
            code: sqlstate,
          })
        : diagnostics === 'message-detail-code'
          ? rpcFailedWithDiagnostics.options(operation, diagnosed)
          : rpcFailed.options(operation);
    super({ ...options, code: diagnostics === 'none' ? 'RPC_FAILED' : sqlstate, cause: original });
  }
}

/**
 * A required input of an operation that checks its inputs (asistencia_get) is missing or
 * malformed: 400 VALIDATION_FAILED with one message per field, like the validated routes.
 */
export const rpcInputInvalid = (problems: string[]) => validationError(problems);
