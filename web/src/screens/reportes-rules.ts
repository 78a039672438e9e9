/**
 * The rules of the Reportes screen, without DOM (unit tested in reportes-rules.spec.ts): the
 * periods of the preset buttons in the tenant's calendar, how a period's sales over time are
 * grouped, the top products, the cells of the week's heat map, how the charts' figures and axes
 * read, and the names of the CSV files. Every figure is the API's: nothing here adds up money.
 */
import type { Schemas } from '../api';
import { addDays, daysBetween, isDate } from '../dates';
import { soles } from '../format';

export type ReporteVentas = Schemas['ReporteVentasDto'];
export type ReporteGastos = Schemas['ReporteGastosDto'];
export type ReporteAsistencia = Schemas['ReporteAsistenciaDto'];

/** A period as the report routes take it: whole days of the tenant's calendar, both included. */
export interface Rango {
  desde: string;
  hasta: string;
}

export type Preset = 'hoy' | 'semana' | 'mes' | 'doce_meses';

export const PRESETS: readonly { preset: Preset; label: string }[] = [
  { preset: 'hoy', label: 'Hoy' },
  { preset: 'semana', label: 'Esta semana' },
  { preset: 'mes', label: 'Este mes' },
  { preset: 'doce_meses', label: 'Últimos 12 meses' },
];

/** 1 (Monday) … 7 (Sunday) of a calendar date, as PostgreSQL's `isodow`. */
export function isoDow(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return day === 0 ? 7 : day;
}

/**
 * A preset's period up to `today` (the tenant's date, `todayIn(tenant.timeZone)`): today; the
 * week so far from its Monday; the month so far; the last twelve calendar months (the current
 * one so far and the eleven before it, whole), so that a month's figures are never cut.
 */
export function rangoDe(preset: Preset, today: string): Rango {
  switch (preset) {
    case 'hoy':
      return { desde: today, hasta: today };
    case 'semana':
      return { desde: addDays(today, 1 - isoDow(today)), hasta: today };
    case 'mes':
      return { desde: `${today.slice(0, 7)}-01`, hasta: today };
    case 'doce_meses': {
      const [y, m] = today.split('-').map(Number);
      const months = y * 12 + (m - 1) - 11;
      const year = Math.floor(months / 12);
      const month = (months % 12) + 1;
      return { desde: `${year}-${String(month).padStart(2, '0')}-01`, hasta: today };
    }
  }
}

/**
 * The preset whose period this is today (its button shows pressed), or null for other dates.
 * Two presets can be the same period (on the 1st, this month is today; on a Monday, this week
 * is): the one chosen last wins, else the first that matches.
 */
export function presetDe(rango: Rango, today: string, elegido?: Preset | null): Preset | null {
  const matches = (preset: Preset) => {
    const r = rangoDe(preset, today);
    return r.desde === rango.desde && r.hasta === rango.hasta;
  };
  if (elegido && matches(elegido)) return elegido;
  return PRESETS.find(({ preset }) => matches(preset))?.preset ?? null;
}

/** What is wrong with the dates typed, in Spanish, or null. */
export function problemaDeRango(rango: Rango): string | null {
  if (!isDate(rango.desde) || !isDate(rango.hasta)) return 'Indique las fechas desde y hasta';
  if (rango.desde > rango.hasta) return 'La fecha desde es posterior a la fecha hasta';
  return null;
}

/** How sales over time are grouped for a period. */
export type AgrupacionTiempo = 'hora' | 'dia' | 'semana';

/** Up to this many days the sales over time are drawn day by day; beyond, week by week. */
export const MAX_DIAS_POR_DIA = 62;

/**
 * One day is drawn hour by hour (24 points); up to MAX_DIAS_POR_DIA days (two months) day by
 * day; a longer period week by week (twelve months are 53 points, not 365).
 */
export function agrupacionTiempo(rango: Rango): AgrupacionTiempo {
  const days = daysBetween(rango.desde, rango.hasta) + 1;
  if (days <= 1) return 'hora';
  return days <= MAX_DIAS_POR_DIA ? 'dia' : 'semana';
}

export const TITULO_TIEMPO: Record<AgrupacionTiempo, string> = {
  hora: 'Ventas por hora',
  dia: 'Ventas por día',
  semana: 'Ventas por semana',
};

const MESES = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'set', 'oct', 'nov', 'dic'];

/**
 * A time bucket on the axis, short (the table has the API's `etiqueta`): `03/11` for a day or
 * a week (its Monday), `13:00` for an hour, a month on two lines (`nov` over `26`), so that
 * twelve of them stand level side by side.
 */
export function ejeTiempo(clave: string, agrupar: string): string | string[] {
  if ((agrupar === 'dia' || agrupar === 'semana') && isDate(clave))
    return `${clave.slice(8, 10)}/${clave.slice(5, 7)}`;
  const mes = /^(\d{4})-(\d{2})$/.exec(clave);
  if (agrupar === 'mes' && mes) return [MESES[Number(mes[2]) - 1], mes[1].slice(2)];
  if (agrupar === 'hora' && /^\d{1,2}$/.test(clave)) return horaLabel(clave);
  return clave;
}

/**
 * Whether a bucket of the sales over time is still going on (`hoy`, the tenant's day, falls in
 * it): today, or this week from its Monday. Its sales so far are real but not a whole day's or
 * week's, so the line draws its last stretch dashed instead of showing a fall.
 */
export function enCurso(clave: string, agrupar: string, hoy: string): boolean {
  if (!isDate(clave)) return false;
  if (agrupar === 'dia') return clave === hoy;
  if (agrupar === 'semana') return clave <= hoy && hoy <= addDays(clave, 6);
  return false;
}

