/** How the page writes money, times and names (es-PE style, the tenant's own offsets). */

const money = new Intl.NumberFormat('es-PE', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function soles(value: number): string {
  return `S/ ${money.format(value)}`;
}

/**
 * An instant as the API sent it (ISO with the tenant's offset): its local date and time,
 * `23/11/26 13:05` as on a receipt, the restaurant's own clock whatever the browser's zone.
 */
export function when(iso: string | null): string {
  if (!iso) return '—';
  const [date, time = ''] = iso.split('T');
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year.slice(-2)} ${time.slice(0, 5)}`;
}

/** The local time of an instant the API sent: `13:05`. */
export function hora(iso: string): string {
  return iso.split('T')[1]?.slice(0, 5) ?? iso;
}

/** Whether two instants the API sent fall on the same local day. */
export function sameDay(a: string, b: string): boolean {
  return a.slice(0, 10) === b.slice(0, 10);
}

export function cantidad(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/0+$/, '');
}

/** Whole minutes from an instant the API sent to `now` (never negative). */
export function minutesSince(since: string, now: number): number {
  return Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
}

/** How long ago an instant was, short: `recién`, `25 min`, `2 h 05`, `1 d 3 h`. */
export function duracion(since: string, now: number): string {
  const minutes = minutesSince(since, now);
  if (minutes < 1) return 'recién';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')}`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

const count = new Intl.NumberFormat('es-PE', { maximumFractionDigits: 0 });

/** "1 comanda", "12 comandas", "29,271 comandas": thousands grouped as the page's amounts are. */
export function plural(n: number, one: string, many: string): string {
  return `${count.format(n)} ${n === 1 ? one : many}`;
}
