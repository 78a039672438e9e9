import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
} from '../common/errors/domain-error';
import { example } from '../common/http/openapi-errors';
import { validationFailed } from '../common/validation';

/** The error codes of payments, tills and their sessions, as small factories (docs/cobros.md). */

export const cajaNotFound = (id: number) =>
  new NotFoundError(`Caja ${id} does not exist`, 'CAJA_NOT_FOUND', { id_caja: id });

export const unknownCaja = (id: number) =>
  new BadRequestError(`Caja ${id} does not exist`, 'CAJA_NOT_FOUND', { id_caja: id });

export const sesionNotFound = (id: number) =>
  new NotFoundError(`Sesión de caja ${id} does not exist`, 'SESION_NOT_FOUND', { id_sesion: id });

export const sesionYaAbierta = (idCaja: number, idSesion: number) =>
  new ConflictError(
    `Caja ${idCaja} already has an open session (${idSesion}): close it first`,
    'SESION_YA_ABIERTA',
    { id_caja: idCaja, id_sesion: idSesion },
  );

export const sesionCerrada = (idSesion: number, what: string) =>
  new ConflictError(`Sesión de caja ${idSesion} is closed: ${what}`, 'SESION_CERRADA', {
    id_sesion: idSesion,
  });

export const sinSesionAbierta = (idCaja?: number) =>
  new ConflictError(
    idCaja === undefined
      ? 'No till has an open session: open one first (POST /api/v1/cajas/{id}/sesiones)'
      : `Caja ${idCaja} has no open session: open one first`,
    'SIN_SESION_ABIERTA',
    idCaja === undefined ? undefined : { id_caja: idCaja },
  );

export const cajaRequerida = () =>
  new BadRequestError(
    'Several tills have an open session and none was opened by you: say which with id_caja',
    'CAJA_REQUERIDA',
  );

export const metodoNotFound = (id: number) =>
  new BadRequestError(
    `Payment method ${id} does not exist or is not in use`,
    'METODO_PAGO_NOT_FOUND',
    {
      id_metodo_pago: id,
    },
  );

export const recibidoSoloEfectivo = () =>
  new BadRequestError(
    'recibido is for cash only: a card or wallet payment is exactly its monto',
    'RECIBIDO_SOLO_EFECTIVO',
  );

export const recibidoInsuficiente = (recibido: string, aplicado: string, propina: number) =>
  new BadRequestError(
    `recibido (${recibido}) does not cover the amount applied (${aplicado}) and the tip (${propina})`,
    'RECIBIDO_INSUFICIENTE',
    { recibido: Number(recibido), monto: Number(aplicado), propina },
  );

/** Whether a numeric text (as PostgreSQL gives it) is above zero. */
const positive = (amount: string) => !amount.startsWith('-') && /[1-9]/.test(amount);

export const pagoExcedeSaldo = (saldo: string) =>
  new ConflictError(
    positive(saldo)
      ? `The payment is above the balance (${saldo}): only cash may exceed it (the rest is change)`
      : 'Nothing is due on this comanda',
    'PAGO_EXCEDE_SALDO',
    { saldo: Number(saldo) },
  );

export const saldoPendiente = (saldo: string) =>
  new ConflictError(
    positive(saldo)
      ? `The comanda still owes ${saldo}: pay it before closing (or pay and close in one PUT with pagos)`
      : `The payments exceed the bill by ${saldo.replace('-', '')}: void a payment before closing`,
    'SALDO_PENDIENTE',
    { saldo: Number(saldo) },
  );

export const pagoNotFound = (idComanda: number, idPago: number) =>
  new NotFoundError(`Comanda ${idComanda} has no payment ${idPago}`, 'PAGO_NOT_FOUND', {
    id_comanda: idComanda,
    id_pago: idPago,
  });

export const pagoAnulado = (idPago: number) =>
  new ConflictError(`Payment ${idPago} is voided`, 'PAGO_ANULADO', { id_pago: idPago });

export const motivoRequerido = () => validationFailed(['motivo is required']);

