/**
 * The rules of the Reservas screen, without DOM (unit tested in reservas-rules.spec.ts): the
 * buttons of a reservation (the actions its `acciones` lists), the booking form and the bodies
 * it sends (docs/reservas.md), which field an error is about, and the figures of the day. The
 * shapes are the API's, generated from its OpenAPI document.
 */
import { validationFieldErrors, type ApiError, type Schemas } from '../api';
import { isDate } from '../dates';

export type Reserva = Schemas['ReservaDto'];
export type Estado = Reserva['estado'];
type Mesa = Schemas['MesaDto'];
type CreateBody = Schemas['CreateReservaBody'];
type UpdateBody = Schemas['UpdateReservaBody'];

/** The limits of CreateReservaBody (docs/reservas.md, "A reservation"). */
export const PERSONAS_MAX = 50;
export const NOMBRE_MAX = 120;
export const TELEFONO_MAX = 30;
export const OBSERVACION_MAX = 500;

export const ESTADOS: { estado: Estado; label: string; plural: string }[] = [
  { estado: 'pendiente', label: 'Pendiente', plural: 'Pendientes' },
  { estado: 'sentada', label: 'Sentada', plural: 'Sentadas' },
  { estado: 'cancelada', label: 'Cancelada', plural: 'Canceladas' },
  { estado: 'no_show', label: 'No vino', plural: 'No vinieron' },
];

export function estadoLabel(estado: Estado): string {
  return ESTADOS.find((e) => e.estado === estado)?.label ?? estado;
}

/** An action of a reservation, by the name the API gives it in `acciones`. */
export type Accion = 'sentar' | 'editar' | 'no_show' | 'cancelar';

/** The buttons of a reservation, in the order they are shown. */
export const ACCIONES: { accion: Accion; label: string }[] = [
  { accion: 'sentar', label: 'Sentar' },
  { accion: 'editar', label: 'Modificar' },
  { accion: 'no_show', label: 'No vino' },
  { accion: 'cancelar', label: 'Cancelar' },
];

/**
 * The buttons to show: exactly the actions the reservation's `acciones` lists (its state and the
 * user's permissions, as the service computed them), in the screen's order. An action the page
 * does not know is not shown.
 */
export function buttonsOf(acciones: readonly string[]): { accion: Accion; label: string }[] {
  return ACCIONES.filter((a) => acciones.includes(a.accion));
}

