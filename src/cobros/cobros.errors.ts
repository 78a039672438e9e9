import { defineError } from '../common/errors/error-catalogue';
import { validationFailed } from '../common/validation';

/** The error codes of payments, tills and their sessions (docs/cobros.md). */

export const cajaNotFound = defineError({
  status: 404,
  code: 'CAJA_NOT_FOUND',
  summary: 'No till has this id',
  en: (id: number) => `Caja ${id} does not exist`,
  es: (id) => `La caja ${id} no existe`,
  detail: (id) => ({ id_caja: id }),
  example: [9],
});

export const unknownCaja = defineError({
  status: 400,
  code: 'CAJA_NOT_FOUND',
  name: 'UNKNOWN_CAJA',
  summary: 'id_caja names no till',
  en: (id: number) => `Caja ${id} does not exist`,
  es: (id) => `La caja ${id} no existe`,
  detail: (id) => ({ id_caja: id }),
  example: [9],
});

export const sesionNotFound = defineError({
  status: 404,
  code: 'SESION_NOT_FOUND',
  summary: 'No till session has this id',
  en: (id: number) => `Sesión de caja ${id} does not exist`,
  es: (id) => `La sesión de caja ${id} no existe`,
  detail: (id) => ({ id_sesion: id }),
  example: [999],
});

export const sesionYaAbierta = defineError({
  status: 409,
  code: 'SESION_YA_ABIERTA',
  summary: 'The till has an open session already',
  en: (idCaja: number, idSesion: number) =>
    `Caja ${idCaja} already has an open session (${idSesion}): close it first`,
  es: (idCaja, idSesion) =>
    `La caja ${idCaja} ya tiene una sesión abierta (${idSesion}): ciérrela primero`,
  detail: (idCaja, idSesion) => ({ id_caja: idCaja, id_sesion: idSesion }),
  example: [1, 12],
});

/** What a closed session refuses. */
export type SesionCerradaMotivo = 'movements' | 'closed' | 'payments-final' | 'paid-comanda';

const SESION_CERRADA: Record<SesionCerradaMotivo, { en: string; es: string }> = {
  movements: { en: 'it takes no more movements', es: 'no admite más movimientos' },
  closed: { en: 'it was closed already', es: 'ya se cerró' },
  'payments-final': {
    en: 'its payments are final (refund after closing)',
    es: 'sus pagos son definitivos (después del cierre se reembolsa)',
  },
  'paid-comanda': {
    en: 'a comanda paid in it stays closed (a refund is the way to give money back)',
    es: 'una comanda pagada en ella sigue cerrada (para devolver dinero, haga un reembolso)',
  },
};

export const sesionCerrada = defineError({
  status: 409,
  code: 'SESION_CERRADA',
  summary: 'The session is closed: it never changes',
  en: (idSesion: number, why: SesionCerradaMotivo) =>
    `Sesión de caja ${idSesion} is closed: ${SESION_CERRADA[why].en}`,
  es: (idSesion, why) => `La sesión de caja ${idSesion} está cerrada: ${SESION_CERRADA[why].es}`,
  detail: (idSesion) => ({ id_sesion: idSesion }),
  example: [12, 'movements'],
});

export const sinSesionAbierta = defineError({
  status: 409,
  code: 'SIN_SESION_ABIERTA',
  summary: 'No open till session takes the money',
  en: (idCaja?: number) =>
    idCaja === undefined
      ? 'No till has an open session: open one first (POST /api/v1/cajas/{id}/sesiones)'
      : `Caja ${idCaja} has no open session: open one first`,
  es: (idCaja) =>
    idCaja === undefined
      ? 'Ninguna caja tiene una sesión abierta: abra una primero (POST /api/v1/cajas/{id}/sesiones)'
      : `La caja ${idCaja} no tiene una sesión abierta: abra una primero`,
  detail: (idCaja) => (idCaja === undefined ? undefined : { id_caja: idCaja }),
  example: [1],
});

export const cajaRequerida = defineError({
  status: 400,
  code: 'CAJA_REQUERIDA',
  summary: 'Several tills are open: name one with id_caja',
  en: () => 'Several tills have an open session and none was opened by you: say which with id_caja',
  es: () =>
    'Varias cajas tienen una sesión abierta y ninguna la abrió usted: indique cuál con id_caja',
  example: [],
});

