/**
 * The rules of "Cobrar", without DOM (unit tested in cobrar-rules.spec.ts): what a payment being
 * typed would do to the bill before it is sent (what is applied, the change, whether it settles
 * the bill) and the body it sends. Money is in céntimos (money.ts), never floating point.
 *
 * The service decides (POST /comandas/{id}/pagos): a payment not in cash is at most the
 * balance; in cash an amount that reaches `saldo_efectivo` (the balance rounded down to S/ 0.10)
 * settles the bill and applies exactly that, the rest is change; `recibido − vuelto = monto +
 * propina`, and without `recibido` what was handed over is the amount and the tip. The page only
 * shows what that will be, and sends what was typed.
 */
import type { ComandaDetail, Schemas } from '../api';
import {
  amountText,
  centimosOf,
  formatCentimos,
  parseAmount,
  toAmount,
  type Centimos,
} from '../money';

export type Metodo = Schemas['MetodoPagoDto'];
export type Pago = Schemas['PagoDto'];
export type PagoBody = Schemas['PagoInput'];

/** What the form holds: the inputs' text. */
export interface TenderDraft {
  monto: string;
  propina: string;
  /** Cash only: what the customer handed over ('' = exactly the amount and the tip). */
  recibido: string;
  /** Not cash: the voucher or operation number. */
  referencia: string;
}

export type TenderField = 'monto' | 'propina' | 'recibido';

/** The bill's balance, in céntimos. */
export interface Balance {
  saldo: Centimos;
  saldoEfectivo: Centimos;
}

export function balanceOf(detail: Pick<ComandaDetail, 'saldo' | 'saldo_efectivo'>): Balance {
  return {
    saldo: centimosOf(detail.saldo ?? 0),
    saldoEfectivo: centimosOf(detail.saldo_efectivo ?? detail.saldo ?? 0),
  };
}

export function isCash(metodo: Pick<Metodo, 'tipo'> | undefined): boolean {
  return metodo?.tipo === 'efectivo';
}

/** The amount the form proposes: the balance, or in cash the cash balance. */
export function defaultMonto(balance: Balance, cash: boolean): string {
  const value = cash ? balance.saldoEfectivo : balance.saldo;
  return value > 0 ? amountText(value) : '';
}

export function emptyDraft(balance: Balance, cash: boolean): TenderDraft {
  return { monto: defaultMonto(balance, cash), propina: '', recibido: '', referencia: '' };
}

/** What the payment typed would do, or why it cannot be sent. */
export interface TenderCheck {
  /** The errors by field, in a few words; empty when it can be sent. */
  errors: Partial<Record<TenderField, string>>;
  /** What the bill takes of it. */
  aplicado: Centimos;
  propina: Centimos;
  /** Cash: what was handed over (typed, or the amount and the tip). */
  recibido: Centimos | null;
  /** Cash: the change to give back. */
  vuelto: Centimos;
  /** Whether it leaves nothing to pay. */
  settles: boolean;
}

const amountError = 'Importe no válido';

/**
 * The payment typed, against the balance: what is applied, the change, whether it settles the
 * bill (then "Cobrar y cerrar" can take it and close in one go), or the errors to show at the
 * fields.
 */