/** `Mesa 3 · terraza · 4 sillas`. */
export function mesaLabel(mesa: Pick<Mesa, 'numero' | 'zona' | 'capacidad'>): string {
  return [
    `Mesa ${mesa.numero}`,
    mesa.zona,
    mesa.capacidad > 0 && `${mesa.capacidad} ${mesa.capacidad === 1 ? 'silla' : 'sillas'}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** What the form holds: one string per field, as the inputs give them. */
export interface Draft {
  nombre: string;
  telefono: string;
  personas: string;
  fecha: string;
  hora: string;
  /** The table's id as text; '' for none. */
  id_mesa: string;
  observacion: string;
}

export type Field = keyof Draft;

/** A new booking on `fecha`, or the reservation as it is (to change it). */
export function draftOf(fecha: string, reserva?: Reserva): Draft {
  if (!reserva)
    return {
      nombre: '',
      telefono: '',
      personas: '2',
      fecha,
      hora: '',
      id_mesa: '',
      observacion: '',
    };
  return {
    nombre: reserva.nombre,
    telefono: reserva.telefono ?? '',
    personas: String(reserva.personas),
    fecha: reserva.fecha,
    hora: reserva.hora,
    id_mesa: reserva.id_mesa === null ? '' : String(reserva.id_mesa),
    observacion: reserva.observacion ?? '',
  };
}

const HORA = /^([01]\d|2[0-3]):[0-5]\d$/;

interface Checked {
  nombre: string;
  telefono: string | null;
  personas: number;
  fecha: string;
  hora: string;
  id_mesa: number | null;
  observacion: string | null;
}

/** The draft's values as the API takes them, or the problems of its fields (in Spanish). */
function check(
  draft: Draft,
  today: string,
): { values: Checked; errors: Partial<Record<Field, string>> } {
  const errors: Partial<Record<Field, string>> = {};
  const nombre = draft.nombre.trim();
  if (!nombre) errors.nombre = 'Indique a nombre de quién es la reserva';
  else if (nombre.length > NOMBRE_MAX) errors.nombre = `Hasta ${NOMBRE_MAX} caracteres`;
  const telefono = draft.telefono.trim();
  if (telefono.length > TELEFONO_MAX) errors.telefono = `Hasta ${TELEFONO_MAX} caracteres`;
  const personas = Number(draft.personas.trim());
  if (!/^\d+$/.test(draft.personas.trim()) || personas < 1 || personas > PERSONAS_MAX)
    errors.personas = `Un número de 1 a ${PERSONAS_MAX}`;
  if (!isDate(draft.fecha)) errors.fecha = 'Indique el día';
  else if (draft.fecha < today) errors.fecha = 'El día ya pasó';
  // a time input may give seconds (HH:MM:SS) when the browser was asked for them
  const hora = draft.hora.slice(0, 5);
  if (!HORA.test(hora)) errors.hora = 'Indique la hora (HH:MM)';
  const observacion = draft.observacion.trim();
  if (observacion.length > OBSERVACION_MAX)
    errors.observacion = `Hasta ${OBSERVACION_MAX} caracteres`;
  return {
    values: {
      nombre,
      telefono: telefono || null,
      personas,
      fecha: draft.fecha,
      hora,
      id_mesa: draft.id_mesa ? Number(draft.id_mesa) : null,
      observacion: observacion || null,
    },
    errors,
  };
}

/** The body of `POST /reservas`: the optional fields only when given. */
export function createBody(
  draft: Draft,
  today: string,
): { body: CreateBody; errors: Partial<Record<Field, string>> } {
  const { values, errors } = check(draft, today);
  const body: CreateBody = {
    nombre: values.nombre,
    personas: values.personas,
    fecha: values.fecha,
    hora: values.hora,
  };
  if (values.id_mesa !== null) body.id_mesa = values.id_mesa;
  if (values.telefono !== null) body.telefono = values.telefono;
  if (values.observacion !== null) body.observacion = values.observacion;
  return { body, errors };
}

/**
 * The body of `PATCH /reservas/:id`: the fields that differ from the reservation, a cleared
 * table, phone or note as null. A day that did not change is not checked against today (a
 * reservation of the past can still have its other fields changed).
 */
export function changeBody(
  reserva: Reserva,
  draft: Draft,
  today: string,
): { body: UpdateBody; errors: Partial<Record<Field, string>> } {
  const { values, errors } = check(draft, draft.fecha === reserva.fecha ? '' : today);
  const body: UpdateBody = {};
  if (values.nombre !== reserva.nombre) body.nombre = values.nombre;
  if (values.personas !== reserva.personas) body.personas = values.personas;
  if (values.fecha !== reserva.fecha) body.fecha = values.fecha;
  if (values.hora !== reserva.hora) body.hora = values.hora;
  if (values.id_mesa !== reserva.id_mesa) body.id_mesa = values.id_mesa;
  if (values.telefono !== reserva.telefono) body.telefono = values.telefono;
  if (values.observacion !== reserva.observacion) body.observacion = values.observacion;
  return { body, errors };
}

const FIELDS: Field[] = [
  'nombre',
  'telefono',
  'personas',
  'fecha',
  'hora',
  'id_mesa',
  'observacion',
];

/**
 * The fields a refused booking or change is about, each with its message: the table of
 * MESA_ALREADY_BOOKED (with the table's number and the other booking's time), the day of
 * RESERVA_IN_THE_PAST, an unknown table (23503), and every field a VALIDATION_FAILED names.
 * Empty when it names no field of the form: the page then shows it in its banner.
 */
export function fieldErrorsOf(
  error: Pick<ApiError, 'code' | 'message' | 'detail'>,
  mesas: Pick<Mesa, 'id_mesa' | 'numero'>[],
): Partial<Record<Field, string>> {
  const detail = (error.detail ?? {}) as Record<string, unknown>;
  const code = ` (${error.code})`;
  switch (error.code) {
    case 'MESA_ALREADY_BOOKED': {
      const numero = mesas.find((m) => m.id_mesa === detail.id_mesa)?.numero ?? detail.id_mesa;
      const minutos = typeof detail.minutos === 'number' ? detail.minutos : null;
      return {
        id_mesa:
          `La mesa ${String(numero)} ya está reservada a las ${String(detail.hora)}` +
          (minutos ? `: entre dos reservas de una mesa deben pasar ${minutos} minutos` : '') +
          code,
      };
    }
    case 'RESERVA_IN_THE_PAST':
      return { fecha: `El día ya pasó${code}` };
    case '23503':
      return JSON.stringify(error.detail ?? '').includes('id_mesa')
        ? { id_mesa: `Esa mesa ya no existe${code}` }
        : {};
    case 'VALIDATION_FAILED':
      return validationFieldErrors(error.detail, FIELDS);
    default:
      return {};
  }
}

export interface DayFigures {
  reservas: number;
  pendientes: number;
  /** People still expected: the party sizes of the pendiente reservations. */
  esperadas: number;
  sentadas: number;
}

export function dayFigures(reservas: Reserva[]): DayFigures {
  const pendientes = reservas.filter((r) => r.estado === 'pendiente');
  return {
    reservas: reservas.length,
    pendientes: pendientes.length,
    esperadas: pendientes.reduce((n, r) => n + r.personas, 0),
    sentadas: reservas.filter((r) => r.estado === 'sentada').length,
  };
}

/** How many minutes late a pendiente reservation of today is at `now` (HH:MM), else 0. */
export function minutesLate(reserva: Reserva, today: string, now: string): number {
  if (reserva.estado !== 'pendiente' || reserva.fecha !== today) return 0;
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  return Math.max(0, minutes(now) - minutes(reserva.hora));
}

/** 20 → `20 min de retraso`, 135 → `2 h 15 min de retraso`. */
export function lateText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const time = h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`;
  return `${time} de retraso`;
}