export const metodoNotFound = defineError({
  status: 400,
  code: 'METODO_PAGO_NOT_FOUND',
  summary: 'id_metodo_pago names no method in use',
  en: (id: number) => `Payment method ${id} does not exist or is not in use`,
  es: (id) => `El método de pago ${id} no existe o no está en uso`,
  detail: (id) => ({ id_metodo_pago: id }),
  example: [9],
});

export const recibidoSoloEfectivo = defineError({
  status: 400,
  code: 'RECIBIDO_SOLO_EFECTIVO',
  summary: 'recibido with a method that is not cash',
  en: () => 'recibido is for cash only: a card or wallet payment is exactly its monto',
  es: () =>
    'recibido es solo para efectivo: un pago con tarjeta o billetera es exactamente su monto',
  example: [],
});

/** The amounts as PostgreSQL gives them (numeric text); the tip as sent. */
export const recibidoInsuficiente = defineError({
  status: 400,
  code: 'RECIBIDO_INSUFICIENTE',
  summary: 'The cash handed over is less than the amount and the tip',
  en: (recibido: string, aplicado: string, propina: number) =>
    `recibido (${recibido}) does not cover the amount applied (${aplicado}) and the tip (${propina})`,
  es: (recibido, aplicado, propina) =>
    `recibido (${recibido}) no cubre el monto aplicado (${aplicado}) y la propina (${propina})`,
  detail: (recibido, aplicado, propina) => ({
    recibido: Number(recibido),
    monto: Number(aplicado),
    propina,
  }),
  example: ['50', '64.50', 0],
});

/** Whether a numeric text (as PostgreSQL gives it) is above zero. */
const positive = (amount: string) => !amount.startsWith('-') && /[1-9]/.test(amount);

export const pagoExcedeSaldo = defineError({
  status: 409,
  code: 'PAGO_EXCEDE_SALDO',
  summary: 'Not cash, above the balance (or nothing is due)',
  en: (saldo: string) =>
    positive(saldo)
      ? `The payment is above the balance (${saldo}): only cash may exceed it (the rest is change)`
      : 'Nothing is due on this comanda',
  es: (saldo) =>
    positive(saldo)
      ? `El pago supera el saldo (${saldo}): solo el efectivo puede superarlo (el resto es vuelto)`
      : 'Esta comanda no tiene nada por pagar',
  detail: (saldo) => ({ saldo: Number(saldo) }),
  example: ['14.50'],
});

export const saldoPendiente = defineError({
  status: 409,
  code: 'SALDO_PENDIENTE',
  summary: 'The applied payments do not equal the amount due',
  en: (saldo: string) =>
    positive(saldo)
      ? `The comanda still owes ${saldo}: pay it before closing (or pay and close in one PUT with pagos)`
      : `The payments exceed the bill by ${saldo.replace('-', '')}: void a payment before closing`,
  es: (saldo) =>
    positive(saldo)
      ? `La comanda todavía debe ${saldo}: cóbrela antes de cerrarla (o cobre y cierre en un solo PUT con pagos)`
      : `Los pagos superan la cuenta en ${saldo.replace('-', '')}: anule un pago antes de cerrarla`,
  detail: (saldo) => ({ saldo: Number(saldo) }),
  example: ['14.50'],
});

export const pagoNotFound = defineError({
  status: 404,
  code: 'PAGO_NOT_FOUND',
  summary: 'The comanda has no payment with this id',
  en: (idComanda: number, idPago: number) => `Comanda ${idComanda} has no payment ${idPago}`,
  es: (idComanda, idPago) => `La comanda ${idComanda} no tiene el pago ${idPago}`,
  detail: (idComanda, idPago) => ({ id_comanda: idComanda, id_pago: idPago }),
  example: [301, 9],
});

export const pagoAnulado = defineError({
  status: 409,
  code: 'PAGO_ANULADO',
  summary: 'The payment is voided',
  en: (idPago: number) => `Payment ${idPago} is voided`,
  es: (idPago) => `El pago ${idPago} está anulado`,
  detail: (idPago) => ({ id_pago: idPago }),
  example: [88],
});

/** The motivo of a void: the shared 400 VALIDATION_FAILED, naming the field. */
export const motivoRequerido = () => validationFailed(['motivo is required']);