export const comandaConPagos = (idComanda: number, action: string) =>
  new ConflictError(
    `Comanda ${idComanda} has applied payments: void them before you ${action} it`,
    'COMANDA_CON_PAGOS',
    { id_comanda: idComanda, action },
  );

export const comandaReembolsada = (idComanda: number) =>
  new ConflictError(`Comanda ${idComanda} has refunds: it stays closed`, 'COMANDA_REEMBOLSADA', {
    id_comanda: idComanda,
  });

export const pagosWithoutCerrar = () =>
  new BadRequestError(
    'pagos goes with {"action": "cerrar"} only: it pays and closes in one step',
    'PAGOS_WITHOUT_CERRAR',
  );

export const reembolsoExcedePago = (idPago: number, disponible: string) =>
  new ConflictError(`Payment ${idPago} has ${disponible} left to refund`, 'REEMBOLSO_EXCEDE_PAGO', {
    id_pago: idPago,
    disponible: Number(disponible),
  });

export const reembolsoLineas = (problems: { id_item: number; reason: string }[]) =>
  new BadRequestError('Cannot refund these lines', 'INVALID_REFUND_LINES', { lineas: problems });

export const descuentoExcede = () =>
  new BadRequestError(
    'The discount is above the comanda’s lines: a percentage is at most 100, an amount at most the sum of the lines',
    'DESCUENTO_EXCEDE',
  );

export const comandasAbiertasConPagos = (idSesion: number, comandas: number[]) =>
  new ConflictError(
    `Sesión de caja ${idSesion} has open comandas with payments (${comandas.join(', ')}): close or void them first`,
    'SESION_CON_COMANDAS_ABIERTAS',
    { id_sesion: idSesion, comandas },
  );

export const contadoInvalido = (problems: string[]) =>
  new BadRequestError('Cannot close with this count', 'INVALID_COUNT', problems);

export const diferenciaSobreTolerancia = (tolerancia: string) =>
  new ForbiddenError(
    `A difference above the tolerance (${tolerancia}) needs the permission caja:approve-difference (an admin)`,
    'DIFERENCIA_SOBRE_TOLERANCIA',
    { tolerancia: Number(tolerancia) },
  );

