import { addDays } from '../common/time';
import { MAX_DIAS } from './dto/reportes-input.dto';
import { rangoDemasiadoLargo, rangoInvertido } from './reportes.errors';

/** A report's range of local days, both ends included. */
export interface Rango {
  desde: string;
  hasta: string;
}

/** The first day of the month of `date`, moved by `months` (negative: back). */
export function firstOfMonth(date: string, months = 0): string {
  const [y, m] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1 + months, 1)).toISOString().slice(0, 10);
}

/** Days from `desde` to `hasta`, both included. */
export function daysIn(desde: string, hasta: string): number {
  const at = (date: string) => {
    const [y, m, d] = date.split('-').map(Number);
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((at(hasta) - at(desde)) / 86_400_000) + 1;
}

/** The report defaults: each report's desde as a function of hasta (today by default). */
export const DEFAULT_DESDE = {
  ventas: (hasta: string) => firstOfMonth(hasta),
  gastos: (hasta: string) => firstOfMonth(hasta, -11),
  asistencia: (hasta: string) => addDays(hasta, -29),
} as const;

/**
 * The range of a report from its query (both already checked to be dates): hasta defaults to
 * today, desde to the report's default before hasta. desde after hasta, or more than MAX_DIAS
 * days: 400 VALIDATION_FAILED naming the field.
 */
export function resolveRange(
  query: { desde?: string; hasta?: string },
  today: string,
  defaultDesde: (hasta: string) => string,
): Rango {
  const hasta = query.hasta ?? today;
  const desde = query.desde ?? defaultDesde(hasta);
  if (desde > hasta) throw rangoInvertido(desde, hasta);
  const days = daysIn(desde, hasta);
  if (days > MAX_DIAS) throw rangoDemasiadoLargo(days);
  return { desde, hasta };
}
