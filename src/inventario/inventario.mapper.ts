import type { Grants } from '../auth/grants';
import { formatInstant, formatInstantOrNull } from '../common/time';
import type {
  ConsumoDto,
  ConteoDto,
  ConteoResumenDto,
  MovimientoStockDto,
  ProductoCostoDto,
  SaldoDto,
} from './dto/inventario-output.dto';
import { CONTEO_ACCIONES } from './inventario-actions';
import type {
  ConsumoMaterialRow,
  ConsumoTotalesRow,
  ConteoLineaRow,
  ConteoRow,
  IngredienteRow,
  MovimientoRow,
  ProductoCostoRow,
  SaldoRow,
} from './inventario.repository';

/**
 * Rows → answers. Quantities and amounts arrive as numeric text and leave as JSON numbers: a
 * conversion, never arithmetic (PostgreSQL computed every figure).
 */
const num = (value: string): number => Number(value);
const numOrNull = (value: string | null): number | null => (value === null ? null : Number(value));

export function toSaldo(row: SaldoRow, timeZone: string): SaldoDto {
  return {
    id_mat_prima: row.id_mat_prima,
    nombre: row.nombre,
    unidad: row.unidad,
    activo: row.activo,
    cantidad: num(row.cantidad),
    costo_promedio: num(row.costo_promedio),
    valor: num(row.valor),
    stock_minimo: numOrNull(row.stock_minimo),
    negativo: row.negativo,
    bajo_minimo: row.bajo_minimo,
    ultimo_movimiento: formatInstantOrNull(row.ultimo_movimiento, timeZone),
  };
}

export function toMovimiento(row: MovimientoRow, timeZone: string): MovimientoStockDto {
  return {
    id_movimiento: num(row.id_movimiento),
    id_mat_prima: row.id_mat_prima,
    material: row.material,
    unidad: row.unidad,
    tipo: row.tipo,
    cantidad: num(row.cantidad),
    costo_unitario: num(row.costo_unitario),
    valor: num(row.valor),
    saldo_cantidad: num(row.saldo_cantidad),
    saldo_costo: num(row.saldo_costo),
    origen: row.origen,
    id_origen: num(row.id_origen),
    id_documento: numOrNull(row.id_documento),
    fec: formatInstant(row.fec, timeZone),
    id_usuario: row.id_usuario,
    usuario: row.usuario,
    motivo: row.motivo,
  };
}

export function toConteoResumen(
  row: ConteoRow,
  timeZone: string,
  grants: Grants,
): ConteoResumenDto {
  return {
    id_conteo: num(row.id_conteo),
    estado: row.estado,
    fec_corte: formatInstant(row.fec_corte, timeZone),
    observacion: row.observacion,
    creado_por: row.creado_por,
    fec_aplicacion: formatInstantOrNull(row.fec_aplicacion, timeZone),
    total_lineas: num(row.total_lineas),
    acciones: CONTEO_ACCIONES.permitted(row.estado, grants),
  };
}

export function toConteo(
  row: ConteoRow,
  lineas: ConteoLineaRow[],
  valorDiferencias: string,
  timeZone: string,
  grants: Grants,
): ConteoDto {
  return {
    id_conteo: num(row.id_conteo),
    estado: row.estado,
    fec_corte: formatInstant(row.fec_corte, timeZone),
    observacion: row.observacion,
    creado_por: row.creado_por,
    created_at: formatInstant(row.created_at, timeZone),
    fec_aplicacion: formatInstantOrNull(row.fec_aplicacion, timeZone),
    aplicado_por: row.aplicado_por,
    total_lineas: num(row.total_lineas),
    valor_diferencias: num(valorDiferencias),
    lineas: lineas.map((l) => ({
      id_mat_prima: l.id_mat_prima,
      nombre: l.nombre,
      unidad: l.unidad,
      contado: num(l.contado),
      sistema: num(l.sistema),
      diferencia: num(l.diferencia),
      costo_promedio: num(l.costo_promedio),
      valor_diferencia: num(l.valor_diferencia),
    })),
    acciones: CONTEO_ACCIONES.permitted(row.estado, grants),
  };
}

export function toConsumo(
  totales: ConsumoTotalesRow,
  materiales: ConsumoMaterialRow[],
  timeZone: string,
): ConsumoDto {
  return {
    desde: formatInstant(totales.desde, timeZone),
    hasta: formatInstant(totales.hasta, timeZone),
    comandas: num(totales.comandas),
    ventas_netas: num(totales.ventas_netas),
    costo_teorico: num(totales.costo_teorico),
    costo_real: num(totales.costo_real),
    food_cost_teorico_pct: numOrNull(totales.food_cost_teorico_pct),
    food_cost_real_pct: numOrNull(totales.food_cost_real_pct),
    materiales: materiales.map((m) => ({
      id_mat_prima: m.id_mat_prima,
      nombre: m.nombre,
      unidad: m.unidad,
      teorico_cantidad: num(m.teorico_cantidad),
      teorico_valor: num(m.teorico_valor),
      merma_cantidad: num(m.merma_cantidad),
      merma_valor: num(m.merma_valor),
      ajuste_cantidad: num(m.ajuste_cantidad),
      ajuste_valor: num(m.ajuste_valor),
      real_cantidad: num(m.real_cantidad),
      real_valor: num(m.real_valor),
      varianza_cantidad: num(m.varianza_cantidad),
      varianza_valor: num(m.varianza_valor),
    })),
  };
}

export function toProductoCosto(
  p: ProductoCostoRow,
  ingredientes: IngredienteRow[],
): ProductoCostoDto {
  return {
    id_producto: p.id_producto,
    nombre: p.nombre,
    precio: num(p.precio),
    tasa_igv: num(p.tasa_igv),
    precio_sin_igv: num(p.precio_sin_igv),
    costo: num(p.costo),
    food_cost_pct: numOrNull(p.food_cost_pct),
    con_receta: ingredientes.length > 0,
    ingredientes: ingredientes.map((i) => ({
      id_mat_prima: i.id_mat_prima,
      nombre: i.nombre,
      unidad: i.unidad,
      cantidad: num(i.cantidad),
      costo_promedio: num(i.costo_promedio),
      costo: num(i.costo),
    })),
  };
}
