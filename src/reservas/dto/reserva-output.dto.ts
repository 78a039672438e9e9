import { ApiProperty } from '@nestjs/swagger';
import {
  RESERVA_ACTIONS,
  RESERVA_ESTADOS,
  type ReservaAction,
  type ReservaEstado,
} from '../reservas-state';

export class ReservaDto {
  @ApiProperty({ type: 'integer', example: 41 }) id_reserva!: number;
  @ApiProperty({ example: 'Familia Pérez' }) nombre!: string;
  @ApiProperty({ type: 'integer', example: 4 }) personas!: number;
  @ApiProperty({
    type: String,
    format: 'date',
    example: '2026-11-28',
    description: 'Business day, tenant time zone',
  })
  fecha!: string;
  @ApiProperty({ example: '20:30', description: 'HH:MM, tenant time zone' }) hora!: string;
  @ApiProperty({ type: 'integer', example: 3, nullable: true, description: 'null: no table yet' })
  id_mesa!: number | null;
  @ApiProperty({ type: 'integer', example: 3, nullable: true, description: 'Table number' })
  mesa!: number | null;
  @ApiProperty({ type: String, example: '987 654 321', nullable: true }) telefono!: string | null;
  @ApiProperty({ type: String, example: null, nullable: true }) observacion!: string | null;
  @ApiProperty({ type: 'integer', example: null, nullable: true }) id_cliente!: number | null;
  @ApiProperty({ type: String, example: null, nullable: true, description: 'Customer name' })
  cliente!: string | null;
  @ApiProperty({ enum: RESERVA_ESTADOS, example: 'pendiente' }) estado!: ReservaEstado;
  @ApiProperty({
    type: 'integer',
    example: null,
    nullable: true,
    description: 'The comanda opened when the party was seated',
  })
  id_comanda!: number | null;
  @ApiProperty({
    type: String,
    example: null,
    nullable: true,
    description: 'Reason of a cancellation',
  })
  motivo!: string | null;
  @ApiProperty({
    type: 'integer',
    example: 2,
    nullable: true,
    description: 'Who booked it (null without authentication)',
  })
  id_usuario_registro!: number | null;
  @ApiProperty({ example: '2026-11-22T13:05:09-05:00', description: 'When it was booked' })
  fec_registro!: string;
  @ApiProperty({
    type: 'integer',
    example: null,
    nullable: true,
    description: 'Who seated, cancelled or marked it no_show (null without authentication)',
  })
  id_usuario_estado!: number | null;
  @ApiProperty({
    type: String,
    example: null,
    nullable: true,
    description: 'When it left pendiente',
  })
  fec_estado!: string | null;
  @ApiProperty({
    type: 'integer',
    example: 1,
    description: 'Optimistic-concurrency version (the ETag)',
  })
  version!: number;
  @ApiProperty({
    enum: RESERVA_ACTIONS,
    isArray: true,
    example: ['editar', 'sentar', 'cancelar'],
    description:
      'What the caller may do to this reservation now: the actions its state allows (only ' +
      'pendiente allows any) that the caller’s roles give the permission of (every action the ' +
      'state allows with AUTH_MODE=off), in a fixed order: editar (PATCH), sentar, cancelar, ' +
      'no_show (POST .../no-show). A screen shows the buttons listed.',
  })
  acciones!: readonly ReservaAction[];
}
