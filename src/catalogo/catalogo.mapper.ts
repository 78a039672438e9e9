import type { MesaRow, MozoRow, ProductoRow } from './catalogo.repository';
import type { MesaDto, MozoDto, ProductoDto } from './dto/catalogo-output.dto';

/** A product row as the API answers it: the numeric price as a JSON number. */
export function toProducto(row: ProductoRow): ProductoDto {
  return {
    id_producto: row.id_producto,
    nombre: row.nombre,
    precio: Number(row.precio),
    activo: row.activo,
    id_categoria: row.id_categoria,
    categoria: row.categoria,
  };
}

export function toMesa(row: MesaRow): MesaDto {
  return {
    id_mesa: row.id_mesa,
    numero: row.numero,
    zona: row.zona,
    capacidad: row.capacidad,
    activo: row.activo,
    abiertas: row.abiertas,
  };
}

export function toMozo(row: MozoRow): MozoDto {
  return { id_usuario: row.id_usuario, nombre: row.nombre, activo: row.activo };
}
