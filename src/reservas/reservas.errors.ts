import { BadRequestError, ConflictError, NotFoundError } from '../common/errors/domain-error';
import { ERRORS, example } from '../common/http/openapi-errors';

/** The error codes of reservations, as small factories (docs/reservas.md). */

export const reservaNotFound = (id: number) =>
  new NotFoundError(`Reserva ${id} does not exist`, 'RESERVA_NOT_FOUND', { id_reserva: id });

export const reservaInThePast = (fecha: string, today: string) =>
  new BadRequestError(
    `fecha ${fecha} is before today (${today} in the tenant's time zone)`,
    'RESERVA_IN_THE_PAST',
    { fecha, hoy: today },
  );

export const mesaRequired = (id: number) =>
  new BadRequestError(
    `Reserva ${id} has no table: send the id_mesa the party sits at`,
    'MESA_REQUIRED',
    { id_reserva: id },
  );

export const mesaAlreadyBooked = (
  idMesa: number,
  other: { id_reserva: number; fecha: string; hora: string },
  windowMinutes: number,
) =>
  new ConflictError(
    `Table ${idMesa} is booked at ${other.fecha} ${other.hora} (reserva ${other.id_reserva}): ` +
      `two reservations of a table must be at least ${windowMinutes} minutes apart`,
    'MESA_ALREADY_BOOKED',
    { id_mesa: idMesa, ...other, minutos: windowMinutes },
  );

export const emptyChange = () =>
  new BadRequestError(
    'Send at least one of nombre, personas, fecha, hora, id_mesa, telefono, observacion, id_cliente',
    'EMPTY_CHANGE',
  );

/** The examples of these codes in the OpenAPI document. */
export const RESERVA_ERRORS = {
  RESERVA_NOT_FOUND: example(
    404,
    'RESERVA_NOT_FOUND',
    'No reservation has this id',
    'Reserva 9999 does not exist',
    { id_reserva: 9999 },
  ),
  RESERVA_IN_THE_PAST: example(
    400,
    'RESERVA_IN_THE_PAST',
    'fecha is before today in the tenant’s time zone',
    "fecha 2026-11-21 is before today (2026-11-22 in the tenant's time zone)",
    { fecha: '2026-11-21', hoy: '2026-11-22' },
  ),
  MESA_REQUIRED: example(
    400,
    'MESA_REQUIRED',
    'Seating a reservation without a table needs id_mesa',
    'Reserva 41 has no table: send the id_mesa the party sits at',
    { id_reserva: 41 },
  ),
  MESA_ALREADY_BOOKED: example(
    409,
    'MESA_ALREADY_BOOKED',
    'Another pendiente reservation of the table is closer than RESERVAS_WINDOW_MINUTES',
    'Table 3 is booked at 2026-11-28 20:00 (reserva 40): two reservations of a table must be at least 120 minutes apart',
    { id_mesa: 3, id_reserva: 40, fecha: '2026-11-28', hora: '20:00', minutos: 120 },
  ),
  INVALID_TRANSITION: example(
    409,
    'INVALID_TRANSITION',
    'Not allowed in the reservation’s current state (detail.estado): only a pendiente one changes',
    'Cannot sentar a reserva that is cancelada',
    { estado: 'cancelada', action: 'sentar' },
  ),
  EMPTY_CHANGE: example(
    400,
    'EMPTY_CHANGE',
    'Nothing to change',
    'Send at least one of nombre, personas, fecha, hora, id_mesa, telefono, observacion, id_cliente',
  ),
  VALIDATION_FAILED: {
    ...ERRORS.VALIDATION_FAILED,
    body: {
      ...ERRORS.VALIDATION_FAILED.body,
      detail: [
        'personas must not be greater than 50',
        'hora must be a time HH:MM (00:00 to 23:59)',
      ],
    },
  },
};
