import type { Grants } from '../auth/grants';
import { formatInstant, formatInstantOrNull } from '../common/time';
import { ENVIO_ACCIONES } from './cocina-actions';
import type { EnvioRow, EstacionRow, LineaCocinaRow } from './cocina.repository';
import type { EnvioDto, EstacionDto, LineaCocinaDto } from './dto/cocina-output.dto';

export function toEstacion(row: EstacionRow): EstacionDto {
  return { ...row, categorias: row.categorias.map(Number) };
}

export function toEnvio(row: EnvioRow, timeZone: string, grants: Grants): EnvioDto {
  return {
    id_envio: Number(row.id_envio),
    id_comanda: Number(row.id_comanda),
    numero_ticket: Number(row.numero_ticket),
    mesa: row.mesa,
    mozo: row.mozo,
    id_estacion: row.id_estacion,
    curso: row.curso,
    tipo: row.tipo,
    estado: row.estado,
    lineas: row.lineas.map((l) => ({
      id_item: Number(l.id_item),
      id_producto: l.id_producto,
      producto: l.producto,
      cantidad: Number(l.cantidad),
      nota: l.nota,
      estado_cocina: l.estado_cocina,
    })),
    fec_envio: formatInstant(row.fec_envio, timeZone),
    fec_listo: formatInstantOrNull(row.fec_listo, timeZone),
    fec_disparo: formatInstantOrNull(row.fec_disparo, timeZone),
    acciones: ENVIO_ACCIONES.permitted(row.estado, grants),
  };
}

/** The kitchen fields a comanda's line gains in its detail. */
export function toLineFields(row: LineaCocinaRow, timeZone: string): LineaCocinaDto {
  return {
    curso: row.curso,
    estado_cocina: row.estado_cocina,
    fec_enviado: formatInstantOrNull(row.fec_enviado, timeZone),
    fec_preparacion: formatInstantOrNull(row.fec_preparacion, timeZone),
    fec_listo: formatInstantOrNull(row.fec_listo, timeZone),
    fec_entregado: formatInstantOrNull(row.fec_entregado, timeZone),
  };
}
