import { addDays, currentYearIn, isBusinessDate, todayIn } from '../common/time';
import { rpcInputInvalid } from './rpc.errors';

/** The input rules of the RPC routes (docs/api-contract.md, RPC routes), in one place. */

export const REPORT_YEAR_MIN = 2000;
export const REPORT_YEAR_MAX = 2100;
export const DEFAULT_ATTENDANCE_DAYS = 30;

/** An integer given as a JSON number or as a string of digits; anything else: undefined. */
export function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/**
 * report_tickets: `year` from the body, else from the query, used only when it is an
 * integer from 2000 to 2100; otherwise the current year of the tenant's time zone.
 */
export function reportTicketsYear(
  bodyYear: unknown,
  queryYear: unknown,
  timeZone: string,
  now = new Date(),
): number {
  const given = bodyYear !== undefined && bodyYear !== null ? bodyYear : queryYear;
  const year = integerOf(given);
  return year !== undefined && year >= REPORT_YEAR_MIN && year <= REPORT_YEAR_MAX
    ? year
    : currentYearIn(timeZone, now);
}

/** report_gastos: `year` (int, default the current year of the tenant's time zone). */
export function reportGastosYear(year: unknown, timeZone: string, now = new Date()): number {
  return integerOf(year) ?? currentYearIn(timeZone, now);
}

/**
 * report_asistencia: when desde or hasta is not a YYYY-MM-DD date, the range is the
 * 30 days before today through today, in the tenant's time zone. (A string of that pattern
 * that is not a calendar date, such as 2026-02-30, counts as not matching.)
 */
export function attendanceRange(
  desde: unknown,
  hasta: unknown,
  timeZone: string,
  now = new Date(),
): { desde: string; hasta: string } {
  if (
    typeof desde === 'string' &&
    typeof hasta === 'string' &&
    isBusinessDate(desde) &&
    isBusinessDate(hasta)
  ) {
    return { desde, hasta };
  }
  const today = todayIn(timeZone, now);
  return { desde: addDays(today, -DEFAULT_ATTENDANCE_DAYS), hasta: today };
}

/**
 * asistencia_get: `doc` (a document number: a non-empty string, or a whole number sent as its
 * digits), `desde` and `hasta` (YYYY-MM-DD calendar dates) are required. A missing or malformed
 * one is a 400 naming it (every such field listed), not a failure of the function.
 */
export function attendanceQueryInput(body: unknown): { doc: string; desde: string; hasta: string } {
  const f = fieldsOf(body);
  const problems: string[] = [];
  const missing = (key: string) => f[key] === undefined || f[key] === null;
  const doc = documentOf(f.doc);
  if (missing('doc')) problems.push('doc is required');
  else if (doc === undefined) problems.push('doc must be a document number (a non-empty string)');
  for (const key of ['desde', 'hasta']) {
    const value = f[key];
    if (missing(key)) problems.push(`${key} is required`);
    else if (typeof value !== 'string' || !isBusinessDate(value))
      problems.push(`${key} must be a date YYYY-MM-DD`);
  }
  if (problems.length > 0 || doc === undefined) throw rpcInputInvalid(problems);
  return { doc, desde: f.desde as string, hasta: f.hasta as string };
}

/** A document number as text: a string with a non-blank, storable value, or a whole number. */
function documentOf(value: unknown): string | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  // PostgreSQL text cannot hold NUL; other control characters are no document either
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(value) ? undefined : value;
}

/** `docs` / `registros`: a non-array is treated as empty. */
export function arrayOrEmpty(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A body as an object (a JSON array, string or null body has no fields). */
export function fieldsOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

/** The value of `key`, or `fallback` when the key is absent or null. */
export function valueOr(fields: Record<string, unknown>, key: string, fallback: unknown): unknown {
  const value = fields[key];
  return value === undefined || value === null ? fallback : value;
}

/** save_producto with its defaults. */
export function productoInput(body: unknown) {
  const f = fieldsOf(body);
  return {
    id_producto: valueOr(f, 'id_producto', null),
    nombre: valueOr(f, 'nombre', null),
    img_producto: valueOr(f, 'img_producto', null),
    precio: valueOr(f, 'precio', 0),
    activo: valueOr(f, 'activo', true),
    id_categoria: valueOr(f, 'id_categoria', null),
    receta: valueOr(f, 'receta', []),
  };
}

/** save_materia with its defaults. */
export function materiaInput(body: unknown) {
  const f = fieldsOf(body);
  return {
    id_mat_prima: valueOr(f, 'id_mat_prima', null),
    nombre: valueOr(f, 'nombre', null),
    unidad: valueOr(f, 'unidad', null),
    activo: valueOr(f, 'activo', true),
    proveedores: valueOr(f, 'proveedores', []),
  };
}

/** save_compra: id_compra null means insert; fec_compra null when absent. */
export function compraInput(body: unknown) {
  const f = fieldsOf(body);
  return {
    id_compra: valueOr(f, 'id_compra', null),
    id_proveedor: valueOr(f, 'id_proveedor', null),
    fec_compra: valueOr(f, 'fec_compra', null),
    observacion: valueOr(f, 'observacion', null),
    detalles: valueOr(f, 'detalles', []),
  };
}

/** The result of a store function: `{}` when it is empty. */
export function resultOrEmpty(result: unknown): unknown {
  if (result === null || result === undefined) return {};
  if (typeof result === 'object' && !Array.isArray(result) && Object.keys(result).length === 0)
    return {};
  return result;
}
