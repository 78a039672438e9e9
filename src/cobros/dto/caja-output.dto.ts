import { ApiProperty } from '@nestjs/swagger';
import { ConteoDenominacion } from './caja-input.dto';

export const METODO_TIPOS = ['efectivo', 'tarjeta', 'billetera', 'transferencia', 'otro'] as const;
export type MetodoTipo = (typeof METODO_TIPOS)[number];

export const SESION_ACTIONS = ['registrar_movimiento', 'cerrar'] as const;
export type SesionAction = (typeof SESION_ACTIONS)[number];
export const CAJA_ACTIONS = ['abrir_sesion'] as const;
export type CajaAction = (typeof CAJA_ACTIONS)[number];

export class MetodoPagoDto {
  @ApiProperty({ example: 1 }) id_metodo_pago!: number;
  @ApiProperty({ example: 'Efectivo' }) nombre!: string;
  @ApiProperty({ enum: METODO_TIPOS }) tipo!: MetodoTipo;
  @ApiProperty({ example: true, description: 'Counted in the till at the close' })
  cuenta_en_caja!: boolean;
}

export class CajaDto {
  @ApiProperty({ example: 1 }) id_caja!: number;
  @ApiProperty({ example: 'Caja 1' }) nombre!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 12,
    description: 'Its open session (null: none is open)',
  })
  id_sesion_abierta!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 200, description: 'Its float' })
  monto_apertura!: number | null;
  @ApiProperty({ type: String, nullable: true, example: '2026-11-22T11:58:00-05:00' })
  fec_apertura!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Carmen Rojas',
    description: 'Who opened it',
  })
  abierta_por!: string | null;
  @ApiProperty({
    enum: CAJA_ACTIONS,
    isArray: true,
    description: 'abrir_sesion (POST /cajas/{id}/sesiones, caja:operate) while none is open',
  })
  acciones!: readonly CajaAction[];
}

export class SesionCajaDto {
  @ApiProperty({ example: 12 }) id_sesion!: number;
  @ApiProperty({ example: 1 }) id_caja!: number;
  @ApiProperty({ example: 'Caja 1' }) caja!: string;
  @ApiProperty({ enum: ['abierta', 'cerrada'] }) estado!: 'abierta' | 'cerrada';
  @ApiProperty({ type: Number, nullable: true, example: null, description: 'Set at the close' })
  numero_z!: number | null;
  @ApiProperty({ example: 200 }) monto_apertura!: number;
  @ApiProperty({ example: '2026-11-22T11:58:00-05:00' }) fec_apertura!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) fec_cierre!: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 3 }) id_usuario_apertura!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'Carmen Rojas' }) abierta_por!:
    string | null;
  @ApiProperty({ type: Number, nullable: true, example: null }) id_usuario_cierre!: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) cerrada_por!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) nota!: string | null;
  @ApiProperty({
    enum: SESION_ACTIONS,
    isArray: true,
    description:
      'registrar_movimiento (POST …/movimientos) and cerrar (POST …/cerrar), caja:operate, while abierta',
  })
  acciones!: readonly SesionAction[];
}

export class MovimientoDto {
  @ApiProperty({ example: 7 }) id_movimiento!: number;
  @ApiProperty({ example: 12 }) id_sesion!: number;
  @ApiProperty({ enum: ['ingreso', 'retiro'] }) tipo!: 'ingreso' | 'retiro';
  @ApiProperty({ example: 40 }) monto!: number;
  @ApiProperty({ example: 'compra de limones' }) motivo!: string;
  @ApiProperty({ type: Number, nullable: true, example: 3 }) id_usuario!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'Carmen Rojas' }) usuario!: string | null;
  @ApiProperty({ example: '2026-11-22T16:10:00-05:00' }) fec_movimiento!: string;
}

/** The figures of one payment method in an X or Z. */
export class ReporteMetodoDto {
  @ApiProperty({ example: 1 }) id_metodo_pago!: number;
  @ApiProperty({ example: 'Efectivo' }) nombre!: string;
  @ApiProperty({ enum: METODO_TIPOS }) tipo!: MetodoTipo;
  @ApiProperty({ example: true }) cuenta_en_caja!: boolean;
  @ApiProperty({ example: 31, description: 'Applied payments' }) pagos!: number;
  @ApiProperty({ example: 1410.5, description: 'Σ monto of the applied payments' }) ventas!: number;
  @ApiProperty({ example: 35, description: 'Σ propina of the applied payments' }) propinas!: number;
  @ApiProperty({ example: 0, description: 'Refunds paid out of this session' })
  reembolsos!: number;
  @ApiProperty({ example: 200, description: 'Opening float (the cash method only)' })
  apertura!: number;
  @ApiProperty({ example: 0, description: 'Cash put in (the cash method only)' }) ingresos!: number;
  @ApiProperty({ example: 40, description: 'Cash taken out (the cash method only)' })
  retiros!: number;
  @ApiProperty({
    example: 1605.5,
    description: 'apertura + ventas + propinas + ingresos − retiros − reembolsos',
  })
  esperado!: number;
  @ApiProperty({ type: Number, nullable: true, example: 1603.5, description: 'Z only' })
  contado!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: -2, description: 'contado − esperado (Z)' })
  diferencia!: number | null;
}

export class ReporteTotalesDto {
  @ApiProperty({ example: 58 }) pagos!: number;
  @ApiProperty({ example: 41, description: 'Comandas with an applied payment in the session' })
  comandas!: number;
  @ApiProperty({ example: 2630.5 }) ventas!: number;
  @ApiProperty({ example: 61 }) propinas!: number;
  @ApiProperty({ example: 0 }) reembolsos!: number;
  @ApiProperty({ example: 0 }) ingresos!: number;
  @ApiProperty({ example: 40 }) retiros!: number;
  @ApiProperty({ example: 2851.5 }) esperado!: number;
  @ApiProperty({ type: Number, nullable: true, example: 2849.5 }) contado!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: -2 }) diferencia!: number | null;
}

/** The X (open session: figures so far) or the Z (closed: the close as recorded). */
export class ReporteCajaDto {
  @ApiProperty({ enum: ['X', 'Z'] }) tipo!: 'X' | 'Z';
  @ApiProperty({ type: SesionCajaDto }) sesion!: SesionCajaDto;
  @ApiProperty({ example: '2026-11-22T23:10:00-05:00', description: 'When the figures were read' })
  fec_reporte!: string;
  @ApiProperty({ type: [ReporteMetodoDto] }) metodos!: ReporteMetodoDto[];
  @ApiProperty({ type: ReporteTotalesDto }) totales!: ReporteTotalesDto;
  @ApiProperty({ type: [MovimientoDto] }) movimientos!: MovimientoDto[];
  @ApiProperty({
    type: [ConteoDenominacion],
    nullable: true,
    description: 'The cash count by denomination given at the close (Z)',
  })
  conteo!: { denominacion: number; cantidad: number }[] | null;
}

export class TasaIgvDto {
  @ApiProperty({ example: '2000-01-01' }) vigente_desde!: string;
  @ApiProperty({ example: 0.18 }) tasa!: number;
}

export class AjustesDto {
  @ApiProperty({ example: 0 }) tasa_recargo!: number;
  @ApiProperty({ example: 0.1 }) paso_redondeo!: number;
  @ApiProperty({ example: 5 }) tolerancia_cierre!: number;
  @ApiProperty({ type: [TasaIgvDto] }) tasas_igv!: TasaIgvDto[];
}
