import { Injectable } from '@nestjs/common';
import { quoteIdent } from '../database/sql';
import { TenantRepository } from '../tenancy/tenant-repository';
import type { ColumnMetadata, TableMetadata } from './table-metadata.service';

/** A row as the generic routes read it back (column name → value as node-pg reads it). */
export type Row = Record<string, unknown>;

/** Wall-clock and other types read as text (node-pg would turn them into local-time Dates). */
const AS_TEXT = new Set(['date', 'timestamp', 'time', 'timetz', 'interval']);

/**
 * The SQL of the generic routes. Identifiers come only from the catalog metadata of allowed
 * tables and are quoted by quoteIdent; every value is a bound parameter, cast to the column's
 * catalog type.
 */
@Injectable()
export class GenericTablesRepository extends TenantRepository {
  /** The row query of each table's metadata, built once (the metadata is cached per tenant). */
  private readonly rowQueries = new WeakMap<TableMetadata, string>();

  private selectList(columns: ColumnMetadata[]): string {
    return columns
      .map((c) =>
        AS_TEXT.has(c.udt)
          ? `${quoteIdent(c.name)}::text AS ${quoteIdent(c.name)}`
          : quoteIdent(c.name),
      )
      .join(', ');
  }

  rows(meta: TableMetadata, limit: number): Promise<Row[]> {
    let sql = this.rowQueries.get(meta);
    if (sql === undefined) {
      const order = meta.primaryKey.length
        ? ` ORDER BY ${meta.primaryKey.map((name) => `${quoteIdent(name)} DESC`).join(', ')}`
        : '';
      sql = `SELECT ${this.selectList(meta.columns)} FROM ${quoteIdent(meta.table)}${order} LIMIT $1`;
      this.rowQueries.set(meta, sql);
    }
    return this.db.query<Row[]>(sql, [limit]);
  }

  async insert(
    meta: TableMetadata,
    values: { column: ColumnMetadata; value: unknown }[],
  ): Promise<Row> {
    const target = quoteIdent(meta.table);
    const returning = this.selectList(meta.columns);
    const sql = values.length
      ? `INSERT INTO ${target} (${values.map((v) => quoteIdent(v.column.name)).join(', ')})
         VALUES (${values.map((v, i) => `$${i + 1}::${v.column.type}`).join(', ')})
         RETURNING ${returning}`
      : `INSERT INTO ${target} DEFAULT VALUES RETURNING ${returning}`;
    // one statement: the tables it writes carry no rule beyond their constraints (no module
    // owns them: allowed-tables.ts, MODULE_OWNED)
    const rows = await this.db.query<Row[]>(
      sql,
      values.map((v) => v.value),
    );
    return rows[0];
  }

  options(
    table: string,
    idColumn: string,
    labelColumn: string,
    max: number,
  ): Promise<{ id: unknown; label: string | null }[]> {
    return this.db.query(
      `SELECT ${quoteIdent(idColumn)} AS id, ${quoteIdent(labelColumn)}::text AS label
         FROM ${quoteIdent(table)}
        ORDER BY 2, 1
        LIMIT $1`,
      [max],
    );
  }
}