/** The examples of these codes in the OpenAPI document. */
export const COBROS_ERRORS = {
  CAJA_NOT_FOUND: example(404, 'CAJA_NOT_FOUND', 'No till has this id', 'Caja 9 does not exist', {
    id_caja: 9,
  }),
  UNKNOWN_CAJA: example(
    400,
    'CAJA_NOT_FOUND',
    'id_caja names no till',
    'Caja 9 does not exist',
    { id_caja: 9 },
    {},
    'UNKNOWN_CAJA',
  ),
  SESION_NOT_FOUND: example(
    404,
    'SESION_NOT_FOUND',
    'No till session has this id',
    'Sesión de caja 999 does not exist',
    { id_sesion: 999 },
  ),
  SESION_YA_ABIERTA: example(
    409,
    'SESION_YA_ABIERTA',
    'The till has an open session already',
    'Caja 1 already has an open session (12): close it first',
    { id_caja: 1, id_sesion: 12 },
  ),
  SESION_CERRADA: example(
    409,
    'SESION_CERRADA',
    'The session is closed: it never changes',
    'Sesión de caja 12 is closed: it takes no more movements',
    { id_sesion: 12 },
  ),
  SIN_SESION_ABIERTA: example(
    409,
    'SIN_SESION_ABIERTA',
    'No open till session takes the money',
    'Caja 1 has no open session: open one first',
    { id_caja: 1 },
  ),
  CAJA_REQUERIDA: example(
    400,
    'CAJA_REQUERIDA',
    'Several tills are open: name one with id_caja',
    'Several tills have an open session and none was opened by you: say which with id_caja',
  ),
  METODO_PAGO_NOT_FOUND: example(
    400,
    'METODO_PAGO_NOT_FOUND',
    'id_metodo_pago names no method in use',
    'Payment method 9 does not exist or is not in use',
    { id_metodo_pago: 9 },
  ),
  RECIBIDO_SOLO_EFECTIVO: example(
    400,
    'RECIBIDO_SOLO_EFECTIVO',
    'recibido with a method that is not cash',
    'recibido is for cash only: a card or wallet payment is exactly its monto',
  ),
  RECIBIDO_INSUFICIENTE: example(
    400,
    'RECIBIDO_INSUFICIENTE',
    'The cash handed over is less than the amount and the tip',
    'recibido (50) does not cover the amount applied (64.50) and the tip (0)',
    { recibido: 50, monto: 64.5, propina: 0 },
  ),
  PAGO_EXCEDE_SALDO: example(
    409,
    'PAGO_EXCEDE_SALDO',
    'Not cash, above the balance (or nothing is due)',
    'The payment is above the balance (14.50): only cash may exceed it (the rest is change)',
    { saldo: 14.5 },
  ),
  SALDO_PENDIENTE: example(
    409,
    'SALDO_PENDIENTE',
    'The applied payments do not equal the amount due',
    'The comanda still owes 14.50: pay it before closing (or pay and close in one PUT with pagos)',
    { saldo: 14.5 },
  ),
  PAGO_NOT_FOUND: example(
    404,
    'PAGO_NOT_FOUND',
    'The comanda has no payment with this id',
    'Comanda 301 has no payment 9',
    { id_comanda: 301, id_pago: 9 },
  ),
  PAGO_ANULADO: example(409, 'PAGO_ANULADO', 'The payment is voided', 'Payment 88 is voided', {
    id_pago: 88,
  }),
  PAGOS_WITHOUT_CERRAR: example(
    400,
    'PAGOS_WITHOUT_CERRAR',
    'pagos goes with the action cerrar only',
    'pagos goes with {"action": "cerrar"} only: it pays and closes in one step',
  ),
  COMANDA_CON_PAGOS: example(
    409,
    'COMANDA_CON_PAGOS',
    'The comanda has applied payments (void them first)',
    'Comanda 301 has applied payments: void them before you eliminar it',
    { id_comanda: 301, action: 'eliminar' },
  ),
  COMANDA_REEMBOLSADA: example(
    409,
    'COMANDA_REEMBOLSADA',
    'A comanda with refunds is not reopened',
    'Comanda 301 has refunds: it stays closed',
    { id_comanda: 301 },
  ),
  REEMBOLSO_EXCEDE_PAGO: example(
    409,
    'REEMBOLSO_EXCEDE_PAGO',
    'The refunds of a payment would exceed its monto',
    'Payment 88 has 32.00 left to refund',
    { id_pago: 88, disponible: 32 },
  ),
  INVALID_REFUND_LINES: example(
    400,
    'INVALID_REFUND_LINES',
    'A listed line is not the comanda’s, or asks for more than it holds',
    'Cannot refund these lines',
    { lineas: [{ id_item: 977, reason: 'asks for more than the line holds' }] },
  ),
  DESCUENTO_EXCEDE: example(
    400,
    'DESCUENTO_EXCEDE',
    'Above 100 % or above the sum of the lines',
    'The discount is above the comanda’s lines: a percentage is at most 100, an amount at most the sum of the lines',
  ),
  SESION_CON_COMANDAS_ABIERTAS: example(
    409,
    'SESION_CON_COMANDAS_ABIERTAS',
    'A comanda paid in the session is still abierta',
    'Sesión de caja 12 has open comandas with payments (301): close or void them first',
    { id_sesion: 12, comandas: [301] },
  ),
  INVALID_COUNT: example(
    400,
    'INVALID_COUNT',
    'The count names an unknown method, lacks the cash, or disagrees with conteo',
    'Cannot close with this count',
    ['contado must give the cash method 1 (Efectivo), or conteo its denominations'],
  ),
  DIFERENCIA_SOBRE_TOLERANCIA: example(
    403,
    'DIFERENCIA_SOBRE_TOLERANCIA',
    'A difference above the tolerance needs caja:approve-difference',
    'A difference above the tolerance (5.00) needs the permission caja:approve-difference (an admin)',
    { tolerancia: 5 },
  ),
};