export function checkTender(balance: Balance, cash: boolean, draft: TenderDraft): TenderCheck {
  const errors: TenderCheck['errors'] = {};
  const monto = parseAmount(draft.monto);
  const propina = draft.propina.trim() === '' ? 0 : parseAmount(draft.propina);
  const typed = draft.recibido.trim() === '' ? null : parseAmount(draft.recibido);
  if (monto === null) errors.monto = draft.monto.trim() === '' ? 'Indique el monto' : amountError;
  else if (monto <= 0) errors.monto = 'El monto debe ser mayor que cero';
  if (propina === null) errors.propina = amountError;
  if (cash && draft.recibido.trim() !== '' && typed === null) errors.recibido = amountError;

  const m = monto ?? 0;
  const p = propina ?? 0;
  let aplicado: Centimos;
  if (balance.saldo <= 0) {
    aplicado = 0;
    if (!errors.monto) errors.monto = 'No queda saldo por cobrar';
  } else if (!cash) {
    aplicado = m;
    if (!errors.monto && m > balance.saldo)
      errors.monto = `Más que el saldo (${formatCentimos(balance.saldo)}): solo el efectivo da vuelto`;
  } else if (balance.saldoEfectivo > 0 && m >= balance.saldoEfectivo) {
    aplicado = balance.saldoEfectivo;
  } else {
    aplicado = Math.min(m, balance.saldo);
  }

  let recibido: Centimos | null = null;
  let vuelto = 0;
  if (cash) {
    recibido = typed ?? m + p;
    vuelto = recibido - aplicado - p;
    if (!errors.recibido && !errors.monto && typed !== null && vuelto < 0)
      errors.recibido = `Faltan ${formatCentimos(-vuelto)}`;
    vuelto = Math.max(vuelto, 0);
  }
  const settles =
    Object.keys(errors).length === 0 &&
    balance.saldo > 0 &&
    (aplicado >= balance.saldo || (cash && aplicado === balance.saldoEfectivo));
  return { errors, aplicado, propina: p, recibido, vuelto, settles };
}

/** The body of POST /comandas/{id}/pagos (and of each of PUT's `pagos`) for what was typed. */
export function pagoBody(
  metodo: Metodo,
  draft: TenderDraft,
  idCaja: number | null = null,
): PagoBody {
  const cash = isCash(metodo);
  const propina = draft.propina.trim() === '' ? 0 : (parseAmount(draft.propina) ?? 0);
  const recibido = cash && draft.recibido.trim() !== '' ? parseAmount(draft.recibido) : null;
  const referencia = draft.referencia.trim();
  return {
    id_metodo_pago: metodo.id_metodo_pago,
    monto: toAmount(parseAmount(draft.monto) ?? 0),
    ...(propina > 0 ? { propina: toAmount(propina) } : {}),
    ...(recibido !== null ? { recibido: toAmount(recibido) } : {}),
    ...(!cash && referencia ? { referencia } : {}),
    ...(idCaja !== null ? { id_caja: idCaja } : {}),
  };
}

/** The bill's payment state as people say it. */
export const ESTADO_PAGO: Record<NonNullable<ComandaDetail['estado_pago']>, string> = {
  pendiente: 'Por cobrar',
  pagada: 'Pagada',
  reembolso_parcial: 'Reembolso parcial',
  reembolsada: 'Reembolsada',
};

/** One payment in a line: `recibido S/ 100.00 · vuelto S/ 45.00`, or its voucher. */
export function pagoDetalle(pago: Pago, soles: (n: number) => string): string {
  const parts: string[] = [];
  if (pago.recibido !== null) {
    parts.push(`recibido ${soles(pago.recibido)}`);
    if (pago.vuelto > 0) parts.push(`vuelto ${soles(pago.vuelto)}`);
  }
  if (pago.referencia) parts.push(pago.referencia);
  if (pago.estado === 'anulado' && pago.motivo_anulacion)
    parts.push(`anulado: ${pago.motivo_anulacion}`);
  return parts.join(' · ');
}

/** How a bill was paid, in a line: `Efectivo S/ 50.00 · Tarjeta S/ 35.25` (voided ones left out). */
export function pagosResumen(pagos: readonly Pago[], soles: (n: number) => string): string {
  return pagos
    .filter((p) => p.estado === 'aplicado')
    .map((p) => `${p.metodo} ${soles(p.monto)}`)
    .join(' · ');
}

/** A discount typed: a percentage (0–100) or an amount, both with at most two decimals. */
export function checkDescuento(
  tipo: 'porcentaje' | 'monto',
  valor: string,
  motivo: string,
): { errors: { valor?: string; motivo?: string }; valor: number } {
  const errors: { valor?: string; motivo?: string } = {};
  const parsed = parseAmount(valor);
  if (parsed === null) errors.valor = valor.trim() === '' ? 'Indique el valor' : amountError;
  else if (tipo === 'porcentaje' && parsed > 10_000) errors.valor = 'Como mucho 100 %';
  if (!motivo.trim()) errors.motivo = 'Indique el motivo';
  return { errors, valor: parsed === null ? 0 : toAmount(parsed) };
}
