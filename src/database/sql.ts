/**
 * The SQL kit of the repositories (docs/adding-a-module.md): what runs a query, what an UPDATE
 * ... RETURNING gives back, how an identifier is quoted. Values are always bound parameters
 * (`$1`); only identifiers that come from the code or a checked allow-list are quoted into SQL.
 */

/** Anything that runs SQL: a tenant DataSource, or the EntityManager of a transaction. */
export interface Queryable {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}

/**
 * The rows of a statement's answer. TypeORM answers UPDATE / DELETE ... RETURNING with
 * `[rows, rowCount]` and other statements with the rows: this gives the rows either way.
 */
export function returnedRows<T>(result: T[] | [T[], number]): T[] {
  return result.length === 2 && Array.isArray(result[0]) ? result[0] : (result as T[]);
}

/** The first row a statement returns, or undefined (for `... WHERE id = $1` and RETURNING). */
export async function firstRow<T>(
  db: Queryable,
  sql: string,
  parameters: unknown[] = [],
): Promise<T | undefined> {
  return returnedRows(await db.query<T[] | [T[], number]>(sql, parameters))[0];
}

/** Quotes a PostgreSQL identifier (a table, column or database name, `comandas_la-mar`). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
