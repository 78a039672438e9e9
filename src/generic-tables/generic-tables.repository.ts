import { Injectable } from '@nestjs/common';
import { quoteIdent, type Queryable } from '../database/sql';
import { TOTAL_OF_LINES } from '../comandas/comandas.repository';
import { TenantRepository } from '../tenancy/tenant-repository';
import type { ColumnMetadata, TableMetadata } from './table-metadata.service';

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
    return this.transaction(async (tx) => {
      const rows = await tx.query<Row[]>(
        sql,
        values.map((v) => v.value),
      );
      await this.auditComandaRow(tx, meta.table, rows[0]);
      return rows[0];
    });
  }

  /**
   * A comanda or a line inserted here is audited like the comanda routes audit theirs, in the
   * same transaction: a comanda gets its `crear` entry; a line an `agregar_item` entry on its
   * comanda, whose total and version follow. So the audit trail, the versions and the live
   * stream (which follows the trail) see every change, whatever route made it.
   */
  private async auditComandaRow(tx: Queryable, table: string, row: Row): Promise<void> {
    if (table === 'comandas') {
      await tx.query(
        `INSERT INTO comanda_eventos (id_comanda, accion, despues)
         SELECT id_comanda, 'crear',
                jsonb_build_object('estado', estado, 'eliminada', eliminada, 'total', total,
                                   'version', version, 'id_mesa', id_mesa, 'ruta', 'table')
           FROM comandas WHERE id_comanda = $1`,
        [row.id_comanda],
      );
    } else if (table === 'deta_comandas') {
      await tx.query(
        `WITH changed AS (
           UPDATE comandas
              SET total = ${TOTAL_OF_LINES}, version = version + 1
            WHERE id_comanda = $1
           RETURNING id_comanda)
         INSERT INTO comanda_eventos (id_comanda, accion, despues)
         SELECT changed.id_comanda, 'agregar_item',
                jsonb_build_object('id_item', d.id_deta_comanda, 'id_producto', d.id_producto,
                                   'cantidad', d.cantidad, 'precio_unitario', d.precio_unitario,
                                   'subtotal', d.subtotal, 'nota', d.nota, 'ruta', 'table')
           FROM changed JOIN deta_comandas d ON d.id_deta_comanda = $2`,
        [row.id_comanda, row.id_deta_comanda],
      );
    }
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
