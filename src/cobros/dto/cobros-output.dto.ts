import { ApiProperty } from '@nestjs/swagger';

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
