import type { Grants } from '../auth/grants';
import { formatInstant, formatInstantOrNull } from '../common/time';
import { CAJA_ACCIONES, PAGO_ACCIONES, SESION_ACCIONES, type PagoState } from './cobros-actions';
import type {
  AjustesRow,
  CajaRow,
  FiguraRow,
  MetodoRow,
  MovimientoRow,
  SesionRow,
  TotalesRow,
} from './cajas.repository';
import type { CuentaRow, PagoRow } from './cobros.repository';
import type {
  AjustesDto,
  CajaDto,
  MetodoPagoDto,
  MovimientoDto,
  ReporteCajaDto,
  ReporteMetodoDto,
  ReporteTotalesDto,
  SesionCajaDto,
} from './dto/caja-output.dto';
import type { CuentaComandaDto, PagoDto } from './dto/cobros-output.dto';
import type { SimulacionPagoDto } from './dto/simulacion-pago.dto';

/** The bill as the comanda's detail shows it: its fields, and the bill's total as `total`. */
export type CuentaComanda = CuentaComandaDto & { total: number };

/**
 * Rows → answers. Amounts arrive as numeric text and leave as JSON numbers: a conversion, never
 * arithmetic (every figure was computed by PostgreSQL).
 */
const amount = (value: string): number => Number(value);
const amountOrNull = (value: string | null): number | null =>
  value === null ? null : Number(value);

export function toMetodo(row: MetodoRow): MetodoPagoDto {
  return {
    id_metodo_pago: row.id_metodo_pago,
    nombre: row.nombre,
    tipo: row.tipo,
    cuenta_en_caja: row.cuenta_en_caja,
  };
}

export function toCaja(row: CajaRow, timeZone: string, grants: Grants): CajaDto {
  return {
    id_caja: row.id_caja,
    nombre: row.nombre,
    id_sesion_abierta: row.id_sesion === null ? null : Number(row.id_sesion),
    monto_apertura: amountOrNull(row.monto_apertura),
    fec_apertura: row.fec_apertura === null ? null : formatInstant(row.fec_apertura, timeZone),
    abierta_por: row.abierta_por,
    acciones: CAJA_ACCIONES.permitted(row.id_sesion === null ? 'libre' : 'en_uso', grants),
  };
}

export function toSesion(row: SesionRow, timeZone: string, grants: Grants): SesionCajaDto {
  return {
    id_sesion: Number(row.id_sesion),
    id_caja: row.id_caja,
    caja: row.caja,
    estado: row.estado,
    numero_z: row.numero_z,
    monto_apertura: amount(row.monto_apertura),
    fec_apertura: formatInstant(row.fec_apertura, timeZone),
    fec_cierre: formatInstantOrNull(row.fec_cierre, timeZone),
    id_usuario_apertura: row.id_usuario_apertura,
    abierta_por: row.abierta_por,
    id_usuario_cierre: row.id_usuario_cierre,
    cerrada_por: row.cerrada_por,
    nota: row.nota,
    acciones: SESION_ACCIONES.permitted(row.estado, grants),
  };
}

export function toMovimiento(row: MovimientoRow, timeZone: string): MovimientoDto {
  return {
    id_movimiento: Number(row.id_movimiento),
    id_sesion: Number(row.id_sesion),
    tipo: row.tipo,
    monto: amount(row.monto),
    motivo: row.motivo,
    id_usuario: row.id_usuario,
    usuario: row.usuario,
    fec_movimiento: formatInstant(row.fec_movimiento, timeZone),
  };
}

function toFigura(row: FiguraRow): ReporteMetodoDto {
  return {
    id_metodo_pago: row.id_metodo_pago,
    nombre: row.nombre,
    tipo: row.tipo,
    cuenta_en_caja: row.cuenta_en_caja,
    pagos: Number(row.pagos),
    ventas: amount(row.ventas),
    propinas: amount(row.propinas),
    reembolsos: amount(row.reembolsos),
    apertura: amount(row.apertura),
    ingresos: amount(row.ingresos),
    retiros: amount(row.retiros),
    esperado: amount(row.esperado),
    contado: amountOrNull(row.contado),
    diferencia: amountOrNull(row.diferencia),
  };
}

function toTotales(row: TotalesRow): ReporteTotalesDto {
  return {
    pagos: Number(row.pagos ?? 0),
    comandas: Number(row.comandas ?? 0),
    ventas: amount(row.ventas ?? '0'),
    propinas: amount(row.propinas ?? '0'),
    reembolsos: amount(row.reembolsos ?? '0'),
    ingresos: amount(row.ingresos ?? '0'),
    retiros: amount(row.retiros ?? '0'),
    esperado: amount(row.esperado ?? '0'),
    contado: amountOrNull(row.contado),
    diferencia: amountOrNull(row.diferencia),
  };
}

