import type { Grants } from '../auth/grants';
import { formatInstant, formatInstantOrNull } from '../common/time';
import { comandaAcciones } from './comanda-actions';
import { stateOf } from './comanda-state';
import type { ComandaRow, EventoRow, ItemRow, StreamEventRow } from './comandas.repository';
import type {
  ComandaDetail,
  ComandaEvento,
  ComandaItem,
  ComandaStreamEvent,
  ComandaSummary,
} from './dto/comanda-output.dto';

/** numeric / bigint columns arrive as strings: money and quantities become JSON numbers. */
const num = (value: string): number => Number(value);

/** A summary before the caller is known: everything but `acciones` (the live stream's events). */
export type SummaryFields = Omit<ComandaSummary, 'acciones'>;
/** A stream event before its subscriber is known: its summary has no `acciones` yet. */
export type StreamEventFields = Omit<ComandaStreamEvent, 'comanda'> & { comanda: SummaryFields };

/** The summary as a caller holding `grants` sees it: with what they may do to it now. */
export function toSummary(row: ComandaRow, timeZone: string, grants: Grants): ComandaSummary {
  return {
    ...summaryFields(row, timeZone),
    acciones: comandaAcciones().permitted(stateOf(row), grants),
  };
}

function summaryFields(row: ComandaRow, timeZone: string): SummaryFields {
  return {
    id_comanda: num(row.id_comanda),
    numero_ticket: num(row.numero_ticket),
    id_mesa: row.id_mesa,
    mesa: row.mesa_numero,
    id_usuario: row.id_usuario,
    mozo: row.mozo,
    id_cliente: row.id_cliente,
    cliente: row.cliente,
    estado: row.estado,
    fec_apertura: formatInstant(row.fec_apertura, timeZone),
    fec_cierre: formatInstantOrNull(row.fec_cierre, timeZone),
    total: num(row.total),
    n_items: row.items,
    // deprecated alias of n_items, kept one release (docs/comandas.md)
    items: row.items,
    eliminada: row.eliminada,
    version: row.version,
  };
}

export function toItem(row: ItemRow, timeZone: string): ComandaItem {
  return {
    id_item: num(row.id_deta_comanda),
    id_producto: row.id_producto,
    producto: row.producto,
    cantidad: num(row.cantidad),
    precio_unitario: num(row.precio_unitario),
    subtotal: num(row.subtotal),
    nota: row.nota,
    id_usuario: row.id_usuario,
    usuario: row.usuario,
    fec_registro: formatInstant(row.fec_registro, timeZone),
  };
}

export function toDetail(
  row: ComandaRow,
  lines: ItemRow[],
  timeZone: string,
  grants: Grants,
): ComandaDetail {
  return {
    ...toSummary(row, timeZone, grants),
    observacion: row.observacion,
    fec_eliminacion: formatInstantOrNull(row.fec_eliminacion, timeZone),
    lineas: lines.map((line) => toItem(line, timeZone)),
  };
}

export function toEvento(row: EventoRow, timeZone: string): ComandaEvento {
  return {
    id_evento: num(row.id_evento),
    accion: row.accion,
    id_usuario: row.id_usuario,
    usuario: row.usuario,
    motivo: row.motivo,
    antes: row.antes,
    despues: row.despues,
    fec_evento: formatInstant(row.fec_evento, timeZone),
  };
}

/** An audit entry as the live stream sends it, but `acciones`: each subscriber sees its own. */
export function toStreamEvent(row: StreamEventRow, timeZone: string): StreamEventFields {
  return {
    id_evento: num(row.id_evento),
    id_comanda: num(row.id_comanda),
    accion: row.accion,
    id_usuario: row.actor_id,
    usuario: row.actor,
    motivo: row.motivo,
    fec_evento: formatInstant(row.fec_evento, timeZone),
    comanda: summaryFields(row, timeZone),
  };
}

/** A stream event as a subscriber holding `grants` receives it. */
export function withAcciones(event: StreamEventFields, grants: Grants): ComandaStreamEvent {
  const { comanda } = event;
  return {
    ...event,
    comanda: { ...comanda, acciones: comandaAcciones().permitted(stateOf(comanda), grants) },
  };
}