export const comandaConPagos = defineError({
  status: 409,
  code: 'COMANDA_CON_PAGOS',
  summary: 'The comanda has applied payments (void them first)',
  en: (idComanda: number, action: string) =>
    `Comanda ${idComanda} has applied payments: void them before you ${action} it`,
  es: (idComanda, action) =>
    `La comanda ${idComanda} tiene pagos aplicados: anúlelos antes de ${action}`,
  detail: (idComanda, action) => ({ id_comanda: idComanda, action }),
  example: [301, 'eliminar'],
});

export const comandaReembolsada = defineError({
  status: 409,
  code: 'COMANDA_REEMBOLSADA',
  summary: 'A comanda with refunds is not reopened',
  en: (idComanda: number) => `Comanda ${idComanda} has refunds: it stays closed`,
  es: (idComanda) => `La comanda ${idComanda} tiene reembolsos: queda cerrada`,
  detail: (idComanda) => ({ id_comanda: idComanda }),
  example: [301],
});

export const pagosWithoutCerrar = defineError({
  status: 400,
  code: 'PAGOS_WITHOUT_CERRAR',
  summary: 'pagos goes with the action cerrar only',
  en: () => 'pagos goes with {"action": "cerrar"} only: it pays and closes in one step',
  es: () => 'pagos va solo con {"action": "cerrar"}: cobra y cierra en un solo paso',
  example: [],
});

export const reembolsoExcedePago = defineError({
  status: 409,
  code: 'REEMBOLSO_EXCEDE_PAGO',
  summary: 'The refunds of a payment would exceed its monto',
  en: (idPago: number, disponible: string) => `Payment ${idPago} has ${disponible} left to refund`,
  es: (idPago, disponible) => `Al pago ${idPago} le quedan ${disponible} por reembolsar`,
  detail: (idPago, disponible) => ({ id_pago: idPago, disponible: Number(disponible) }),
  example: [88, '32.00'],
});

export const reembolsoLineas = defineError({
  status: 400,
  code: 'INVALID_REFUND_LINES',
  summary: 'A listed line is not the comanda’s, or asks for more than it holds',
  en: (_problems: { id_item: number; reason: string }[]) => 'Cannot refund these lines',
  es: () => 'No se pueden reembolsar estas líneas',
  detail: (problems) => ({ lineas: problems }),
  example: [[{ id_item: 977, reason: 'asks for more than the line holds' }]],
});

export const descuentoExcede = defineError({
  status: 400,
  code: 'DESCUENTO_EXCEDE',
  summary: 'Above 100 % or above the sum of the lines',
  en: () =>
    'The discount is above the comanda’s lines: a percentage is at most 100, an amount at most the sum of the lines',
  es: () =>
    'El descuento supera las líneas de la comanda: un porcentaje es como máximo 100, y un monto, como máximo la suma de las líneas',
  example: [],
});

export const comandasAbiertasConPagos = defineError({
  status: 409,
  code: 'SESION_CON_COMANDAS_ABIERTAS',
  summary: 'A comanda paid in the session is still abierta',
  en: (idSesion: number, comandas: number[]) =>
    `Sesión de caja ${idSesion} has open comandas with payments (${comandas.join(', ')}): close or void them first`,
  es: (idSesion, comandas) =>
    `La sesión de caja ${idSesion} tiene comandas abiertas con pagos (${comandas.join(', ')}): ciérrelas o anúlelas primero`,
  detail: (idSesion, comandas) => ({ id_sesion: idSesion, comandas }),
  example: [12, [301]],
});

export const contadoInvalido = defineError({
  status: 400,
  code: 'INVALID_COUNT',
  summary: 'The count names an unknown method, lacks the cash, or disagrees with conteo',
  en: (_problems: string[]) => 'Cannot close with this count',
  es: () => 'No se puede cerrar la caja con este conteo',
  detail: (problems) => problems,
  example: [['contado must give the cash method 1 (Efectivo), or conteo its denominations']],
});

export const diferenciaSobreTolerancia = defineError({
  status: 403,
  code: 'DIFERENCIA_SOBRE_TOLERANCIA',
  summary: 'A difference above the tolerance needs caja:approve-difference',
  en: (tolerancia: string) =>
    `A difference above the tolerance (${tolerancia}) needs the permission caja:approve-difference (an admin)`,
  es: (tolerancia) =>
    `Una diferencia mayor que la tolerancia (${tolerancia}) necesita el permiso caja:approve-difference (un administrador)`,
  detail: (tolerancia) => ({ tolerancia: Number(tolerancia) }),
  example: ['5.00'],
});
