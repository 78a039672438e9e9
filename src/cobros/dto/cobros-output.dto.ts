import { ApiProperty } from '@nestjs/swagger';
import { DESCUENTO_TIPOS, type DescuentoTipo } from './pago-input.dto';

export const PAGO_ACTIONS = ['anular', 'reembolsar'] as const;
export type PagoAction = (typeof PAGO_ACTIONS)[number];

export const ESTADOS_PAGO = ['pendiente', 'pagada', 'reembolso_parcial', 'reembolsada'] as const;
export type EstadoPago = (typeof ESTADOS_PAGO)[number];

/** A payment of a comanda, as its detail lists it. */
export class PagoDto {
  @ApiProperty({ example: 88 }) id_pago!: number;
  @ApiProperty({ example: 1 }) id_metodo_pago!: number;
  @ApiProperty({ example: 'Efectivo' }) metodo!: string;
  @ApiProperty({ example: 'efectivo' }) tipo!: string;
  @ApiProperty({ example: 64.5, description: 'Applied to the bill' }) monto!: number;
  @ApiProperty({ example: 5 }) propina!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 100,
    description: 'Cash handed over (null: not cash)',
  })
  recibido!: number | null;
  @ApiProperty({ example: 30.5, description: 'Change: recibido − monto − propina' })
  vuelto!: number;
  @ApiProperty({ type: String, nullable: true, example: null }) referencia!: string | null;
  @ApiProperty({ enum: ['aplicado', 'anulado'] }) estado!: 'aplicado' | 'anulado';
  @ApiProperty({ example: 0, description: 'Refunded of it so far' }) reembolsado!: number;
  @ApiProperty({ example: 12, description: 'The till session that took it' }) id_sesion!: number;
  @ApiProperty({ example: 1 }) id_caja!: number;
  @ApiProperty({ type: Number, nullable: true, example: 7, description: 'Who took it' })
  id_usuario!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'Carmen Rojas' }) usuario!: string | null;
  @ApiProperty({ example: '2026-11-22T14:02:11-05:00' }) fec_pago!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) motivo_anulacion!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) fec_anulacion!: string | null;
  @ApiProperty({
    enum: PAGO_ACTIONS,
    isArray: true,
    example: ['anular'],
    description:
      'What the caller may do to it now: anular (DELETE …/pagos/{id_pago}, cobros:void) while it ' +
      'is aplicado, its comanda abierta and its session open; reembolsar (POST …/reembolsos, ' +
      'cobros:refund) while aplicado, not wholly refunded and its comanda cerrada',
  })
  acciones!: readonly PagoAction[];
}

/** The IGV of the bill: prices include it. */
export class IgvDto {
  @ApiProperty({ example: 0.18, description: 'The rate (frozen when the comanda closed)' })
  tasa!: number;
  @ApiProperty({ example: 54.66, description: 'round(T / (1 + tasa), 2), T = total − recargo' })
  base!: number;
  @ApiProperty({ example: 9.84, description: 'T − base' }) monto!: number;
}

/**
 * The bill: the fields the comanda's detail gains while cobros is on for the tenant (the
 * fields its contract adds to the detail: comanda-extension.ts); then the detail's `total` is
 * the bill's: subtotal − descuento + recargo_consumo.
 */
export class CuentaComandaDto {
  @ApiProperty({ required: false, example: 64.5, description: 'Sum of the lines (cobros)' })
  subtotal!: number;
  @ApiProperty({ required: false, example: 0, description: 'Discount amount (cobros)' })
  descuento!: number;
  @ApiProperty({
    required: false,
    enum: [...DESCUENTO_TIPOS, null],
    nullable: true,
    description: 'The discount as set: porcentaje or monto, null without one (cobros)',
  })
  descuento_tipo!: DescuentoTipo | null;
  @ApiProperty({
    required: false,
    type: Number,
    nullable: true,
    example: 10,
    description: 'Its valor: a percentage or soles (cobros)',
  })
  descuento_valor!: number | null;
  @ApiProperty({
    required: false,
    type: String,
    nullable: true,
    example: 'cliente frecuente',
    description: 'Why it was given (cobros)',
  })
  descuento_motivo!: string | null;
  @ApiProperty({
    required: false,
    example: 0,
    description:
      'Service charge: round((subtotal − descuento) × rate, 2), outside the IGV (cobros)',
  })
  recargo_consumo!: number;
  @ApiProperty({ required: false, type: IgvDto, description: 'IGV included in the total (cobros)' })
  igv!: IgvDto;
  @ApiProperty({
    required: false,
    example: -0.05,
    description: 'Cash rounding in the customer’s favour, `−0.10 < redondeo ≤ 0` (cobros)',
  })
  redondeo!: number;
  @ApiProperty({
    required: false,
    example: 5,
    description: 'Tips of the applied payments (cobros)',
  })
  propinas!: number;
  @ApiProperty({ required: false, example: 64.5, description: 'Σ applied payments (cobros)' })
  pagado!: number;
  @ApiProperty({ required: false, example: 0, description: 'Σ refunds (cobros)' })
  reembolsado!: number;
  @ApiProperty({
    required: false,
    example: 0,
    description: 'Still to pay: total + redondeo − pagado (cobros)',
  })
  saldo!: number;
  @ApiProperty({
    required: false,
    example: 0,
    description: 'What settles the balance in cash now: saldo rounded down to S/ 0.10 (cobros)',
  })
  saldo_efectivo!: number;
  @ApiProperty({ required: false, enum: ESTADOS_PAGO, description: '(cobros)' })
  estado_pago!: EstadoPago;
  @ApiProperty({
    required: false,
    type: [PagoDto],
    description: 'The payments, applied and voided, oldest first (cobros)',
  })
  pagos!: PagoDto[];
}
