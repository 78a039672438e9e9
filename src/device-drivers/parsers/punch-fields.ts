import type { Modo, ParsedLine, PunchRecord } from '../driver.types';
import type { ExportEncoding } from './read-lines';

/**
 * The logical fields a driver's `columns` setting maps to the columns of its clock's records:
 * `doc` (the person's document: the clock's PIN / user id), the moment as `datetime`
 * ("YYYY-MM-DD HH:MM:SS") or as `fecha` + `hora`, and the in/out `status`. Any other key names a
 * raw field kept as read (device id, verify mode, work code ...).
 */
export const PUNCH_FIELDS = ['doc', 'datetime', 'fecha', 'hora', 'status'] as const;

/** The part of a format's settings schema shared by every format. */
export const STATUS_MAP_SCHEMA = {
  type: 'object',
  description: 'in/out status of the clock -> modo; a status not listed leaves modo empty',
  additionalProperties: { type: 'string', enum: ['entrada', 'salida'] },
} as const;

/** `columns` needs `doc` and either `datetime` or both `fecha` and `hora`. */
export function columnsSchema(column: object, example: string) {
  return {
    type: 'object',
    description: `logical field -> ${example}; keys other than doc, datetime, fecha, hora and status are raw fields kept as read`,
    required: ['doc'],
    properties: Object.fromEntries(PUNCH_FIELDS.map((field) => [field, column])),
    additionalProperties: column,
    if: { not: { required: ['datetime'] } },
    then: { required: ['fecha', 'hora'] },
  } as const;
}

export interface PunchMapping {
  statusMap?: Record<string, Modo>;
}

/** The settings every record format shares; `TColumn` says how a column is named. */
export interface RecordFormatSettings<TColumn> extends PunchMapping {
  /** Field separator (one character). */
  delimiter?: string;
  encoding?: ExportEncoding;
  /** Logical field -> column. */
  columns: Record<string, TColumn>;
}

const DATETIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** A calendar date YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** HH:MM or HH:MM:SS as HH:MM:SS, or undefined when it is not a time of day. */
export function normaliseTime(text: string): string | undefined {
  const m = TIME.exec(text);
  return m ? `${m[1]}:${m[2]}:${m[3] ?? '00'}` : undefined;
}

/**
 * The in/out mode of a status value: with a status map, the mapped mode (a status the map does
 * not name: no mode, the punch alternates in time order); without one, the value itself must be
 * entrada or salida (any case). Empty: no mode.
 */
export function modoOf(
  status: string,
  statusMap: Record<string, Modo> | undefined,
): Modo | undefined | Error {
  if (status === '') return undefined;
  if (statusMap) return Object.hasOwn(statusMap, status) ? statusMap[status] : undefined;
  const lower = status.toLowerCase();
  if (lower === 'entrada' || lower === 'salida') return lower;
  return new Error(
    `status ${JSON.stringify(status)} is neither entrada nor salida and the driver has no statusMap`,
  );
}

/**
 * Why a field's value cannot be stored as read, or undefined when it can: control characters
 * (C0 but the tab, and DEL: NUL, which PostgreSQL text and jsonb cannot hold, and the others,
 * which no clock writes in a record), bytes that were not text in the export's encoding (the
 * decoder's U+FFFD), unpaired UTF-16 surrogates (no UTF-8 text holds them).
 */
export function unstorable(value: string): string | undefined {
  let replacement = false;
  let surrogate = false;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return 'contains control characters';
    if (code === 0xfffd) replacement = true;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1); // NaN past the end
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
      else surrogate = true;
    } else if (code >= 0xdc00 && code <= 0xdfff) surrogate = true;
  }
  if (replacement) return "contains bytes that are not text in the export's encoding";
  if (surrogate) return 'contains unpaired UTF-16 surrogates';
  return undefined;
}

/**
 * Builds the punch of one line from its values by logical field (undefined: the line has no such
 * column), or the reasons it is bad. Every problem of the line is named. A value that cannot be
 * stored (unstorable) makes the line bad, naming its field; that field is not checked further.
 */
export function toPunch(
  line: number,
  raw: Record<string, string | undefined>,
  mapping: PunchMapping,
  describe: (field: string) => string,
): ParsedLine {
  const reasons: string[] = [];
  // an unstorable value is named once, first, and left out of the checks below
  const values: Record<string, string | undefined> = {};
  const unusable = new Set<string>();
  for (const [field, value] of Object.entries(raw)) {
    const why = value === undefined ? undefined : unstorable(value);
    if (why) {
      reasons.push(`${describe(field)} ${why}`);
      unusable.add(field);
    } else values[field] = value;
  }
  const missing = (field: string) => {
    if (!unusable.has(field)) reasons.push(`no ${describe(field)}`);
  };

  const doc = values.doc;
  if (doc === undefined) missing('doc');
  else if (doc === '') reasons.push(`empty ${describe('doc')}`);

  let fecha: string | undefined;
  let hora: string | undefined;
  if ('datetime' in raw) {
    const datetime = values.datetime;
    if (datetime === undefined) missing('datetime');
    else {
      const m = DATETIME.exec(datetime);
      if (!m) reasons.push(`date-time ${JSON.stringify(datetime)} is not YYYY-MM-DD HH:MM:SS`);
      else [fecha, hora] = [m[1], m[2]];
    }
  } else {
    if (values.fecha === undefined) missing('fecha');
    else if (!DATE.test(values.fecha))
      reasons.push(`date ${JSON.stringify(values.fecha)} is not YYYY-MM-DD`);
    else fecha = values.fecha;
    if (values.hora === undefined) missing('hora');
    else hora = values.hora;
  }
  if (fecha !== undefined && !isCalendarDate(fecha)) {
    reasons.push(`date ${fecha} does not exist`);
    fecha = undefined;
  }
  const time = hora === undefined ? undefined : normaliseTime(hora);
  if (hora !== undefined && time === undefined)
    reasons.push(`time ${JSON.stringify(hora)} is not HH:MM:SS`);

  const modo = values.status === undefined ? undefined : modoOf(values.status, mapping.statusMap);
  if (modo instanceof Error) reasons.push(modo.message);

  if (reasons.length > 0) return { kind: 'bad', line, reason: reasons.join('; ') };

  const record: PunchRecord = { doc: doc!, fecha: fecha!, hora: time! };
  if (modo && !(modo instanceof Error)) record.modo = modo;
  for (const [field, value] of Object.entries(values)) {
    if (field === 'doc' || field === 'datetime' || field === 'fecha' || field === 'hora') continue;
    if (value !== undefined && value !== '') record[field] = value;
  }
  return { kind: 'record', line, record };
}
