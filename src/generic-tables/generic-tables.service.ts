import { Injectable } from '@nestjs/common';
import { checkViolationOf, translatePgError } from '../common/errors/pg-error.translator';
import { formatInstant } from '../common/time';
import { TenantContext } from '../tenancy/tenant-context';
import {
  ALLOWED_TABLES,
  checkColumnName,
  checkTableName,
  checkWritable,
  writeAccessOf,
  type AllowedTable,
} from './allowed-tables';
import {
  invalidColumnValue,
  invalidLimit,
  notInsertable,
  rowNotAnObject,
  tableNotFound,
  unknownColumn,
} from './generic-tables.errors';
import { GenericTablesRepository, type Row } from './generic-tables.repository';
import {
  TableMetadataService,
  type ColumnMetadata,
  type TableMetadata,
} from './table-metadata.service';

export const ROWS_DEFAULT = 100;
export const ROWS_MAX = 1000;
export const OPTIONS_MAX = 1000;

/** Label column of an options list: the first of these the referenced table has. */
export const LABEL_PREFERENCE = ['nombre', 'razon_social', 'documento'];
const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'citext', 'name']);
const JSON_TYPES = new Set(['json', 'jsonb']);

/** Turns a column's value as node-pg reads it into its JSON value (null handled before). */
type Converter = (value: unknown, timeZone: string) => unknown;

/** numeric as a JSON number when exact; bigint when a safe integer. */
const fromNumeric: Converter = (value) => {
  if (typeof value !== 'string') return value;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
};
const fromBigint: Converter = (value) => {
  if (typeof value !== 'string') return value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
};
/** Instants in the tenant's zone (timestamptz; other wall-clock types are read as text). */
const fromAny: Converter = (value, timeZone) =>
  value instanceof Date ? formatInstant(value, timeZone) : value;

function converterOf(column: ColumnMetadata): Converter {
  if (column.udt === 'numeric') return fromNumeric;
  if (column.udt === 'int8') return fromBigint;
  return fromAny;
}

/** Parses `?limit=`: absent → 100, above 1000 → 1000, not a positive integer → 400. */
export function parseRowsLimit(raw: string | undefined): number {
  if (raw === undefined) return ROWS_DEFAULT;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw invalidLimit(raw, ROWS_MAX);
  }
  return Math.min(Number(raw), ROWS_MAX);
}

/** Columns a row is inserted with (docs/generic-tables.md, POST /table/:table rule 1). */
export function isInsertable(column: ColumnMetadata): boolean {
  const sequenceDefault = column.default?.startsWith('nextval(') ?? false;
  return !column.primaryKey && column.identity === null && !sequenceDefault && !column.generated;
}

/** Label column for options: nombre, razon_social, documento, else the first text column, else the key. */
export function labelColumnOf(meta: TableMetadata, keyColumn: string): string {
  const names = meta.columns.map((c) => c.name);
  return (
    LABEL_PREFERENCE.find((name) => names.includes(name)) ??
    meta.columns.find((c) => TEXT_TYPES.has(c.udt))?.name ??
    keyColumn
  );
}

/**
 * The generic table routes (docs/generic-tables.md): schema-driven routes over the allowed tables.
 * Every failure is a 400 in the error envelope `{error, code, detail}`, except an unreachable
 * database (503).
 */
@Injectable()
export class GenericTablesService {
  /** Each table's column converters, built once from its (cached) metadata. */
  private readonly converters = new WeakMap<TableMetadata, [string, Converter][]>();
  /** Each table's schema answer as JSON text, written once from its (cached) metadata. */
  private readonly schemas = new WeakMap<TableMetadata, string>();

  constructor(
    private readonly metadata: TableMetadataService,
    private readonly repository: GenericTablesRepository,
    private readonly context: TenantContext,
  ) {}

  tables(): string[] {
    return [...ALLOWED_TABLES];
  }

  /**
   * `{table, kind, read_only, read_only_reason, owner, columns}` as JSON text, written once per
   * table and metadata version.
   */
  async schemaJson(name: string): Promise<string> {
    const meta = await this.table(name);
    let json = this.schemas.get(meta);
    if (json === undefined) {
      json = JSON.stringify({
        table: meta.table,
        kind: meta.kind,
        ...writeAccessOf(meta.table, meta.kind),
        columns: meta.columns,
      });
      this.schemas.set(meta, json);
    }
    return json;
  }

