import { DomainError } from '../common/errors/domain-error';

/** Which diagnostics a failed operation adds to its 500 body (seed §4.2.2 rule 3). */
export type Diagnostics = 'message-detail-where-code' | 'message-detail-code' | 'none';

interface PgDiagnostics {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  where?: unknown;
  driverError?: PgDiagnostics;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * A store function failed: HTTP 500 `{error: "<operation> failed"}`, plus `message`, `detail`,
 * `where` and `code` for the operations the seed names (report_tickets, report_asistencia,
 * save_compra) and `message`, `detail`, `code` for report_gastos.
 */
export class RpcFailedError extends DomainError {
  constructor(
    readonly operation: string,
    readonly original: unknown,
    diagnostics: Diagnostics,
  ) {
    const pg: PgDiagnostics = (original as PgDiagnostics | null)?.driverError ?? original ?? {};
    const sqlstate = text(pg.code);
    let extra: Record<string, unknown> | undefined;
    if (diagnostics === 'message-detail-where-code') {
      extra = {
        message: text(pg.message),
        detail: text(pg.detail),
        where: text(pg.where),
        code: sqlstate,
      };
    } else if (diagnostics === 'message-detail-code') {
      extra = { message: text(pg.message), detail: text(pg.detail), code: sqlstate };
    }
    super(
      500,
      diagnostics === 'none' ? 'RPC_FAILED' : (sqlstate ?? 'RPC_FAILED'),
      `${operation} failed`,
      undefined,
      extra,
    );
  }
}