/**
 * The `n` rows with the largest `venta_bruta`, largest first; a tie keeps the API's order.
 * Rows without a sale are left out.
 */
export function topPorVentaBruta<T extends { venta_bruta: number }>(filas: readonly T[], n = 10) {
  return filas
    .map((fila, index) => ({ fila, index }))
    .filter(({ fila }) => fila.venta_bruta > 0)
    .sort((a, b) => b.fila.venta_bruta - a.fila.venta_bruta || a.index - b.index)
    .slice(0, n)
    .map(({ fila }) => fila);
}

/** The days of the week as the heat map's rows, Monday first (`isodow` 1 … 7). */
export const DIAS_SEMANA = ['lun', 'mar', 'mié', 'jue', 'vie', 'sáb', 'dom'] as const;
export const DIAS_SEMANA_LARGOS = [
  'lunes',
  'martes',
  'miércoles',
  'jueves',
  'viernes',
  'sábado',
  'domingo',
] as const;

/** A cell of the week's heat map from its row's `clave` (`'<isodow 1-7>-<hour 0-23>'`). */
export function celdaSemanal(clave: string): { dia: number; hora: number } | null {
  const m = /^([1-7])-(\d{1,2})$/.exec(clave);
  if (!m) return null;
  const hora = Number(m[2]);
  return hora <= 23 ? { dia: Number(m[1]), hora } : null;
}

/**
 * The hours the week's heat map shows: from the hour before the first that sold anything to
 * the hour after the last (a cevichería's 10:00 – 23:00 rather than 24 columns of which half
 * are always empty); every hour when nothing was sold.
 */
export function horasVisibles(horasConVenta: readonly number[]): number[] {
  const desde = horasConVenta.length === 0 ? 0 : Math.max(0, Math.min(...horasConVenta) - 1);
  const hasta = horasConVenta.length === 0 ? 23 : Math.min(23, Math.max(...horasConVenta) + 1);
  return Array.from({ length: hasta - desde + 1 }, (_, i) => desde + i);
}

/** `13:00`: an hour of the day (`'13'`, the `clave` of `agrupar=hora`). */
export function horaLabel(hora: number | string): string {
  return `${String(hora).padStart(2, '0')}:00`;
}

/** `lunes 13:00`: a cell of the heat map in words. */
export function celdaLabel(clave: string): string {
  const celda = celdaSemanal(clave);
  return celda ? `${DIAS_SEMANA_LARGOS[celda.dia - 1]} ${horaLabel(celda.hora)}` : clave;
}

/**
 * How light or dark a heat map cell is: its value over the largest, 0 … 1 (0 when nothing was
 * sold at all).
 */
export function intensidad(value: number, max: number): number {
  if (max <= 0 || value <= 0) return 0;
  return Math.min(1, value / max);
}

const WHOLE = new Intl.NumberFormat('es-PE', { maximumFractionDigits: 0 });
const PERCENT = new Intl.NumberFormat('es-PE', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const HOURS = new Intl.NumberFormat('es-PE', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 2,
});

/** The unit of a chart's figures: how its table, tooltips and axis write them. */
export type Unidad = 'soles' | 'porcentaje' | 'horas';

/** A figure as the page writes it: `S/ 1,234.50`, `30.95 %`, `162.5 h`; `—` for none. */
export function valorLabel(value: number | null, unidad: Unidad): string {
  if (value === null || !Number.isFinite(value)) return '—';
  switch (unidad) {
    case 'soles':
      return soles(value);
    case 'porcentaje':
      return `${PERCENT.format(value)} %`;
    case 'horas':
      return `${HOURS.format(value)} h`;
  }
}

/** An axis tick: whole figures, grouped as the page writes money (`S/ 12,500`, `30 %`, `40 h`). */
export function ejeLabel(value: number, unidad: Unidad): string {
  switch (unidad) {
    case 'soles':
      return `S/ ${WHOLE.format(value)}`;
    case 'porcentaje':
      return `${WHOLE.format(value)} %`;
    case 'horas':
      return `${WHOLE.format(value)} h`;
  }
}

/**
 * A name on a bar chart's axis (a product, a waiter): as it is when it fits `max` characters,
 * otherwise on two lines cut between words, the second shortened with `…` when it is still too
 * long. The whole name is in the tooltip and the chart's table.
 */
export function etiquetaCorta(text: string, max = 26): string | string[] {
  const name = text.trim().replace(/\s+/g, ' ');
  if (name.length <= max) return name;
  const cut = (line: string) => {
    if (line.length <= max) return line;
    const head = line.slice(0, max + 1);
    const space = head.lastIndexOf(' ');
    return `${(space > 0 ? head.slice(0, space) : head.slice(0, max - 1)).trim()}…`;
  };
  const words = name.split(' ');
  let first = '';
  while (words.length > 0 && `${first} ${words[0]}`.trim().length <= max)
    first = `${first} ${words.shift()}`.trim();
  if (first === '') return [cut(name)];
  return words.length === 0 ? [first] : [first, cut(words.join(' '))];
}

/** Whether a sales report has anything to draw: at least one comanda in the period. */
export function hayVentas(report: { totales: { comandas: number } }): boolean {
  return report.totales.comandas > 0;
}

/** `reporte-ventas-producto_2026-11-01_2026-11-30.csv`: a CSV download's file name. */
export function archivoCsv(nombre: string, rango: Rango): string {
  return `reporte-${nombre}_${rango.desde}_${rango.hasta}.csv`;
}
