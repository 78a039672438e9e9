/**
 * The rules of the Tablas screen, without DOM (unit tested in tables-form.spec.ts): which
 * columns the form shows (the generic insert's rule 1, docs/generic-tables.md), the input for a
 * PostgreSQL type, the typed JSON body from the form's strings, and which field a 400 is about.
 * The shapes are the API's, generated from its OpenAPI document.
 */
import type { ApiError, Schemas } from '../api';

type SchemaColumn = Schemas['ColumnDto'];
type TableSchema = Schemas['TableSchema'];
type Option = Schemas['OptionItem'];

/** A row of `GET /table/:table`, or the one an insert stored: column name → value. */
export type Row = Schemas['InsertedRow']['inserted'];

/**
 * Rule 1 of POST /table/:table: primary-key columns, identity columns, columns whose default is
 * a sequence (`nextval(...)`) and generated columns are never written.
 */
export function isInsertable(column: SchemaColumn): boolean {
  const sequenceDefault = column.default?.trim().startsWith('nextval(') ?? false;
  return !column.primaryKey && column.identity === null && !sequenceDefault && !column.generated;
}

export function insertableColumns(schema: TableSchema): SchemaColumn[] {
  return [...schema.columns]
    .filter(isInsertable)
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
}

/** NOT NULL without a default: the insert fails (23502) unless the user gives a value. */
export function isRequired(column: SchemaColumn): boolean {
  return (
    !column.nullable && column.default === null && column.identity === null && !column.generated
  );
}

export type InputKind =
  | 'integer'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'time'
  | 'timestamp'
  | 'timestamptz'
  | 'json'
  | 'longtext'
  | 'text';

const INTEGER = new Set(['int2', 'int4', 'int8', 'smallint', 'integer', 'bigint', 'oid']);
const DECIMAL = new Set(['numeric', 'decimal', 'float4', 'float8', 'real', 'money']);
const LONG_TEXT = new Set(['text', 'citext']);

/** The input a column gets, by its base type (`udt`), falling back on `type`. */
export function inputKind(column: SchemaColumn): InputKind {
  const udt = (column.udt || column.type).toLowerCase();
  if (udt.startsWith('_')) return 'text'; // arrays: PostgreSQL's literal, as text
  if (INTEGER.has(udt)) return 'integer';
  if (DECIMAL.has(udt)) return 'decimal';
  if (udt === 'bool' || udt === 'boolean') return 'boolean';
  if (udt === 'date') return 'date';
  if (udt === 'time' || udt === 'timetz') return 'time';
  if (udt === 'timestamp') return 'timestamp';
  if (udt === 'timestamptz') return 'timestamptz';
  if (udt === 'json' || udt === 'jsonb') return 'json';
  if (LONG_TEXT.has(udt)) return 'longtext';
  return 'text';
}

/** The HTML input type of a kind (textarea and checkbox are rendered apart). */
export type HtmlInputType = 'number' | 'checkbox' | 'date' | 'time' | 'datetime-local' | 'text';

export function htmlInputType(kind: InputKind): HtmlInputType {
  switch (kind) {
    case 'integer':
    case 'decimal':
      return 'number';
    case 'boolean':
      return 'checkbox';
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    case 'timestamp':
    case 'timestamptz':
      return 'datetime-local';
    default:
      return 'text';
  }
}

export function usesTextarea(kind: InputKind): boolean {
  return kind === 'longtext' || kind === 'json';
}

/** The `step` of a number input: 1 for integers, the scale of `numeric(p,s)`, else any. */
export function numberStep(column: SchemaColumn): string {
  const kind = inputKind(column);
  if (kind === 'integer') return '1';
  const scale = /^numeric\(\s*\d+\s*,\s*(\d+)\s*\)/i.exec(column.type);
  if (kind === 'decimal' && scale) {
    const s = Number(scale[1]);
    return s === 0 ? '1' : `0.${'0'.repeat(s - 1)}1`;
  }
  return 'any';
}

/** A boolean's first state: its default when it is a literal `true`. */
export function defaultChecked(column: SchemaColumn): boolean {
  return /^\s*true\s*$/i.test(column.default ?? '');
}

/** What the form holds: a string per input, a boolean per checkbox. */
export type Draft = Record<string, string | boolean>;

export function emptyDraft(columns: SchemaColumn[]): Draft {
  const draft: Draft = {};
  for (const column of columns) {
    draft[column.name] = inputKind(column) === 'boolean' ? defaultChecked(column) : '';
  }
  return draft;
}

export type Parsed = { value: unknown } | { error: string };

/** Significant digits of a decimal text (more than 15 do not survive a JS number). */
function digits(text: string): number {
  const mantissa = text.replace(/^[-+]/, '').split(/e/i)[0].replace('.', '');
  return mantissa.replace(/^0+/, '').length;
}

/**
 * One field's string as the typed JSON value the insert binds: numbers as JSON numbers (as text
 * when a JS number would lose digits), JSON parsed, an instant with the tenant's offset.
 */
