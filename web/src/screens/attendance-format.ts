/**
 * The rules of the Asistencia screen, without DOM (unit tested in attendance-format.spec.ts):
 * which drivers can import a file, the days of a range with their summary
 * (POST /rpc/asistencia_get, docs/rpc.md) and how minutes and intervals read. The shapes are the
 * API's, generated from its OpenAPI document.
 */
import type { Schemas } from '../api';
import { addDays, daysBetween, isDate } from '../dates';

type Driver = Schemas['DriverDto'];
type ImportSummary = Schemas['ImportSummaryDto'];
type Intervalo = Schemas['AsistenciaIntervaloDto'];
type ResumenDia = Schemas['AsistenciaResumenDiaDto'];

/**
 * Why a driver cannot take an upload, or null when it can: the upload accepts importable `file`
 * drivers only (400 DRIVER_NOT_FILE for push and tcp drivers, DRIVER_NOT_IMPORTABLE otherwise).
 */
export function whyNotSelectable(driver: Driver): string | null {
  // the transport first: it says why a push or pull driver is not importable
  if (driver.manifest.transport !== 'file')
    return `no lee archivos (${String(driver.manifest.transport)})`;
  if (!driver.importable) return 'no puede importar';
  return null;
}

export function driverLabel(driver: Driver): string {
  const vendor = typeof driver.manifest.vendor === 'string' ? driver.manifest.vendor : '';
  const model = typeof driver.manifest.model === 'string' ? driver.manifest.model : '';
  const what = [vendor, model].filter(Boolean).join(' ');
  return what ? `${driver.name} — ${what}` : driver.name;
}

/** `read = inserted + duplicates + unknownDocumentPunches + badLineCount` (nothing lost). */
export function accountsForAll(summary: ImportSummary): boolean {
  return (
    summary.read ===
    summary.inserted + summary.duplicates + summary.unknownDocumentPunches + summary.badLineCount
  );
}

/** What is wrong with a range, in Spanish, or null. */
export function queryProblem(desde: string, hasta: string): string | null {
  if (!isDate(desde) || !isDate(hasta)) return 'Indique las fechas desde y hasta';
  if (desde > hasta) return 'La fecha desde es posterior a la fecha hasta';
  return null;
}

/** `Quispe, Rosa`: surname first, the order of report_asistencia's list. */
export function personName(person: { nombre: string; apellido: string | null }): string {
  return person.apellido ? `${person.apellido}, ${person.nombre}` : person.nombre;
}

/** 450 → `7 h 30 min`, 60 → `1 h`, 0 → `0 min`, null → `—`. */
export function formatMinutes(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes)) return '—';
  const total = Math.round(minutes);
  const h = Math.floor(Math.abs(total) / 60);
  const m = Math.abs(total) % 60;
  const sign = total < 0 ? '-' : '';
  if (h === 0) return `${sign}${m} min`;
  return m === 0 ? `${sign}${h} h` : `${sign}${h} h ${m} min`;
}

/** `2026-06-02T01:30:00` of work day `2026-06-01` → `01:30 (+1)`. */
function clock(instant: string, workDay: string): string {
  const [date, time = ''] = instant.split('T');
  const hhmm = time.slice(0, 5) || instant;
  if (!isDate(date) || !isDate(workDay) || date === workDay) return hhmm;
  const shift = daysBetween(workDay, date);
  return `${hhmm} (${shift > 0 ? '+' : ''}${shift})`;
}

/** `18:00 – 01:30 (+1)`; an open interval `08:00 – sin salida`. */
export function intervalText(interval: Intervalo): string {
  const from = clock(interval.entrada, interval.fecha_trabajo);
  const to = interval.salida ? clock(interval.salida, interval.fecha_trabajo) : 'sin salida';
  return `${from} – ${to}`;
}

export interface DayRow {
  fecha: string;
  resumen: ResumenDia | null;
  intervalos: Intervalo[];
}

/** Ranges longer than this list only the days with punches. */
export const MAX_LISTED_DAYS = 92;

/**
 * The rows of the daily table: every day of the range (also those without punches, so a missing
 * day shows) when it is at most MAX_LISTED_DAYS long, else the days with a summary; in date order.
 */
export function dayRows(
  desde: string,
  hasta: string,
  resumen: ResumenDia[],
  intervalos: Intervalo[],
): DayRow[] {
  const byDay = new Map(resumen.map((r) => [r.fecha_trabajo, r]));
  const intervalsOf = (day: string) => intervalos.filter((i) => i.fecha_trabajo === day);
  const listed = new Set<string>(resumen.map((r) => r.fecha_trabajo));
  for (const i of intervalos) listed.add(i.fecha_trabajo);
  if (
    isDate(desde) &&
    isDate(hasta) &&
    desde <= hasta &&
    daysBetween(desde, hasta) < MAX_LISTED_DAYS
  ) {
    for (let day = desde; day <= hasta; day = addDays(day, 1)) listed.add(day);
  }
  return [...listed].sort().map((fecha) => ({
    fecha,
    resumen: byDay.get(fecha) ?? null,
    intervalos: intervalsOf(fecha),
  }));
}

export interface Totals {
  diasTrabajados: number;
  minutos: number;
  diasIncompletos: number;
}

export function totals(resumen: ResumenDia[]): Totals {
  return resumen.reduce<Totals>(
    (t, r) => ({
      diasTrabajados: t.diasTrabajados + 1,
      minutos: t.minutos + (r.minutos ?? 0),
      diasIncompletos: t.diasIncompletos + (r.incompleto ? 1 : 0),
    }),
    { diasTrabajados: 0, minutos: 0, diasIncompletos: 0 },
  );
}

/** Upload progress as a whole percentage, or null when the size is unknown. */
export function percent(loaded: number, total: number): number | null {
  if (!(total > 0)) return null;
  return Math.max(0, Math.min(100, Math.floor((loaded / total) * 100)));
}

/** 1536 → `1,5 KB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1).replace('.', ',')} ${units[unit]}`;
}
