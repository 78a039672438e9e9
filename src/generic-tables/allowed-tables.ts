import {
  invalidColumnName,
  invalidTableName,
  tableNotAllowed,
  tableReadOnly,
  viewReason,
} from './generic-tables.errors';

/** The only tables and view the generic routes may touch (docs/api-contract.md). */
export const ALLOWED_TABLES = [
  'roles',
  'usuarios',
  'usua_roles',
  'categorias',
  'productos',
  'clientes',
  'mesas',
  'comandas',
  'deta_comandas',
  'proveedores',
  'compras',
  'deta_comp_producto',
  'mate_primas',
  'deta_comp_materias',
  'prov_producto',
  'prov_mate_prima',
  'receta_producto',
  'asistencia_resumen_diario',
  'asistencia_intervalo',
  'asistencia_detalle',
  'vw_compras',
] as const;

export type AllowedTable = (typeof ALLOWED_TABLES)[number];

/**
 * A table a module keeps invariants on (a state machine, a total that is the sum of its lines,
 * an audit trail, the stock ledger, rows derived from others): the generic routes read it but
 * never write it, since a plain INSERT keeps none of those rules. Its module's routes write it.
 */
export interface ModuleOwned {
  /** The module that keeps the table's rules (its folder under src/). */
  module: string;
  /** What a row inserted here, outside the module, would break. */
  reason: string;
  /** The routes that write the table with its rules kept. */
  routes: readonly string[];
}

const COMPRA_ROUTES = ['POST /api/v1/rpc/save_compra', 'POST /api/v1/rpc/delete_compra'] as const;
const ASISTENCIA_ROUTES = [
  'POST /api/v1/asistencia/import',
  'POST /api/v1/rpc/import_asistencia',
  'POST /api/v1/rpc/asistencia_update_raw',
  'POST /api/v1/rpc/asistencia_delete_raw',
] as const;

/**
 * Who owns each allowed table (docs/generic-tables.md, "Read-only tables"): a module, whose
 * routes are the only way to write it, or null for reference data that a plain INSERT cannot
 * leave inconsistent (its constraints are its whole rule). A record over every allowed name,
 * so a table added to the allow-list needs its decision here to compile.
 */
export const MODULE_OWNED: { readonly [T in AllowedTable]: ModuleOwned | null } = {
  roles: null,
  usuarios: null,
  usua_roles: null,
  categorias: null,
  productos: null,
  clientes: null,
  mesas: null,
  comandas: {
    module: 'comandas',
    reason:
      'a comanda changes only through its state machine, its total is the sum of its lines, ' +
      'and each change is an audit entry naming who made it (the live stream, the kitchen, ' +
      'the stock and the sales report follow them)',
    routes: ['POST /api/v1/comandas', 'PUT /api/v1/comandas/:id', 'DELETE /api/v1/comandas/:id'],
  },
  deta_comandas: {
    module: 'comandas',
    reason:
      "a line changes its comanda's total and version with an audit entry, is refused on a " +
      'closed comanda, goes to the kitchen (cocina) and is consumed from the stock when its ' +
      'comanda closes (inventario)',
    routes: [
      'POST /api/v1/comandas/:id/items',
      'PATCH /api/v1/comandas/:id/items/:itemId',
      'DELETE /api/v1/comandas/:id/items/:itemId',
    ],
  },
  proveedores: null,
  compras: {
    module: 'rpc',
    reason:
      "save_compra keeps a purchase's total the sum of its lines, and with inventario the " +
      'stock ledger follows its raw-material lines',
    routes: COMPRA_ROUTES,
  },
  deta_comp_producto: {
    module: 'rpc',
    reason:
      'a purchase line is written with its purchase by save_compra, which keeps the ' +
      "purchase's total the sum of its lines",
    routes: COMPRA_ROUTES,
  },
  mate_primas: null,
  deta_comp_materias: {
    module: 'rpc',
    reason:
      'a purchase line is written with its purchase by save_compra, which keeps the ' +
      "purchase's total the sum of its lines; with inventario each raw-material line is a " +
      'movement of the stock ledger',
    routes: COMPRA_ROUTES,
  },
  prov_producto: null,
  prov_mate_prima: null,
  receta_producto: null,
  asistencia_resumen_diario: {
    module: 'rpc',
    reason:
      'derived: the daily summaries are rebuilt from the raw punches whenever they are ' +
      'imported, corrected or deleted',
    routes: ASISTENCIA_ROUTES,
  },
  asistencia_intervalo: {
    module: 'rpc',
    reason:
      'derived: the in/out pairs are rebuilt from the raw punches whenever they are ' +
      'imported, corrected or deleted',
    routes: ASISTENCIA_ROUTES,
  },
  asistencia_detalle: {
    module: 'rpc',
    reason:
      'a raw punch is imported with the duplicate rule and pairs its day again into intervals ' +
      'and daily summaries; one inserted alone stays out of them',
    routes: ASISTENCIA_ROUTES,
  },
  // a view: POST answers NOT_INSERTABLE from its kind (the catalog's), not from an owner
  vw_compras: null,
};

/** The identifier rule of table and column names (case-insensitive). */
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/i;
/** PostgreSQL truncates identifiers past 63 bytes: longer names can never be real ones. */
const MAX_IDENTIFIER_LENGTH = 63;

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && name.length <= MAX_IDENTIFIER_LENGTH;
}

/**
 * Checks a table name against the identifier rule and the allow-list, before any SQL.
 * Unquoted identifiers fold to lower case in PostgreSQL, so `Comandas` is `comandas`.
 */
export function checkTableName(name: string): AllowedTable {
  if (!isIdentifier(name)) {
    throw invalidTableName(name);
  }
  const table = name.toLowerCase();
  if (!(ALLOWED_TABLES as readonly string[]).includes(table)) {
    throw tableNotAllowed(table);
  }
  return table as AllowedTable;
}

/** Checks a column name against the identifier rule (its existence is checked on the table). */
export function checkColumnName(name: string): string {
  if (!isIdentifier(name)) {
    throw invalidColumnName(name);
  }
  return name.toLowerCase();
}

/** What `GET /schema/:table` says of writing a table (docs/generic-tables.md). */
export interface WriteAccess {
  /** POST /table/:table refuses every row: a view, or a table a module owns. */
  read_only: boolean;
  /** Why, in a sentence; null when writable. */
  read_only_reason: string | null;
  /** The module that owns the table and the routes that write it; null when none does. */
  owner: { module: string; routes: readonly string[] } | null;
}

export function writeAccessOf(table: AllowedTable, kind: 'table' | 'view'): WriteAccess {
  const owner = MODULE_OWNED[table];
  if (owner)
    return {
      read_only: true,
      read_only_reason: owner.reason,
      owner: { module: owner.module, routes: owner.routes },
    };
  if (kind === 'view') return { read_only: true, read_only_reason: viewReason(table), owner: null };
  return { read_only: false, read_only_reason: null, owner: null };
}

/**
 * Refuses, before any SQL, an insert into a table a module owns: 400 TABLE_READ_ONLY naming the
 * module's routes.
 */
export function checkWritable(table: AllowedTable): void {
  const owner = MODULE_OWNED[table];
  if (!owner) return;
  throw tableReadOnly(table, owner.module, owner.reason, owner.routes);
}
