/** How the page writes money, times and names (es-PE style, the tenant's own offsets). */

const money = new Intl.NumberFormat('es-PE', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function soles(value: number): string {
  return `S/ ${money.format(value)}`;
}

/** An instant as the API sent it (ISO with the tenant's offset): its local date and time. */
export function when(iso: string | null): string {
  if (!iso) return '—';
  const [date, time] = iso.split('T');
  return `${date} ${time.slice(0, 5)}`;
}

export function hora(iso: string): string {
  return iso.split('T')[1]?.slice(0, 5) ?? iso;
}

export function cantidad(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/0+$/, '');
}
