import { ApiProperty } from '@nestjs/swagger';
import { ESTADOS_PAGO, type EstadoPago } from './cobros-output.dto';

/**
 * What a payment would do (POST /comandas/:id/pagos/simulacion): the payment as the service
 * would take it, and the comanda's bill after it. Every figure is the one the payment itself
 * would record, worked out by the same code and rolled back.
 */
export class SimulacionPagoDto {
  @ApiProperty({ example: 1 }) id_metodo_pago!: number;
  @ApiProperty({ example: 'Efectivo' }) metodo!: string;
  @ApiProperty({ example: 'efectivo' }) tipo!: string;
  @ApiProperty({
    example: 54.8,
    description:
      'What the bill would take of it: the monto sent, or in cash the cash balance ' +
      '(saldo_efectivo) when the monto reaches it',
  })
  monto!: number;
  @ApiProperty({ example: 0 }) propina!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 60,
    description: 'Cash handed over: as sent, or monto + propina (null: not cash)',
  })
  recibido!: number | null;
  @ApiProperty({ example: 5.2, description: 'The change: recibido − monto applied − propina' })
  vuelto!: number;
  @ApiProperty({ example: 12, description: 'The open till session that would take it' })
  id_sesion!: number;
  @ApiProperty({ example: 1 }) id_caja!: number;
  @ApiProperty({ example: 54.8, description: 'The bill after it: Σ monto of the applied payments' })
  pagado!: number;
  @ApiProperty({ example: 0, description: 'The bill after it: its tips' }) propinas!: number;
  @ApiProperty({
    example: -0.05,
    description: 'The bill after it: the cash rounding in the customer’s favour',
  })
  redondeo!: number;
  @ApiProperty({ example: 0, description: 'The bill after it: what is still due' })
  saldo!: number;
  @ApiProperty({
    example: 0,
    description: 'The bill after it: what settles the rest in cash (saldo rounded down)',
  })
  saldo_efectivo!: number;
  @ApiProperty({ enum: ESTADOS_PAGO, example: 'pagada', description: 'The bill after it' })
  estado_pago!: EstadoPago;
  @ApiProperty({
    example: true,
    description:
      'Whether it settles the bill (nothing due after it): a PUT /comandas/{id} with ' +
      '{"action":"cerrar","pagos":[this body]} would pay and close',
  })
  salda!: boolean;
}
