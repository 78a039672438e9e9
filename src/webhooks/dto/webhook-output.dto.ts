import { ApiProperty } from '@nestjs/swagger';
import {
  ENTREGA_ACTIONS,
  ENTREGA_ESTADOS,
  WEBHOOK_ACTIONS,
  WEBHOOK_ESTADOS,
  type EntregaAction,
  type EntregaEstado,
  type WebhookAction,
  type WebhookEstado,
} from '../webhook-actions';

const INSTANT = { type: String, format: 'date-time' } as const;

export class WebhookDto {
  @ApiProperty({ type: 'integer', example: 3 }) id_webhook!: number;
  @ApiProperty({ example: 'https://erp.example.com/hooks/comandas' }) url!: string;
  @ApiProperty({ type: [String], example: ['comanda.cerrar', 'pago.*'] }) eventos!: string[];
  @ApiProperty({ type: String, nullable: true, example: 'Contabilidad: ventas cerradas' })
  descripcion!: string | null;
  @ApiProperty({ example: true, description: 'Whether messages are sent to it' })
  activo!: boolean;
  @ApiProperty({ enum: WEBHOOK_ESTADOS, example: 'activo' }) estado!: WebhookEstado;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      'Why the service switched it off (the receiver answered 410, or failed for 5 days); null when on or switched off by a person',
  })
  motivo_desactivacion!: string | null;
  @ApiProperty({ ...INSTANT, nullable: true, example: null }) fec_desactivacion!: string | null;
  @ApiProperty({
    ...INSTANT,
    nullable: true,
    example: null,
    description: 'Its first failed attempt since the last delivered message; null: healthy',
  })
  fallando_desde!: string | null;
  @ApiProperty({
    ...INSTANT,
    nullable: true,
    example: null,
    description: 'Until when the secret before the last rotation also signs; null: one secret',
  })
  secreto_anterior_hasta!: string | null;
  @ApiProperty({ ...INSTANT, example: '2026-11-28T10:15:00.000-05:00' }) created_at!: string;
  @ApiProperty({ ...INSTANT, example: '2026-11-28T10:15:00.000-05:00' }) updated_at!: string;
  @ApiProperty({
    enum: WEBHOOK_ACTIONS,
    isArray: true,
    example: ['editar', 'probar', 'rotar', 'desactivar', 'eliminar'],
    description: 'What the caller may do to it now',
  })
  acciones!: readonly WebhookAction[];
}

export class WebhookConSecretoDto extends WebhookDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description:
      'The signing secret: shown in this answer only (at creation and at each rotation). Store it: it cannot be read again',
  })
  secreto!: string;
}

export class IntentoDto {
  @ApiProperty({ ...INSTANT, example: '2026-11-28T10:15:01.120-05:00' }) fec!: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 503, description: 'null: no answer' })
  status!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'HTTP 503' }) error!: string | null;
  @ApiProperty({ type: 'integer', example: 84 }) duracion_ms!: number;
}

export class EntregaDto {
  @ApiProperty({ type: 'integer', example: 1201 }) id_entrega!: number;
  @ApiProperty({ type: 'integer', example: 3 }) id_webhook!: number;
  @ApiProperty({
    example: 'msg_2b7f0c1e9a3d4c5e8f10a2b3c4d5e6f7',
    description: 'The webhook-id header: the same on every attempt (receivers dedupe by it)',
  })
  webhook_id!: string;
  @ApiProperty({ example: 'comanda.cerrar' }) tipo!: string;
  @ApiProperty({ enum: ENTREGA_ESTADOS, example: 'entregado' }) estado!: EntregaEstado;
  @ApiProperty({
    type: 'integer',
    example: 1,
    description: 'Attempts since it was queued or last re-sent (historial has every attempt)',
  })
  intentos!: number;
  @ApiProperty({
    ...INSTANT,
    nullable: true,
    example: null,
    description: 'When the next attempt is due (pendiente only)',
  })
  proximo_intento!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) ultimo_status!: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) ultimo_error!: string | null;
  @ApiProperty({ ...INSTANT, example: '2026-11-28T10:15:00.950-05:00' }) fec_creacion!: string;
  @ApiProperty({ ...INSTANT, nullable: true, example: '2026-11-28T10:15:01.120-05:00' })
  fec_entrega!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: {
      type: 'comanda.cerrar',
      timestamp: '2026-11-28T15:15:00.950000Z',
      data: { id_comanda: 812, version: 7, estado: 'cerrada', total: 86.5 },
    },
    description: 'The body sent, as sent on every attempt',
  })
  cuerpo!: Record<string, unknown>;
  @ApiProperty({ type: [IntentoDto], description: 'Its attempts, oldest first' })
  historial!: IntentoDto[];
  @ApiProperty({
    enum: ENTREGA_ACTIONS,
    isArray: true,
    example: ['reenviar'],
    description: 'What the caller may do to it now',
  })
  acciones!: readonly EntregaAction[];
}
