/** Which diagnostics a failed operation adds to its 500 body (docs/rpc.md). */
export type Diagnostics = 'message-detail-where-code' | 'message-detail-code' | 'none';

interface StoreFunctionSpec {
  /** PostgreSQL types of its parameters, in order (bound as `$n::type`). */
  params: readonly string[];
  /** What its 500 body adds besides `{error: "<operation> failed"}`. */
  diagnostics: Diagnostics;
  /**
   * It changes rows: its route passes the caller (the token's subject), which the hooks of
   * other modules record as who did it (a purchase's stock movements).
   */
  writes?: true;
}

/**
 * The store functions of the tenant migrations behind the RPC routes, one line each: what the
 * repository binds, what a failure's body carries, what the OpenAPI document shows.
 */
export const STORE_FUNCTIONS = {
  get_producto: { params: ['integer'], diagnostics: 'none' },
  save_producto: { params: ['jsonb'], diagnostics: 'none', writes: true },
  get_materia: { params: ['integer'], diagnostics: 'none' },
  save_materia: { params: ['jsonb'], diagnostics: 'none', writes: true },
  find_usuarios_por_documentos: { params: ['text[]'], diagnostics: 'none' },
  import_asistencia: { params: ['jsonb', 'text'], diagnostics: 'none', writes: true },
  asistencia_get: { params: ['text', 'date', 'date'], diagnostics: 'none' },
  asistencia_update_raw: {
    params: ['bigint', 'date', 'text', 'text'],
    diagnostics: 'none',
    writes: true,
  },
  asistencia_delete_raw: { params: ['bigint'], diagnostics: 'none', writes: true },
  report_tickets: { params: ['integer', 'text'], diagnostics: 'message-detail-where-code' },
  report_asistencia: { params: ['date', 'date'], diagnostics: 'message-detail-where-code' },
  save_compra: { params: ['jsonb'], diagnostics: 'message-detail-where-code', writes: true },
  get_compra: { params: ['integer'], diagnostics: 'none' },
  delete_compra: { params: ['integer'], diagnostics: 'none', writes: true },
  report_gastos: { params: ['integer', 'text'], diagnostics: 'message-detail-code' },
} as const satisfies Record<string, StoreFunctionSpec>;

export type StoreFunction = keyof typeof STORE_FUNCTIONS;

/** The store functions that change rows (`writes`): called with the caller, the only ones hooked. */
export type WritingStoreFunction = {
  [F in StoreFunction]: (typeof STORE_FUNCTIONS)[F] extends { writes: true } ? F : never;
}[StoreFunction];

/** The store functions that only read. */
export type ReadingStoreFunction = Exclude<StoreFunction, WritingStoreFunction>;