  async options(
    tableName: string,
    columnName: string,
  ): Promise<{ id: unknown; label: string | null }[]> {
    const meta = await this.table(tableName);
    const column = this.column(meta, columnName);
    if (!column.foreign) return [];
    const target = await this.metadata.get(column.foreign.table as AllowedTable);
    if (!target || !(ALLOWED_TABLES as readonly string[]).includes(column.foreign.table)) return [];
    const label = labelColumnOf(target, column.foreign.column);
    const rows = await this.run(() =>
      this.repository.options(target.table, column.foreign!.column, label, OPTIONS_MAX),
    );
    const keyColumn = target.columns.find((c) => c.name === column.foreign!.column);
    return rows.map((row) => ({
      id: keyColumn ? this.value(keyColumn, row.id) : row.id,
      label: row.label,
    }));
  }

  /** The newest `limit` rows, as JSON values (per-table converters, see formatRows). */
  async rows(name: string, rawLimit: string | undefined): Promise<Row[]> {
    const limit = parseRowsLimit(rawLimit);
    const meta = await this.table(name);
    const rows = await this.run(() => this.repository.rows(meta, limit));
    return this.formatRows(meta, rows);
  }

  async insert(name: string, body: unknown): Promise<{ inserted: Row }> {
    // a table a module owns is refused from its name alone, before any SQL (even the catalog's)
    checkWritable(checkTableName(name));
    const meta = await this.table(name);
    if (meta.kind === 'view') throw notInsertable(meta.table);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw rowNotAnObject();
    const given = body as Record<string, unknown>;
    // Keys that are not insertable columns are ignored (rule 2); none left: a row of defaults (rule 3).
    const values = meta.columns
      .filter(
        (column) =>
          isInsertable(column) && Object.prototype.hasOwnProperty.call(given, column.name),
      )
      .map((column) => ({ column, value: this.parameter(column, given[column.name]) }));
    const row = await this.run(() => this.repository.insert(meta, values));
    return { inserted: this.format(meta, row) };
  }

  private async table(name: string): Promise<TableMetadata> {
    const table = checkTableName(name);
    const meta = await this.run(() => this.metadata.get(table));
    if (!meta) throw tableNotFound(table);
    return meta;
  }

  private column(meta: TableMetadata, name: string): ColumnMetadata {
    const columnName = checkColumnName(name);
    const column = meta.columns.find((c) => c.name === columnName);
    if (!column) throw unknownColumn(meta.table, columnName);
    return column;
  }

  /** A JSON value as a bound parameter of the column's type. */
  private parameter(column: ColumnMetadata, value: unknown): unknown {
    if (value === null || value === undefined) return null;
    if (JSON_TYPES.has(column.udt)) return JSON.stringify(value);
    if (typeof value === 'object') {
      throw invalidColumnValue(column.name, column.type);
    }
    return value;
  }

  private format(meta: TableMetadata, row: Row): Row {
    return this.formatRows(meta, [row])[0];
  }

  /**
   * The rows as JSON values, columns in table order: one converter per column, built once per
   * table and metadata version (no per-value type look-up).
   */
  private formatRows(meta: TableMetadata, rows: Row[]): Row[] {
    let columns = this.converters.get(meta);
    if (!columns) {
      columns = meta.columns.map((column) => [column.name, converterOf(column)]);
      this.converters.set(meta, columns);
    }
    const timeZone = this.context.tenant.timeZone;
    const out: Row[] = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i += 1) {
      const row = rows[i];
      const formatted: Row = {};
      for (const [name, convert] of columns) {
        const value = row[name];
        formatted[name] = value === null || value === undefined ? null : convert(value, timeZone);
      }
      out[i] = formatted;
    }
    return out;
  }

  /** One value of a column, as `formatAll` turns it. */
  private value(column: ColumnMetadata, value: unknown): unknown {
    if (value === null || value === undefined) return null;
    return converterOf(column)(value, this.context.tenant.timeZone);
  }

  /**
   * Database failures of these routes are 400 with their SQLSTATE (the translator's
   * `sqlFailuresAre400`); an unreachable database is 503. Anything else is thrown as it came,
   * so the exception filter answers 503 or 500 and logs the real cause. A CHECK violation is
   * given the columns its constraint reads (cached catalog metadata), which PostgreSQL omits.
   */
  private async run<T>(query: () => Promise<T>): Promise<T> {
    try {
      return await query();
    } catch (error) {
      const check = checkViolationOf(error);
      const checkColumns = check
        ? await this.metadata
            .checkColumns(check.table, check.constraint)
            .catch((): undefined => undefined)
        : undefined;
      const translated = translatePgError(error, { sqlFailuresAre400: true, checkColumns });
      throw translated?.status === 400 ? translated : error;
    }
  }
}
