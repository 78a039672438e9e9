/**
 * The rules of the Asistencia screen, without DOM (unit tested in attendance-format.spec.ts):
 * which drivers can import a file, the tenant's today, the days of a range with their summary
 * (POST /rpc/asistencia_get, docs/rpc.md) and how minutes and intervals read.
 */

/** An entry of `GET /device-drivers` (docs/device-drivers.md). */
export interface Driver {
  name: string;
  source: 'builtin' | 'external';
  manifest: Record<string, unknown>;
  importable: boolean;
  warnings: { path: string; message: string }[];
}

/** The answer of `POST /asistencia/import`. */
export interface ImportSummary {
  driver: string;
  origen: string;
  read: number;
  punches: number;
  inserted: number;
  duplicates: number;
  unknownDocuments: string[];
  unknownDocumentPunches: number;
  badLineCount: number;
  badLines: { line: number; reason: string }[];
  daysRecalculated: number;
}

export interface Marca {
  id_raw: number;
  fecha: string;
  hora: string;
  modo: 'entrada' | 'salida' | null;
  origen: string | null;
  datos: Record<string, unknown> | null;
  fecha_trabajo: string;
}

export interface Intervalo {
  id_intervalo: number;
  fecha_trabajo: string;
  entrada: string;
  salida: string | null;
  minutos: number | null;
}

export interface ResumenDia {
  fecha_trabajo: string;
  minutos: number;
  intervalos: number;
  marcas: number;
  incompleto: boolean;
}

/** The answer of `POST /rpc/asistencia_get`; `{}` is read as an empty one. */
export interface AsistenciaGet {
  usuario: {
    id_usuario: number;
    documento: string;
    nombre: string;
    apellido: string | null;
  } | null;
  marcas: Marca[];
  intervalos: Intervalo[];
  resumen: ResumenDia[];
}

export function normalizeAsistencia(
  answer: Partial<AsistenciaGet> | null | undefined,
): AsistenciaGet {
  return {
    usuario: answer?.usuario ?? null,
    marcas: Array.isArray(answer?.marcas) ? answer.marcas : [],
    intervalos: Array.isArray(answer?.intervalos) ? answer.intervalos : [],
    resumen: Array.isArray(answer?.resumen) ? answer.resumen : [],
  };
}

/**
 * Why a driver cannot take an upload, or null when it can: the upload accepts importable `file`
 * drivers only (400 DRIVER_NOT_FILE for push and tcp drivers, DRIVER_NOT_IMPORTABLE otherwise).
 */
export function whyNotSelectable(driver: Driver): string | null {
  if (!driver.importable) return 'no puede importar';
  if (driver.manifest.transport !== 'file')
    return `no lee archivos (${String(driver.manifest.transport)})`;
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

/** Today's date (YYYY-MM-DD) in a time zone; the browser's zone when it is unknown. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const format = (zone?: string) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(now);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${get('year')}-${get('month')}-${get('day')}`;
  };
  try {
    return format(timeZone);
  } catch {
    return format(undefined);
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date (`2026-02-30` is not one). */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

function utc(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return Date.UTC(y, m - 1, d);
}

export function addDays(date: string, days: number): string {
  return new Date(utc(date) + days * 86_400_000).toISOString().slice(0, 10);
}

export function daysBetween(desde: string, hasta: string): number {
  return Math.round((utc(hasta) - utc(desde)) / 86_400_000);
}

/** What is wrong with a query, in Spanish, or null. */
export function queryProblem(doc: string, desde: string, hasta: string): string | null {
  if (!doc.trim()) return 'Indique el documento de la persona';
  if (!isDate(desde) || !isDate(hasta)) return 'Indique las fechas desde y hasta';
  if (desde > hasta) return 'La fecha desde es posterior a la fecha hasta';
  return null;
}

const WEEKDAYS = ['dom', 'lun', 'mar', 'mié', 'jue', 'vie', 'sáb'];

/** `2026-06-01` → `lun 01/06/2026`. */
export function dayLabel(date: string): string {
  if (!isDate(date)) return date;
  const [y, m, d] = date.split('-');
  return `${WEEKDAYS[new Date(utc(date)).getUTCDay()]} ${d}/${m}/${y}`;
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
