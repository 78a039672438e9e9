import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ENVIO_ACTIONS,
  ENVIO_ESTADOS,
  ESTADOS_COCINA,
  type EnvioAction,
  type EnvioEstado,
  type EstadoCocina,
} from '../cocina-actions';
import { ESTACION_TIPOS, type EstacionTipo } from './cocina-input.dto';

export class EstacionDto {
  @ApiProperty({ example: 1 }) id_estacion!: number;
  @ApiProperty({ example: 'Cocina' }) nombre!: string;
  @ApiProperty({ enum: ESTACION_TIPOS, example: 'preparacion' }) tipo!: EstacionTipo;
  @ApiProperty({ example: 8 }) alerta_amarilla_min!: number;
  @ApiProperty({ example: 15 }) alerta_roja_min!: number;
  @ApiProperty({ example: true }) activo!: boolean;
  @ApiProperty({ type: 'integer', isArray: true, example: [2, 5], description: 'Its categories' })
  categorias!: number[];
}

export const ENVIO_TIPOS = ['nuevo', 'adicional', 'anulacion'] as const;

export class EnvioLineaDto {
  @ApiProperty({ example: 977 }) id_item!: number;
  @ApiProperty({ example: 12 }) id_producto!: number;
  @ApiProperty({ example: 'Ceviche clásico' }) producto!: string;
  @ApiProperty({ example: 2, description: 'Signed: negative in a cancellation (anulacion)' })
  cantidad!: number;
  @ApiProperty({ type: String, nullable: true, example: 'sin ají' }) nota!: string | null;
  @ApiProperty({
    enum: ESTADOS_COCINA,
    nullable: true,
    example: 'enviado',
    description: 'The line’s kitchen state now (null: the line was voided)',
  })
  estado_cocina!: EstadoCocina | null;
}

export class EnvioDto {
  @ApiProperty({ example: 41 }) id_envio!: number;
  @ApiProperty({ example: 301 }) id_comanda!: number;
  @ApiProperty({ example: 1042 }) numero_ticket!: number;
  @ApiProperty({ type: Number, nullable: true, example: 3, description: 'The table’s number' })
  mesa!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'Rosa Quispe' }) mozo!: string | null;
  @ApiProperty({ example: 1 }) id_estacion!: number;
  @ApiProperty({ example: 1 }) curso!: number;
  @ApiProperty({ enum: ENVIO_TIPOS, example: 'nuevo' }) tipo!: (typeof ENVIO_TIPOS)[number];
  @ApiProperty({ enum: ENVIO_ESTADOS, example: 'pendiente' }) estado!: EnvioEstado;
  @ApiProperty({ type: [EnvioLineaDto] }) lineas!: EnvioLineaDto[];
  @ApiProperty({ example: '2026-11-22T13:07:00-05:00' }) fec_envio!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) fec_listo!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22T13:07:00-05:00',
    description: 'When its course was fired',
  })
  fec_disparo!: string | null;
  @ApiProperty({
    enum: ENVIO_ACTIONS,
    isArray: true,
    example: ['preparar', 'listo'],
    description: 'What the caller may do to the ticket now',
  })
  acciones!: readonly EnvioAction[];
}

export class EnvioResult {
  @ApiProperty({ type: [EnvioDto], description: 'The tickets written (none: nothing new)' })
  envios!: EnvioDto[];
  @ApiProperty({ example: 4, description: 'The comanda’s version now (unchanged when none)' })
  version!: number;
}

/**
 * The kitchen fields each line of a comanda's detail gains while cocina is on for the tenant
 * (the fields its contract adds to the detail's lines: comanda-extension.ts).
 */
export class LineaCocinaDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 9,
    example: 1,
    description: 'Feature cocina: the course',
  })
  curso!: number;
  @ApiPropertyOptional({
    enum: ESTADOS_COCINA,
    example: 'enviado',
    description: 'Feature cocina: where the line stands in the kitchen',
  })
  estado_cocina!: EstadoCocina;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2026-11-22T13:07:00-05:00',
    description: 'Feature cocina: last sent',
  })
  fec_enviado!: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: null,
    description: 'Feature cocina: started',
  })
  fec_preparacion!: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: null,
    description: 'Feature cocina: ready',
  })
  fec_listo!: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: null,
    description: 'Feature cocina: served',
  })
  fec_entregado!: string | null;
}
