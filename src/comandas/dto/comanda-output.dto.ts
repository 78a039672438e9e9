import { COMANDA_ACTIONS, type ComandaAction } from '../comanda-state';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ESTADOS_PAGO, IgvDto, PagoDto, type EstadoPago } from '../../cobros/dto/cobros-output.dto';
import { DESCUENTO_TIPOS, type DescuentoTipo } from '../../cobros/dto/pago-input.dto';

export class ComandaSummary {
  @ApiProperty({ example: 301 }) id_comanda!: number;
  @ApiProperty({ example: 301, description: 'Ticket number printed for the customer' })
  numero_ticket!: number;
  @ApiProperty({ example: 3, nullable: true, type: Number, description: 'null = take-away' })
  id_mesa!: number | null;
  @ApiProperty({ example: 3, nullable: true, type: Number, description: 'Table number' }) mesa!:
    number | null;
  @ApiProperty({ example: 4, nullable: true, type: Number }) id_usuario!: number | null;
  @ApiProperty({ example: 'Rosa Quispe', nullable: true, type: String, description: 'Waiter' })
  mozo!: string | null;
  @ApiProperty({ example: null, nullable: true, type: Number }) id_cliente!: number | null;
  @ApiProperty({ example: null, nullable: true, type: String }) cliente!: string | null;
  @ApiProperty({ enum: ['abierta', 'cerrada'] }) estado!: 'abierta' | 'cerrada';
  @ApiProperty({ example: '2026-11-22T13:05:09-05:00' }) fec_apertura!: string;
  @ApiProperty({ example: null, nullable: true, type: String }) fec_cierre!: string | null;
  @ApiProperty({ example: 64.5, description: 'Sum of the line subtotals' }) total!: number;
  @ApiProperty({ type: 'integer', example: 3, description: 'Number of lines' }) n_items!: number;
  @ApiProperty({
    type: 'integer',
    example: 3,
    deprecated: true,
    description: 'Deprecated: the same count as n_items, removed in the next release',
  })
  items!: number;
  @ApiProperty({ example: false }) eliminada!: boolean;
  @ApiProperty({ example: 2, description: 'Optimistic-concurrency version (the ETag)' })
  version!: number;
  @ApiProperty({
    enum: COMANDA_ACTIONS,
    isArray: true,
    example: ['cerrar', 'dividir', 'unir', 'transferir'],
    description:
      'What the caller may do to this comanda now: the actions its state allows (abierta, ' +
      'cerrada, eliminada) that the caller’s roles give the permission of (every action the ' +
      'state allows with AUTH_MODE=off). Named as the routes and the audit trail name them, in ' +
      'a fixed order (abrir, cerrar, restaurar, editar, eliminar, agregar_item, modificar_item, ' +
      'quitar_item, dividir, unir, transferir). A screen shows the buttons listed; a rule ' +
      'beyond the state can still refuse one (cerrar an empty comanda: 409 COMANDA_EMPTY).',
  })
  acciones!: readonly ComandaAction[];
}

export class ComandaItem {
  @ApiProperty({ example: 977 }) id_item!: number;
  @ApiProperty({ example: 12 }) id_producto!: number;
  @ApiProperty({ example: 'Ceviche clásico' }) producto!: string;
  @ApiProperty({ example: 2 }) cantidad!: number;
  @ApiProperty({ example: 32.0, description: 'Price captured when ordered' })
  precio_unitario!: number;
  @ApiProperty({ example: 64.0 }) subtotal!: number;
  @ApiProperty({ example: 'sin ají', nullable: true, type: String }) nota!: string | null;
  @ApiProperty({ example: 4, nullable: true, type: Number, description: 'Who added the line' })
  id_usuario!: number | null;
  @ApiProperty({ example: 'Rosa Quispe', nullable: true, type: String }) usuario!: string | null;
  @ApiProperty({ example: '2026-11-22T13:06:00-05:00' }) fec_registro!: string;

  // the kitchen (feature cocina; absent while it is off)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 9,
    example: 1,
    description: 'Feature cocina: the course',
  })
  curso?: number;
  @ApiPropertyOptional({
    enum: ['pendiente', 'enviado', 'en_preparacion', 'listo', 'entregado'],
    example: 'enviado',
    description: 'Feature cocina: where the line stands in the kitchen',
  })
  estado_cocina?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2026-11-22T13:07:00-05:00',
    description: 'Feature cocina: last sent',
  })
  fec_enviado?: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: null,
    description: 'Feature cocina: started',
  })
  fec_preparacion?: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: null,
    description: 'Feature cocina: ready',
  })
  fec_listo?: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: null,
    description: 'Feature cocina: served',
  })
  fec_entregado?: string | null;
}

