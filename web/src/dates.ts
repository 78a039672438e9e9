/**
 * Business days as the API writes them (`YYYY-MM-DD`, the tenant's wall calendar), without DOM
 * (unit tested in dates.spec.ts): today in the tenant's zone, calendar checks, moving by days
 * and how a day reads.
 */

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

/** The wall-clock time (HH:MM) in a time zone; the browser's zone when it is unknown. */
export function nowIn(timeZone: string, now: Date = new Date()): string {
  const format = (zone?: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(now);
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

const WEEKDAYS = ['dom', 'lun', 'mar', 'mié', 'jue', 'vie', 'sáb'];

/** `2026-06-01` → `lun 01/06/2026`. */
export function dayLabel(date: string): string {
  if (!isDate(date)) return date;
  const [y, m, d] = date.split('-');
  return `${WEEKDAYS[new Date(utc(date)).getUTCDay()]} ${d}/${m}/${y}`;
}
