import { formatInstant } from '../common/time';

/**
 * Time as the iClock push protocol writes it. The clock keeps local wall-clock time: the
 * service tells it the tenant's UTC offset in the handshake (`TimeZone=`) and, when asked
 * (`GET /iclock/cdata?type=time`), the tenant's local time (`Time=`).
 */

/** The UTC offset of a time zone at `now`, in minutes (-300 for Lima, 330 for Kolkata). */
export function utcOffsetMinutes(timeZone: string, now = new Date()): number {
  const offset = formatInstant(now, timeZone).slice(-6); // "+05:30", "-05:00"
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
}

/**
 * The handshake's `TimeZone` value for a UTC offset in minutes: whole hours when the offset is
 * a whole number of hours from -12 to 12, minutes otherwise (ZKTeco's Attendance PUSH
 * protocol): -5 for UTC-05:00, 330 for UTC+05:30, -210 for UTC-03:30, 780 for UTC+13:00.
 */
export function pushTimeZone(offsetMinutes: number): number {
  const minutes = Math.trunc(offsetMinutes);
  const hours = minutes / 60;
  const value = Number.isInteger(hours) && Math.abs(hours) <= 12 ? hours : minutes;
  return value === 0 ? 0 : value; // never -0
}

/**
 * The answer to `GET /iclock/cdata?type=time`: the local time of the tenant's zone, ISO 8601
 * with its offset, `Time=2026-11-23T14:05:09-05:00`.
 */
export function serverTimeLine(timeZone: string, now = new Date()): string {
  return `Time=${formatInstant(now, timeZone)}`;
}