export function parseValue(column: SchemaColumn, raw: string, timeZone: string): Parsed {
  const text = raw.trim();
  switch (inputKind(column)) {
    case 'integer': {
      if (!/^[-+]?\d+$/.test(text)) return { error: 'Debe ser un número entero' };
      const n = Number(text);
      return { value: Number.isSafeInteger(n) ? n : text.replace(/^\+/, '') };
    }
    case 'decimal': {
      if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text))
        return { error: 'Debe ser un número' };
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: 'Debe ser un número' };
      return { value: digits(text) <= 15 ? n : text.replace(/^\+/, '') };
    }
    case 'json':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: 'JSON inválido' };
      }
    case 'timestamptz':
      return { value: withZoneOffset(text, timeZone) };
    case 'date':
    case 'time':
    case 'timestamp':
      return { value: text };
    default:
      return { value: raw };
  }
}

/**
 * The body of POST /table/:table: only what the user filled. A text is filled when it is not
 * blank; a checkbox when the user changed it, or always when the column needs a value; a
 * foreign key sends the option's own id (a number stays a number).
 */
export function buildInsertBody(
  columns: SchemaColumn[],
  draft: Draft,
  touched: ReadonlySet<string>,
  timeZone: string,
  options: Record<string, Option[] | undefined> = {},
): { body: Row; errors: Record<string, string> } {
  const body: Row = {};
  const errors: Record<string, string> = {};
  for (const column of columns) {
    if (!isInsertable(column)) continue;
    const raw = draft[column.name];
    if (inputKind(column) === 'boolean') {
      if (touched.has(column.name) || isRequired(column)) body[column.name] = raw === true;
      continue;
    }
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const choice = options[column.name]?.find((option) => String(option.id) === raw);
    if (choice) {
      body[column.name] = choice.id;
      continue;
    }
    const parsed = parseValue(column, raw, timeZone);
    if ('error' in parsed) errors[column.name] = parsed.error;
    else body[column.name] = parsed.value;
  }
  return { body, errors };
}

/** The offset (minutes east of UTC) of a time zone at an instant. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour') % 24,
    part('minute'),
    part('second'),
  );
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60000);
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * A wall-clock date-time of the tenant (`2026-03-01T08:00`, what datetime-local gives) as an
 * instant with the zone's offset (`2026-03-01T08:00:00-05:00`): the API reads an instant without
 * an offset in another zone. Text that is not such a date-time, or an unknown zone, is returned
 * as it came (the service then answers its own error).
 */
export function withZoneOffset(local: string, timeZone: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/.exec(local.trim());
  if (!m) return local;
  const [, y, mo, d, h, mi, s = '00', frac = ''] = m;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  try {
    let offset = offsetAt(wall, timeZone);
    const second = offsetAt(wall - offset * 60000, timeZone);
    if (second !== offset) offset = second;
    return `${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${offsetText(offset)}`;
  } catch {
    return local;
  }
}

/** What a 400 of POST /table/:table says, as ApiError holds it. */
export type InsertFailure = Pick<ApiError, 'status' | 'code' | 'message' | 'detail' | 'body'>;

function reason(failure: InsertFailure, column: SchemaColumn | undefined): string {
  switch (failure.code) {
    case '23502':
      return 'Obligatorio';
    case '23505':
      return 'Ya existe otra fila con este valor';
    case '23503':
      return column?.foreign
        ? `No existe en ${column.foreign.table}`
        : 'No existe en la tabla referenciada';
    case '23514':
      return 'No cumple una regla de la tabla';
    case '22P02':
    case '22003':
    case '22007':
    case '22008':
    case 'INVALID_VALUE':
      return 'Valor inválido';
    default:
      return 'Valor rechazado';
  }
}

/**
 * The fields a 400 is about, each with its message: `column`, or `columns` for a key of several,
 * else the column a `constraint` named `ck_<table>_<column>` (`uq_`, `fk_`) is on, else an
 * INVALID_VALUE's `detail.column`. The field says what is wrong in a few words and the code;
 * the service's own message is in the form's banner. Empty when it names no field of the form.
 */
export function fieldErrorsOf(
  failure: InsertFailure,
  table: string,
  columns: SchemaColumn[],
): Record<string, string> {
  if (failure.status !== 400) return {};
  const byName = new Map(columns.map((c) => [c.name, c]));
  const body = failure.body ?? {};
  const named = new Set<string>();
  if (typeof body.column === 'string') named.add(body.column);
  if (Array.isArray(body.columns))
    for (const c of body.columns) if (typeof c === 'string') named.add(c);
  if (named.size === 0 && typeof body.constraint === 'string') {
    const m = new RegExp(`^(?:ck|uq|fk)_${table}_(.+)$`).exec(body.constraint);
    if (m && byName.has(m[1])) named.add(m[1]);
  }
  if (named.size === 0 && failure.code === 'INVALID_VALUE') {
    const detail = failure.detail as { column?: unknown } | undefined;
    if (typeof detail?.column === 'string') named.add(detail.column);
  }
  const errors: Record<string, string> = {};
  for (const name of named) {
    const column = byName.get(name);
    if (!column) continue;
    errors[name] = `${reason(failure, column)} (${failure.code})`;
  }
  return errors;
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d+)?)?([+-]\d{2}(:?\d{2})?|Z)$/;

/** A value of GET /table as text for a cell: null as a dash, booleans in Spanish, JSON as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  if (typeof value === 'string') {
    const instant = INSTANT.exec(value);
    return instant ? `${instant[1]} ${instant[2]}` : value;
  }
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

/** A row's key for lists: its primary key values, else its position. */
export function rowKey(row: Row, columns: SchemaColumn[], index: number): string {
  const key = columns.filter((c) => c.primaryKey).map((c) => String(row[c.name]));
  return key.length > 0 ? key.join('|') : `#${index}`;
}
