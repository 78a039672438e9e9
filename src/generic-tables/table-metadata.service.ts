import { Injectable } from '@nestjs/common';
import { TenantContext } from '../tenancy/tenant-context';
import { ALLOWED_TABLES, type AllowedTable } from './allowed-tables';

export interface ForeignKey {
  constraint: string;
  table: string;
  column: string;
}

export interface ColumnMetadata {
  name: string;
  position: number;
  /** format_type(): `integer`, `numeric(12,2)`, `timestamp with time zone`, ... */
  type: string;
  /** The base type name: int4, numeric, text, timestamptz, jsonb, ... */
  udt: string;
  nullable: boolean;
  default: string | null;
  /** `ALWAYS` or `BY DEFAULT` for identity columns, else null. */
  identity: 'ALWAYS' | 'BY DEFAULT' | null;
  /** Generated (computed) column: never written. */
  generated: boolean;
  maxLength: number | null;
  primaryKey: boolean;
  foreign: ForeignKey | null;
}

export interface TableMetadata {
  table: AllowedTable;
  kind: 'table' | 'view';
  columns: ColumnMetadata[];
  primaryKey: string[];
  /** Each CHECK constraint of the table and the columns it reads (pg_constraint.conkey). */
  checks: Map<string, string[]>;
}

interface ColumnRow {
  table: string;
  relkind: string;
  name: string;
  position: number;
  type: string;
  udt: string;
  nullable: boolean;
  default: string | null;
  identity: string;
  generated: string;
  max_length: number | null;
  primary_key: boolean;
  fk_constraint: string | null;
  fk_table: string | null;
  fk_column: string | null;
}

/**
 * One query on the PostgreSQL catalog for every allowed table: columns, types, defaults,
 * identity and generated columns, primary keys and single-column foreign keys.
 */
const CATALOG_SQL = `
  SELECT c.relname AS table, c.relkind, a.attname AS name, a.attnum::int AS position,
         format_type(a.atttypid, a.atttypmod) AS type, t.typname AS udt,
         NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS default,
         a.attidentity AS identity, a.attgenerated AS generated,
         CASE WHEN t.typname IN ('varchar', 'bpchar') AND a.atttypmod > 4 THEN a.atttypmod - 4 END AS max_length,
         EXISTS (SELECT 1 FROM pg_constraint p
                  WHERE p.conrelid = c.oid AND p.contype = 'p' AND a.attnum = ANY (p.conkey)) AS primary_key,
         fk.conname AS fk_constraint, fk.ref_table AS fk_table, fk.ref_column AS fk_column
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    JOIN pg_type t ON t.oid = a.atttypid
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
    LEFT JOIN LATERAL (
      SELECT con.conname, rc.relname AS ref_table, ra.attname AS ref_column
        FROM pg_constraint con
        JOIN pg_class rc ON rc.oid = con.confrelid
        JOIN pg_attribute ra ON ra.attrelid = con.confrelid AND ra.attnum = con.confkey[1]
       WHERE con.conrelid = c.oid AND con.contype = 'f'
         AND cardinality(con.conkey) = 1 AND con.conkey[1] = a.attnum
       ORDER BY con.conname
       LIMIT 1
    ) fk ON true
   WHERE c.relname = ANY ($1::text[]) AND c.relkind IN ('r', 'p', 'v')
   ORDER BY c.relname, a.attnum`;

interface CheckRow {
  table: string;
  constraint: string;
  columns: string[];
}

/**
 * The CHECK constraints of the allowed tables and the columns each one reads, in column order:
 * PostgreSQL reports a violation (23514) with its table and constraint but no column, and the
 * catalog's `conkey` is what the constraint's expression refers to, whatever its text.
 */
const CHECKS_SQL = `
  SELECT c.relname AS table, con.conname AS constraint,
         array_agg(a.attname::text ORDER BY a.attnum) AS columns
    FROM pg_constraint con
    JOIN pg_class c ON c.oid = con.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey)
   WHERE con.contype = 'c' AND c.relname = ANY ($1::text[])
   GROUP BY c.relname, con.conname`;

/**
 * Table metadata of a tenant, read from the catalog once and cached. The cache key carries the
 * tenant's `migrated_at` (catalog row, itself cached for TENANT_CACHE_TTL_MS), so a
 * `npm run tenant -- migrate` makes every service re-read the metadata.
 */
@Injectable()
export class TableMetadataService {
  private readonly cache = new Map<
    string,
    { key: string; tables: Promise<Map<string, TableMetadata>> }
  >();

  constructor(private readonly context: TenantContext) {}

  async get(table: AllowedTable): Promise<TableMetadata | undefined> {
    return (await this.all()).get(table);
  }

  /** The columns a CHECK constraint of an allowed table reads (undefined: not known). */
  async checkColumns(table: string, constraint: string): Promise<string[] | undefined> {
    return (await this.all()).get(table)?.checks.get(constraint);
  }

  private all(): Promise<Map<string, TableMetadata>> {
    const tenant = this.context.tenant;
    const key = `${tenant.databaseUrl ?? ''}/${tenant.databaseName}@${tenant.migratedAt?.getTime() ?? 0}`;
    const cached = this.cache.get(tenant.slug);
    if (cached && cached.key === key) return cached.tables;
    const tables = this.read();
    this.cache.set(tenant.slug, { key, tables });
    tables.catch(() => {
      if (this.cache.get(tenant.slug)?.tables === tables) this.cache.delete(tenant.slug);
    });
    return tables;
  }

  private async read(): Promise<Map<string, TableMetadata>> {
    const db = this.context.dataSource;
    const [rows, checks] = await Promise.all([
      db.query<ColumnRow[]>(CATALOG_SQL, [ALLOWED_TABLES]),
      db.query<CheckRow[]>(CHECKS_SQL, [ALLOWED_TABLES]),
    ]);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      let meta = tables.get(row.table);
      if (!meta) {
        meta = {
          table: row.table as AllowedTable,
          kind: row.relkind === 'v' ? 'view' : 'table',
          columns: [],
          primaryKey: [],
          checks: new Map(),
        };
        tables.set(row.table, meta);
      }
      meta.columns.push({
        name: row.name,
        position: row.position,
        type: row.type,
        udt: row.udt,
        nullable: row.nullable,
        default: row.default,
        identity: row.identity === 'a' ? 'ALWAYS' : row.identity === 'd' ? 'BY DEFAULT' : null,
        generated: row.generated !== '',
        maxLength: row.max_length,
        primaryKey: row.primary_key,
        foreign:
          row.fk_constraint && row.fk_table && row.fk_column
            ? { constraint: row.fk_constraint, table: row.fk_table, column: row.fk_column }
            : null,
      });
      if (row.primary_key) meta.primaryKey.push(row.name);
    }
    for (const check of checks)
      tables.get(check.table)?.checks.set(check.constraint, check.columns);
    return tables;
  }
}
