import type { Schemas } from '../api';

/** A kitchen ticket (GET /cocina/envios). */
export type Envio = Schemas['EnvioDto'];
/** A station (GET /cocina/estaciones). */
export type Estacion = Schemas['EstacionDto'];
export type EstadoCocina = NonNullable<Schemas['EnvioLineaDto']['estado_cocina']>;

/** A line's kitchen state, as the floor reads it. */
export const ESTADO_COCINA: Record<EstadoCocina, string> = {
  pendiente: 'pendiente',
  enviado: 'enviado',
  en_preparacion: 'en preparación',
  listo: 'listo',
  entregado: 'entregado',
};

export const TIPO_ENVIO: Record<Envio['tipo'], string> = {
  nuevo: 'Nuevo',
  adicional: 'Adicional',
  anulacion: 'ANULACIÓN',
};

export type Alerta = 'ok' | 'amarilla' | 'roja';

/** Whole minutes between `since` and `now` (never negative). */
export function minutesSince(since: string, now: number): number {
  return Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
}

/** A timer's colour: yellow from the station's alerta_amarilla_min, red from alerta_roja_min. */
export function alerta(
  minutes: number,
  estacion: Pick<Estacion, 'alerta_amarilla_min' | 'alerta_roja_min'>,
): Alerta {
  if (minutes >= estacion.alerta_roja_min) return 'roja';
  if (minutes >= estacion.alerta_amarilla_min) return 'amarilla';
  return 'ok';
}

/** A timer as a cook reads it: "4 min", "1 h 05", "2 d" past a day. */
export function duration(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60)
    return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')}`;
  return `${Math.floor(minutes / (24 * 60))} d`;
}

/** The pending tickets in send order (oldest first, then by id). */
export function inSendOrder(envios: readonly Envio[]): Envio[] {
  return [...envios].sort(
    (a, b) => Date.parse(a.fec_envio) - Date.parse(b.fec_envio) || a.id_envio - b.id_envio,
  );
}

/**
 * The all-day count: per product, Σ of the quantities of the pending tickets (a cancellation
 * takes away), the products still to cook first by quantity, then by name.
 */
export function allDay(envios: readonly Envio[]): { producto: string; cantidad: number }[] {
  const totals = new Map<string, number>();
  for (const e of envios) {
    if (e.estado === 'listo') continue;
    for (const l of e.lineas) totals.set(l.producto, (totals.get(l.producto) ?? 0) + l.cantidad);
  }
  return [...totals]
    .map(([producto, cantidad]) => ({ producto, cantidad: Math.round(cantidad * 1000) / 1000 }))
    .filter((p) => p.cantidad > 0)
    .sort((a, b) => b.cantidad - a.cantidad || a.producto.localeCompare(b.producto));
}

/** A line the kitchen no longer makes: a cancellation's, or one voided since. */
export function struck(linea: Envio['lineas'][number]): boolean {
  return linea.cantidad < 0 || linea.estado_cocina === null;
}

/**
 * The courses of a comanda still held: later courses (2..9) none of whose lines was sent yet
 * (the comanda's detail does not list the courses fired; course 1 goes with "Enviar").
 */
export function heldCourses(
  lineas: readonly { curso?: number; estado_cocina?: EstadoCocina }[],
): number[] {
  const courses = new Map<number, boolean>();
  for (const l of lineas) {
    if (l.estado_cocina === undefined) continue;
    const curso = l.curso ?? 1;
    if (curso <= 1) continue;
    courses.set(curso, (courses.get(curso) ?? true) && l.estado_cocina === 'pendiente');
  }
  return [...courses]
    .filter(([, held]) => held)
    .map(([curso]) => curso)
    .sort((a, b) => a - b);
}

/** For each comanda of the tickets, its later courses still held (from the comandas' lines). */
export function heldMarker(held: readonly number[]): string | null {
  return held.length === 0 ? null : `En espera: curso ${held.join(', ')}`;
}

/** The station kept on this device, when it still exists; else the first preparation one. */
export function pickStation(
  estaciones: readonly Estacion[],
  saved: string | null,
): Estacion | null {
  const active = estaciones.filter((e) => e.activo);
  const kept = active.find((e) => String(e.id_estacion) === saved);
  return kept ?? active.find((e) => e.tipo === 'preparacion') ?? active[0] ?? null;
}
