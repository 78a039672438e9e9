import { BadRequestError, DomainError } from '../common/errors/domain-error';
import { pgErrorInfo } from '../common/errors/pg-error.translator';

import type { Diagnostics } from './store-functions';

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
    let extra: Record<string, unknown> | undefined;
    if (diagnostics === 'message-detail-where-code') {
      extra = {
        message: pg.message ?? null,
        detail: pg.detail ?? null,
        where: pg.where ?? null,
        code: sqlstate,
      };
    } else if (diagnostics === 'message-detail-code') {
      extra = { message: pg.message ?? null, detail: pg.detail ?? null, code: sqlstate };
    }
    super({
      status: 500,
      code: diagnostics === 'none' ? 'RPC_FAILED' : sqlstate,
      message: `${operation} failed`,
      extra,
      cause: original,
    });
  }
}

/**
 * A required input of an operation that checks its inputs (asistencia_get) is missing or
 * malformed: 400 VALIDATION_FAILED with one message per field, like the validated routes.
 */
export const rpcInputInvalid = (problems: string[]) =>
  new BadRequestError('Validation failed', 'VALIDATION_FAILED', problems);
