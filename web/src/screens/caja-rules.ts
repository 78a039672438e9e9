/**
 * The rules of the Caja screen, without DOM (unit tested in caja-rules.spec.ts): which methods a
 * report shows, the cash count by denomination, the count typed at the close and the body it
 * sends, and the difference against what was expected. Money is in céntimos (money.ts).
 */
import type { Schemas } from '../api';
import { centimosOf, parseAmount, toAmount, total, type Centimos } from '../money';

export type Reporte = Schemas['ReporteCajaDto'];
export type ReporteMetodo = Schemas['ReporteMetodoDto'];
export type Sesion = Schemas['SesionCajaDto'];
export type Caja = Schemas['CajaDto'];
export type CerrarBody = Schemas['CerrarSesionBody'];

/** The notes and coins of the sol, largest first, in céntimos. */
export const DENOMINACIONES: readonly Centimos[] = [
  20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10,
];

/** `S/ 200`, `S/ 0.50`: a denomination as printed on it. */
export function denominacionLabel(value: Centimos): string {
  return value % 100 === 0 ? `S/ ${value / 100}` : `S/ 0.${String(value % 100).padStart(2, '0')}`;
}

/**
 * The methods a report shows: the one counted in the till always, any other only when it took
 * or gave back money in the session (or, in a Z, was counted other than expected).
 */
export function metodosShown(reporte: Pick<Reporte, 'metodos'>): ReporteMetodo[] {
  return reporte.metodos.filter(
    (m) =>
      m.cuenta_en_caja ||
      m.pagos > 0 ||
      m.reembolsos !== 0 ||
      m.ventas !== 0 ||
      (m.diferencia ?? 0) !== 0,
  );
}

/** How many of each denomination were counted: the inputs' text by denomination. */
export type Conteo = Partial<Record<Centimos, string>>;

/** A count of notes or coins: a whole number, 0 when empty, null when it is not one. */
export function cantidadOf(text: string | undefined): number | null {
  const t = (text ?? '').trim();
  if (t === '') return 0;
  return /^\d{1,6}$/.test(t) ? Number.parseInt(t, 10) : null;
}

/** The cash a count by denomination adds up to (céntimos), or null while a count is not a number. */
export function conteoTotal(conteo: Conteo): Centimos | null {
  const parts: Centimos[] = [];
  for (const d of DENOMINACIONES) {
    const n = cantidadOf(conteo[d]);
    if (n === null) return null;
    parts.push(d * n);
  }
  return total(parts);
}

/** The denominations counted (those with a quantity), as the close sends them. */
export function conteoBody(conteo: Conteo): { denominacion: number; cantidad: number }[] {
  const counted: { denominacion: number; cantidad: number }[] = [];
  for (const d of DENOMINACIONES) {
    const cantidad = cantidadOf(conteo[d]);
    if (cantidad) counted.push({ denominacion: toAmount(d), cantidad });
  }
  return counted;
}

/** `contado − esperado` of a method (céntimos), or null while nothing valid was typed. */
export function diferencia(esperado: number, contado: string): Centimos | null {
  const c = parseAmount(contado);
  return c === null ? null : c - centimosOf(esperado);
}

/** The close as typed: what was counted per method (text), the denominations, a note. */
export interface CloseDraft {
  contado: Record<number, string>;
  /** Counted by denomination: the cash method's amount is their sum. */
  porDenominacion: boolean;
  conteo: Conteo;
  nota: string;
}

/**
 * The body of POST /sesiones-caja/{id}/cerrar, or the errors by method: the cash counted is
 * required (typed, or the sum of its denominations); another method left empty is taken by the
 * service as counted equal to what was expected.
 */
export function closeBody(
  metodos: ReporteMetodo[],
  draft: CloseDraft,
): { body: CerrarBody | null; errors: Record<number, string> } {
  const errors: Record<number, string> = {};
  const contado: CerrarBody['contado'] = [];
  for (const m of metodos) {
    const text = (draft.contado[m.id_metodo_pago] ?? '').trim();
    if (m.cuenta_en_caja && draft.porDenominacion) {
      const sum = conteoTotal(draft.conteo);
      if (sum === null) errors[m.id_metodo_pago] = 'Revise las cantidades';
      else contado.push({ id_metodo_pago: m.id_metodo_pago, monto: toAmount(sum) });
      continue;
    }
    if (text === '') {
      if (m.cuenta_en_caja) errors[m.id_metodo_pago] = 'Cuente el efectivo';
      continue;
    }
    const value = parseAmount(text);
    if (value === null) errors[m.id_metodo_pago] = 'Importe no válido';
    else contado.push({ id_metodo_pago: m.id_metodo_pago, monto: toAmount(value) });
  }
  if (Object.keys(errors).length > 0) return { body: null, errors };
  const conteo = draft.porDenominacion ? conteoBody(draft.conteo) : [];
  const nota = draft.nota.trim();
  return {
    body: {
      contado,
      ...(conteo.length > 0 ? { conteo } : {}),
      ...(nota ? { nota } : {}),
    },
    errors,
  };
}