export function toReporte(
  sesion: SesionRow,
  figuras: FiguraRow[],
  totales: TotalesRow,
  movimientos: MovimientoRow[],
  readAt: Date,
  timeZone: string,
  grants: Grants,
): ReporteCajaDto {
  return {
    tipo: sesion.estado === 'abierta' ? 'X' : 'Z',
    sesion: toSesion(sesion, timeZone, grants),
    fec_reporte: formatInstant(sesion.fec_cierre ?? readAt, timeZone),
    metodos: figuras.map(toFigura),
    totales: toTotales(totales),
    movimientos: movimientos.map((m) => toMovimiento(m, timeZone)),
    conteo: sesion.conteo,
  };
}

function pagoState(row: PagoRow, comandaEstado: 'abierta' | 'cerrada'): PagoState {
  if (row.estado !== 'aplicado') return 'firme';
  if (comandaEstado === 'abierta') return row.sesion_abierta ? 'anulable' : 'firme';
  return row.reembolsable ? 'reembolsable' : 'firme';
}

export function toPago(
  row: PagoRow,
  comandaEstado: 'abierta' | 'cerrada',
  timeZone: string,
  grants: Grants,
): PagoDto {
  return {
    id_pago: Number(row.id_pago),
    id_metodo_pago: row.id_metodo_pago,
    metodo: row.metodo,
    tipo: row.tipo,
    monto: amount(row.monto),
    propina: amount(row.propina),
    recibido: amountOrNull(row.recibido),
    vuelto: amount(row.vuelto),
    referencia: row.referencia,
    estado: row.estado,
    reembolsado: amount(row.reembolsado),
    id_sesion: Number(row.id_sesion),
    id_caja: row.id_caja,
    id_usuario: row.id_usuario,
    usuario: row.usuario,
    fec_pago: formatInstant(row.fec_pago, timeZone),
    motivo_anulacion: row.motivo_anulacion,
    fec_anulacion: formatInstantOrNull(row.fec_anulacion, timeZone),
    acciones: PAGO_ACCIONES.permitted(pagoState(row, comandaEstado), grants),
  };
}

export function toCuenta(
  cuenta: CuentaRow,
  pagos: PagoRow[],
  comandaEstado: 'abierta' | 'cerrada',
  timeZone: string,
  grants: Grants,
): CuentaComanda {
  return {
    subtotal: amount(cuenta.subtotal),
    descuento: amount(cuenta.descuento),
    descuento_tipo: cuenta.descuento_tipo,
    descuento_valor: amountOrNull(cuenta.descuento_valor),
    descuento_motivo: cuenta.descuento_motivo,
    recargo_consumo: amount(cuenta.recargo_consumo),
    total: amount(cuenta.total),
    igv: {
      tasa: Number(cuenta.tasa_igv),
      base: amount(cuenta.base_imponible),
      monto: amount(cuenta.igv),
    },
    redondeo: amount(cuenta.redondeo),
    propinas: amount(cuenta.propinas),
    pagado: amount(cuenta.pagado),
    reembolsado: amount(cuenta.reembolsado),
    saldo: amount(cuenta.saldo),
    saldo_efectivo: amount(cuenta.saldo_efectivo),
    estado_pago: cuenta.estado_pago,
    pagos: pagos.map((p) => toPago(p, comandaEstado, timeZone, grants)),
  };
}

/** A payment as it would be taken, and the bill after it (CobrosService.simulatePayment). */
export function toSimulacion(pago: PagoRow, cuenta: CuentaRow): SimulacionPagoDto {
  return {
    id_metodo_pago: pago.id_metodo_pago,
    metodo: pago.metodo,
    tipo: pago.tipo,
    monto: amount(pago.monto),
    propina: amount(pago.propina),
    recibido: amountOrNull(pago.recibido),
    vuelto: amount(pago.vuelto),
    id_sesion: Number(pago.id_sesion),
    id_caja: pago.id_caja,
    pagado: amount(cuenta.pagado),
    propinas: amount(cuenta.propinas),
    redondeo: amount(cuenta.redondeo),
    saldo: amount(cuenta.saldo),
    saldo_efectivo: amount(cuenta.saldo_efectivo),
    estado_pago: cuenta.estado_pago,
    salda: cuenta.saldado,
  };
}

export function toAjustes(row: AjustesRow): AjustesDto {
  return {
    tasa_recargo: Number(row.tasa_recargo),
    paso_redondeo: Number(row.paso_redondeo),
    tolerancia_cierre: amount(row.tolerancia_cierre),
    tasas_igv: row.tasas_igv.map((t) => ({ vigente_desde: t.vigente_desde, tasa: Number(t.tasa) })),
  };
}
