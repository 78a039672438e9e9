/**
 * Instants are written as ISO 8601 in the tenant's time zone with its offset
 * ("2026-11-22T13:05:09-05:00"), so a restaurant reads its own wall-clock time
 * (docs/api-contract.md, values).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The instant as Intl writes it in `timeZone`: exact for any offset, but slow (about 20 µs). */
export function formatInstantIntl(value: Date, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(value)) parts[part.type] = part.value;
  // longOffset is "GMT-05:00", or "GMT" at UTC
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** UTC offset (ms) of `timeZone` at `epochMs`, from the zone's wall-clock time then. */
function offsetAt(epochMs: number, timeZone: string): number {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) {
    parts[part.type] = part.value;
  }
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(epochMs / 1000) * 1000;
}

/**
 * Offsets at the bounds of 15-minute slots, per zone. Zones change offset a few times a year,
 * never twice in 15 minutes: when both bounds of an instant's slot agree, so does the instant.
 */
const SLOT_MS = 15 * 60 * 1000;
const MAX_SLOTS_PER_ZONE = 100_000;
const slotOffsets = new Map<string, Map<number, number>>();

function slotOffset(slot: number, timeZone: string): number {
  let zone = slotOffsets.get(timeZone);
  if (!zone) slotOffsets.set(timeZone, (zone = new Map<number, number>()));
  let offset = zone.get(slot);
  if (offset === undefined) {
    if (zone.size >= MAX_SLOTS_PER_ZONE) zone.clear();
    offset = offsetAt(slot * SLOT_MS, timeZone);
    zone.set(slot, offset);
  }
  return offset;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * ISO 8601 in the tenant's zone with its offset. Hot path of every response with times (50
 * comandas of a list page have 150 of them): the offset comes from the slot cache and the
 * wall-clock fields from plain arithmetic; the rare instant whose slot holds an offset change,
 * or whose offset is not whole minutes (local mean time before 1900), goes through Intl.
 */
export function formatInstant(value: Date, timeZone: string): string {
  const epochMs = value.getTime();
  const slot = Math.floor(epochMs / SLOT_MS);
  const start = slotOffset(slot, timeZone);
  const offset = start === slotOffset(slot + 1, timeZone) ? start : offsetAt(epochMs, timeZone);
  const local = new Date(Math.floor(epochMs / 1000) * 1000 + offset);
  const year = local.getUTCFullYear();
  if (offset % 60_000 !== 0 || year < 1000 || year > 9999)
    return formatInstantIntl(value, timeZone);
  const minutes = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? '-' : '+';
  return (
    `${year}-${pad2(local.getUTCMonth() + 1)}-${pad2(local.getUTCDate())}` +
    `T${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}:${pad2(local.getUTCSeconds())}` +
    `${sign}${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`
  );
}

export function formatInstantOrNull(value: Date | null, timeZone: string): string | null {
  return value ? formatInstant(value, timeZone) : null;
}

/** A business date `YYYY-MM-DD` that exists in the calendar. */
export function isBusinessDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * An instant as people and programs write it: `2026-11-24T23:30`, with seconds and fractions
 * (to microseconds) if wanted, and an offset (`Z`, `-05:00`) or none (then it is the tenant's
 * local time), on a date that exists.
 */
export function isInstantText(value: string): boolean {
  const match =
    /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?(Z|[+-](0\d|1[0-4]):[0-5]\d)?$/.exec(
      value,
    );
  return match !== null && isBusinessDate(match[1]);
}

/** Whether an instant's text carries its offset (else it is read in the tenant's time zone). */
export function hasOffset(value: string): boolean {
  return /(Z|[+-]\d{2}:\d{2})$/.test(value);
}

/** Today's business date (YYYY-MM-DD) in `timeZone`. */
export function todayIn(timeZone: string, now = new Date()): string {
  // en-CA formats dates as YYYY-MM-DD
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** The current year in `timeZone` (on New Year's Eve in Lima, UTC may already be next year). */
export function currentYearIn(timeZone: string, now = new Date()): number {
  return Number(todayIn(timeZone, now).slice(0, 4));
}

/** A business date moved by `days` (negative: back). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
