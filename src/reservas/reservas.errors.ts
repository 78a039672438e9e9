import { validationError } from '../common/errors/common.errors';
import { defineError } from '../common/errors/error-catalogue';

/** The error codes of reservations (docs/reservas.md). */

export const reservaNotFound = defineError({
  status: 404,
  code: 'RESERVA_NOT_FOUND',
  summary: 'No reservation has this id',
  en: (id: number) => `Reserva ${id} does not exist`,
  es: (id) => `La reserva ${id} no existe`,
  detail: (id) => ({ id_reserva: id }),
  example: [9999],
});

export const reservaInThePast = defineError({
  status: 400,
  code: 'RESERVA_IN_THE_PAST',
  summary: 'fecha is before today in the tenant’s time zone',
  en: (fecha: string, today: string) =>
    `fecha ${fecha} is before today (${today} in the tenant's time zone)`,
  es: (fecha, today) =>
    `fecha ${fecha} es anterior a hoy (${today} en la zona horaria del restaurante)`,
  detail: (fecha, today) => ({ fecha, hoy: today }),
  example: ['2026-11-21', '2026-11-22'],
});

export const mesaRequired = defineError({
  status: 400,
  code: 'MESA_REQUIRED',
  summary: 'Seating a reservation without a table needs id_mesa',
  en: (id: number) => `Reserva ${id} has no table: send the id_mesa the party sits at`,
  es: (id) => `La reserva ${id} no tiene mesa: envíe el id_mesa donde se sienta el grupo`,
  detail: (id) => ({ id_reserva: id }),
  example: [41],
});

export const mesaAlreadyBooked = defineError({
  status: 409,
  code: 'MESA_ALREADY_BOOKED',
  summary: 'Another pendiente reservation of the table is closer than RESERVAS_WINDOW_MINUTES',
  en: (
    idMesa: number,
    other: { id_reserva: number; fecha: string; hora: string },
    windowMinutes: number,
  ) =>
    `Table ${idMesa} is booked at ${other.fecha} ${other.hora} (reserva ${other.id_reserva}): ` +
    `two reservations of a table must be at least ${windowMinutes} minutes apart`,
  es: (idMesa, other, windowMinutes) =>
    `La mesa ${idMesa} está reservada el ${other.fecha} a las ${other.hora} (reserva ${other.id_reserva}): ` +
    `entre dos reservas de una mesa deben pasar al menos ${windowMinutes} minutos`,
  detail: (idMesa, other, windowMinutes) => ({ id_mesa: idMesa, ...other, minutos: windowMinutes }),
  example: [3, { id_reserva: 40, fecha: '2026-11-28', hora: '20:00' }, 120],
});

/** An action the reservation's state does not allow (reservas-state.ts). */
export const invalidReservaTransition = defineError({
  status: 409,
  code: 'INVALID_TRANSITION',
  summary:
    'Not allowed in the reservation’s current state (detail.estado): only a pendiente one changes',
  en: (estado: string, action: string) => `Cannot ${action} a reserva that is ${estado}`,
  es: (estado, action) => `No se puede ${action} una reserva que está ${estado}`,
  detail: (estado, action) => ({ estado, action }),
  example: ['cancelada', 'sentar'],
});

export const emptyChange = defineError({
  status: 400,
  code: 'EMPTY_CHANGE',
  summary: 'Nothing to change',
  en: () =>
    'Send at least one of nombre, personas, fecha, hora, id_mesa, telefono, observacion, id_cliente',
  es: () =>
    'Envíe al menos uno de nombre, personas, fecha, hora, id_mesa, telefono, observacion, id_cliente',
  example: [],
});

/** The document's example of the shared VALIDATION_FAILED with a reservation's messages. */
export const RESERVA_VALIDATION_EXAMPLE = validationError.exampleOf([
  'personas must not be greater than 50',
  'hora must be a time HH:MM (00:00 to 23:59)',
]);
