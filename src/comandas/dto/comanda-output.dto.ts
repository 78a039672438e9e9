import { COMANDA_OWN_ACTIONS, type ComandaAction } from '../comanda-state';
import { ApiProperty } from '@nestjs/swagger';

/*
 * The answers' shapes. The modules that extend the comandas add fields of their own to the
 * detail and its lines, and their actions to the enums of `acciones` and `accion`, when the
 * application is composed (ComandasModule.extendWith): the document shows them all.
 */

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
    enum: COMANDA_OWN_ACTIONS,
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
}

export class ComandaDetail extends ComandaSummary {
  @ApiProperty({ example: null, nullable: true, type: String }) observacion!: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) fec_eliminacion!: string | null;
  @ApiProperty({ type: [ComandaItem] }) lineas!: ComandaItem[];
}

export class ComandaEvento {
  @ApiProperty({ example: 591 }) id_evento!: number;
  @ApiProperty({ enum: ['crear', ...COMANDA_OWN_ACTIONS] })
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
  @ApiProperty({ enum: ['crear', ...COMANDA_OWN_ACTIONS] }) accion!: string;
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