export class ComandaDetail extends ComandaSummary {
  @ApiProperty({ example: null, nullable: true, type: String }) observacion!: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) fec_eliminacion!: string | null;
  @ApiProperty({ type: [ComandaItem] }) lineas!: ComandaItem[];

  // The bill, with the feature cobros on for the tenant (src/cobros, docs/cobros.md); then
  // `total` is the bill's: subtotal − descuento + recargo_consumo.

  @ApiProperty({ required: false, example: 64.5, description: 'Sum of the lines (cobros)' })
  subtotal?: number;
  @ApiProperty({ required: false, example: 0, description: 'Discount amount (cobros)' })
  descuento?: number;
  @ApiProperty({
    required: false,
    enum: [...DESCUENTO_TIPOS, null],
    nullable: true,
    description: 'The discount as set: porcentaje or monto, null without one (cobros)',
  })
  descuento_tipo?: DescuentoTipo | null;
  @ApiProperty({
    required: false,
    type: Number,
    nullable: true,
    example: 10,
    description: 'Its valor: a percentage or soles (cobros)',
  })
  descuento_valor?: number | null;
  @ApiProperty({
    required: false,
    type: String,
    nullable: true,
    example: 'cliente frecuente',
    description: 'Why it was given (cobros)',
  })
  descuento_motivo?: string | null;
  @ApiProperty({
    required: false,
    example: 0,
    description:
      'Service charge: round((subtotal − descuento) × rate, 2), outside the IGV (cobros)',
  })
  recargo_consumo?: number;
  @ApiProperty({ required: false, type: IgvDto, description: 'IGV included in the total (cobros)' })
  igv?: IgvDto;
  @ApiProperty({
    required: false,
    example: -0.05,
    description: 'Cash rounding in the customer’s favour, `−0.10 < redondeo ≤ 0` (cobros)',
  })
  redondeo?: number;
  @ApiProperty({
    required: false,
    example: 5,
    description: 'Tips of the applied payments (cobros)',
  })
  propinas?: number;
  @ApiProperty({ required: false, example: 64.5, description: 'Σ applied payments (cobros)' })
  pagado?: number;
  @ApiProperty({ required: false, example: 0, description: 'Σ refunds (cobros)' })
  reembolsado?: number;
  @ApiProperty({
    required: false,
    example: 0,
    description: 'Still to pay: total + redondeo − pagado (cobros)',
  })
  saldo?: number;
  @ApiProperty({
    required: false,
    example: 0,
    description: 'What settles the balance in cash now: saldo rounded down to S/ 0.10 (cobros)',
  })
  saldo_efectivo?: number;
  @ApiProperty({ required: false, enum: ESTADOS_PAGO, description: '(cobros)' })
  estado_pago?: EstadoPago;
  @ApiProperty({
    required: false,
    type: [PagoDto],
    description: 'The payments, applied and voided, oldest first (cobros)',
  })
  pagos?: PagoDto[];
}

export class ComandaEvento {
  @ApiProperty({ example: 591 }) id_evento!: number;
  @ApiProperty({ enum: ['crear', ...COMANDA_ACTIONS] })
  accion!: string;
  @ApiProperty({ example: null, nullable: true, type: Number, description: 'Actor, when known' })
  id_usuario!: number | null;
  @ApiProperty({ example: null, nullable: true, type: String }) usuario!: string | null;
  @ApiProperty({ example: 'cliente se retiró', nullable: true, type: String }) motivo!:
    string | null;
  @ApiProperty({ example: { estado: 'abierta', total: 64 }, nullable: true, type: Object })
  antes!: unknown;
  @ApiProperty({ example: { estado: 'cerrada', total: 64 }, nullable: true, type: Object })
  despues!: unknown;
  @ApiProperty({ example: '2026-11-22T13:30:00-05:00' }) fec_evento!: string;
}

/** The answer of a split: the comanda split and the new one, both as details. */
export class SplitResult {
  @ApiProperty({ type: ComandaDetail, description: 'The comanda split, without what moved' })
  origen!: ComandaDetail;
  @ApiProperty({ type: ComandaDetail, description: 'The new open comanda, with what moved' })
  nueva!: ComandaDetail;
}

/** One event of GET /comandas/stream: an audit entry and its comanda's summary (`data:`). */
export class ComandaStreamEvent {
  @ApiProperty({ example: 5012, description: 'The audit entry (also the event id)' })
  id_evento!: number;
  @ApiProperty({ example: 301 }) id_comanda!: number;
  @ApiProperty({ enum: ['crear', ...COMANDA_ACTIONS] }) accion!: string;
  @ApiProperty({ example: 4, nullable: true, type: Number, description: 'Actor, when known' })
  id_usuario!: number | null;
  @ApiProperty({ example: 'Rosa Quispe', nullable: true, type: String }) usuario!: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) motivo!: string | null;
  @ApiProperty({ example: '2026-11-22T13:30:00-05:00' }) fec_evento!: string;
  @ApiProperty({
    type: ComandaSummary,
    description:
      'The comanda as it is when the event is sent (its version is at least the entry’s)',
  })
  comanda!: ComandaSummary;
}
