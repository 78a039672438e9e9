import type { Grants } from '../auth/grants';
import { formatInstant, formatInstantOrNull } from '../common/time';
import type { ReservaDto } from './dto/reserva-output.dto';
import { RESERVA_ACCIONES } from './reserva-actions';
import type { ReservaRow } from './reservas.repository';

/**
 * A reservation row as a caller holding `grants` gets it: bigint ids as numbers, instants in
 * the tenant's zone, and what the caller may do to it now (`acciones`).
 */
export function toReserva(row: ReservaRow, timeZone: string, grants: Grants): ReservaDto {
  return {
    id_reserva: Number(row.id_reserva),
    nombre: row.nombre,
    personas: row.personas,
    fecha: row.fecha,
    hora: row.hora,
    id_mesa: row.id_mesa,
    mesa: row.mesa_numero,
    telefono: row.telefono,
    observacion: row.observacion,
    id_cliente: row.id_cliente,
    cliente: row.cliente,
    estado: row.estado,
    id_comanda: row.id_comanda === null ? null : Number(row.id_comanda),
    motivo: row.motivo,
    id_usuario_registro: row.id_usuario_registro,
    fec_registro: formatInstant(row.fec_registro, timeZone),
    id_usuario_estado: row.id_usuario_estado,
    fec_estado: formatInstantOrNull(row.fec_estado, timeZone),
    version: row.version,
    acciones: RESERVA_ACCIONES.permitted(row.estado, grants),
  };
}
