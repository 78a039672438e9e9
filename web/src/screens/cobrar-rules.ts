/**
 * The rules of "Cobrar", without DOM (unit tested in cobrar-rules.spec.ts): the amount the form
 * proposes, the body of the payment typed, and the service's answers in words: its dry run of
 * that payment (POST /comandas/{id}/pagos/simulacion) and its refusals, each at its field.
 *
 * What a payment does to the bill is the service's alone (POST /comandas/{id}/pagos): what is
 * applied, the rounding to S/ 0.10 in cash, the change, whether it settles the bill. The page
 * asks the dry run while the cashier types and shows its answer; nothing of it is worked out
 * here. Money typed is read in céntimos (money.ts), never floating point.
 */
import { ApiError, validationFieldErrors, type ComandaDetail, type Schemas } from '../api';
import { amountText, centimosOf, formatCentimos, parseAmount, toAmount } from '../money';

export type Metodo = Schemas['MetodoPagoDto'];
export type Pago = Schemas['PagoDto'];
export type PagoBody = Schemas['PagoInput'];
/** What the payment typed would do, as the service worked it out. */
export type Simulacion = Schemas['SimulacionPagoDto'];

/** What the form holds: the inputs' text. */
export interface TenderDraft {
  monto: string;
  propina: string;
  /** Cash only: what the customer handed over ('' = exactly the amount and the tip). */
  recibido: string;
  /** Not cash: the voucher or operation number. */
  referencia: string;
}

export type TenderField = keyof TenderDraft;

/** A message per field, in a few words. */
export type FieldErrors = Partial<Record<TenderField, string>>;

export function isCash(metodo: Pick<Metodo, 'tipo'> | undefined): boolean {
  return metodo?.tipo === 'efectivo';
}

/** The amount the form proposes: the bill's balance, in cash its cash balance, as it has them. */
export function defaultMonto(
  detail: Pick<ComandaDetail, 'saldo' | 'saldo_efectivo'>,
  cash: boolean,
): string {
  const value = centimosOf((cash ? detail.saldo_efectivo : undefined) ?? detail.saldo ?? 0);
  return value > 0 ? amountText(value) : '';
}

export function emptyDraft(
  detail: Pick<ComandaDetail, 'saldo' | 'saldo_efectivo'>,
  cash: boolean,
): TenderDraft {
  return { monto: defaultMonto(detail, cash), propina: '', recibido: '', referencia: '' };
}

const amountError = 'Importe no válido';

/**
 * What keeps the form from sending what was typed: a field that is not an amount, or no amount
 * at all. Everything else (too much, a short note) is the service's to say.
 */
export function draftErrors(draft: TenderDraft, cash: boolean): FieldErrors {
  const errors: FieldErrors = {};
  const monto = parseAmount(draft.monto);
  if (monto === null) errors.monto = draft.monto.trim() === '' ? 'Indique el monto' : amountError;
  else if (monto === 0) errors.monto = 'El monto debe ser mayor que cero';
  if (draft.propina.trim() !== '' && parseAmount(draft.propina) === null)
    errors.propina = amountError;
  if (cash && draft.recibido.trim() !== '' && parseAmount(draft.recibido) === null)
    errors.recibido = amountError;
  return errors;
}

/**
 * The body of POST /comandas/{id}/pagos (and of its dry run, and of each of PUT's `pagos`) for
 * what was typed; null while draftErrors has something to say.
 */
export function pagoBody(
  metodo: Metodo,
  draft: TenderDraft,
  idCaja: number | null = null,
): PagoBody | null {
  const cash = isCash(metodo);
  if (Object.keys(draftErrors(draft, cash)).length > 0) return null;
  const propina = parseAmount(draft.propina) ?? 0;
  const recibido = cash ? parseAmount(draft.recibido) : null;
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

/** A number of the error's `detail`, or 0. */
function detailNumber(detail: unknown, name: string): number {
  const value = (detail as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'number' ? value : 0;
}

/**
 * The service's refusal of the payment typed (its dry run answers what the payment would), at
 * the field it is about: more than the balance by card, a note short of the amount and the tip
 * (by how much, from the figures the refusal gives), a field out of its range. Empty for a
 * refusal about no field (no till open, the comanda closed meanwhile ...).
 */
export function refusalFields(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  switch (error.code) {
    case 'PAGO_EXCEDE_SALDO': {
      const saldo = detailNumber(error.detail, 'saldo');
      return {
        monto:
          saldo > 0
            ? `Más que el saldo (${formatCentimos(centimosOf(saldo))}): solo el efectivo da vuelto`
            : 'No queda saldo por cobrar',
      };
    }
    case 'RECIBIDO_INSUFICIENTE': {
      const falta =
        centimosOf(detailNumber(error.detail, 'monto')) +
        centimosOf(detailNumber(error.detail, 'propina')) -
        centimosOf(detailNumber(error.detail, 'recibido'));
      return { recibido: `Faltan ${formatCentimos(falta)}` };
    }
    case 'VALIDATION_FAILED':
      return validationFieldErrors(error.detail, ['monto', 'propina', 'recibido', 'referencia']);
    default:
      return {};
  }
}

/** What remains after the payment, as the service worked it out. */
export function despuesText(simulacion: Pick<Simulacion, 'salda' | 'saldo'>): string {
  return simulacion.salda
    ? 'Con este pago la cuenta queda pagada.'
    : `Después de este pago quedan ${formatCentimos(centimosOf(simulacion.saldo))}.`;
}

/** The rounding cash is granted, when this payment gets one (the bill's `redondeo` after it). */
export function redondeoText(simulacion: Pick<Simulacion, 'monto' | 'redondeo'>): string | null {
  const redondeo = centimosOf(simulacion.redondeo);
  if (redondeo === 0) return null;
  return (
    `En efectivo se cobra ${formatCentimos(centimosOf(simulacion.monto))}: redondeo de ` +
    `${formatCentimos(Math.abs(redondeo))} a favor del cliente.`
  );
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
