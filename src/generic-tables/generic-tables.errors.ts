import { defineError } from '../common/errors/error-catalogue';

/** The error codes of the generic table routes (docs/generic-tables.md). */

export const invalidTableName = defineError({
  status: 400,
  code: 'INVALID_IDENTIFIER',
  summary: 'A table or column name that is not an identifier',
  en: (name: string) => `Invalid table name: ${JSON.stringify(name)}`,
  es: (name) => `Nombre de tabla no válido: ${JSON.stringify(name)}`,
  example: ['a-b'],
});

export const invalidColumnName = defineError({
  status: 400,
  code: 'INVALID_IDENTIFIER',
  name: 'INVALID_COLUMN_NAME',
  summary: 'A column name that is not an identifier',
  en: (name: string) => `Invalid column name: ${JSON.stringify(name)}`,
  es: (name) => `Nombre de columna no válido: ${JSON.stringify(name)}`,
  example: ['x-y'],
});

export const tableNotAllowed = defineError({
  status: 400,
  code: 'TABLE_NOT_ALLOWED',
  summary: 'A table outside the allow-list',
  en: (table: string) => `Table not allowed: ${table}`,
  es: (table) => `Tabla no permitida: ${table}`,
  example: ['tenants'],
});

export const tableNotFound = defineError({
  status: 400,
  code: 'TABLE_NOT_FOUND',
  summary: 'An allowed table missing from this tenant’s database',
  en: (table: string) => `Table ${table} does not exist in this tenant's database`,
  es: (table) => `La tabla ${table} no existe en la base de datos de este restaurante`,
  example: ['vw_compras'],
});

export const unknownColumn = defineError({
  status: 400,
  code: 'UNKNOWN_COLUMN',
  summary: 'The table has no such column',
  en: (table: string, column: string) => `Table ${table} has no column ${column}`,
  es: (table, column) => `La tabla ${table} no tiene la columna ${column}`,
  example: ['productos', 'nope'],
});

export const invalidLimit = defineError({
  status: 400,
  code: 'INVALID_LIMIT',
  summary: 'limit is not a positive integer',
  en: (_raw: string, max: number) =>
    `limit must be a positive integer (at most ${max} rows are returned)`,
  es: (_raw, max) =>
    `limit debe ser un número entero positivo (se devuelven como máximo ${max} filas)`,
  detail: (raw) => ({ limit: raw }),
  example: ['0', 1000],
});

/** Why a view takes no rows (POST answers it as NOT_INSERTABLE; GET /schema says it). */
export const viewReason = (view: string) => `${view} is a view: rows cannot be inserted into it`;

export const notInsertable = defineError({
  status: 400,
  code: 'NOT_INSERTABLE',
  summary: 'The view takes no rows',
  en: (view: string) => viewReason(view),
  es: (view) => `${view} es una vista: no admite filas nuevas`,
  example: ['vw_compras'],
});

export const rowNotAnObject = defineError({
  status: 400,
  code: 'INVALID_BODY',
  name: 'ROW_NOT_AN_OBJECT',
  summary: 'The body of a row is not a JSON object of column values',
  en: () => 'The body must be a JSON object of column values',
  es: () => 'El cuerpo debe ser un objeto JSON con los valores de las columnas',
  example: [],
});

export const invalidColumnValue = defineError({
  status: 400,
  code: 'INVALID_VALUE',
  summary: 'An object or array for a column that is not JSON',
  en: (column: string, type: string) => `Column ${column} (${type}) takes a single value`,
  es: (column, type) => `La columna ${column} (${type}) admite un solo valor`,
  detail: (column) => ({ column }),
  example: ['nombre', 'character varying(80)'],
});

/**
 * A table a module keeps rules on (allowed-tables.ts, MODULE_OWNED): read here, written through
 * the module's routes. `reason`: why, in English (the Spanish names the module instead).
 */
export const tableReadOnly = defineError({
  status: 400,
  code: 'TABLE_READ_ONLY',
  summary: 'A table a module owns: read it here, write it with the routes named',
  en: (table: string, _module: string, reason: string, routes: readonly string[]) =>
    `Table ${table} is read-only through the generic table routes: ${reason}. ` +
    `Use ${routes.join(', ')} instead`,
  es: (table, module, _reason, routes) =>
    `La tabla ${table} es de solo lectura en las rutas genéricas: sus reglas las lleva el módulo ${module}. ` +
    `Use ${routes.join(', ')}`,
  detail: (table, module, _reason, routes) => ({ table, module, routes }),
  example: [
    'comandas',
    'comandas',
    'a comanda changes only through its state machine, its total is the sum of its lines, and ' +
      'each change is an audit entry naming who made it (the live stream, the kitchen, the stock ' +
      'and the sales report follow them)',
    ['POST /api/v1/comandas', 'PUT /api/v1/comandas/:id', 'DELETE /api/v1/comandas/:id'],
  ],
});
