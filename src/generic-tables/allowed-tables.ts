import { BadRequestError } from '../common/errors/domain-error';

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
    throw new BadRequestError(`Invalid table name: ${JSON.stringify(name)}`, 'INVALID_IDENTIFIER');
  }
  const table = name.toLowerCase();
  if (!(ALLOWED_TABLES as readonly string[]).includes(table)) {
    throw new BadRequestError(`Table not allowed: ${table}`, 'TABLE_NOT_ALLOWED');
  }
  return table as AllowedTable;
}

/** Checks a column name against the identifier rule (its existence is checked on the table). */
export function checkColumnName(name: string): string {
  if (!isIdentifier(name)) {
    throw new BadRequestError(`Invalid column name: ${JSON.stringify(name)}`, 'INVALID_IDENTIFIER');
  }
  return name.toLowerCase();
}
