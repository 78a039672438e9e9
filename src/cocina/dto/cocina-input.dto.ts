import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { IdFilter, PageLimit, PageOffset } from '../../common/http/paging';

export const ESTACION_TIPOS = ['preparacion', 'expo'] as const;
export type EstacionTipo = (typeof ESTACION_TIPOS)[number];

/** The changeable fields of a station. */
export class EstacionPatchBody {
  @ApiPropertyOptional({ type: String, example: 'Parrilla', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  nombre?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1440,
    example: 8,
    description: 'Minutes after which a ticket turns yellow (less than alerta_roja_min)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1440)
  alerta_amarilla_min?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 2,
    maximum: 1440,
    example: 15,
    description: 'Minutes after which a ticket turns red',
  })
  @IsOptional()
  @IsInt()
  @Min(2)
  @Max(1440)
  alerta_roja_min?: number;

  @ApiPropertyOptional({ type: Boolean, example: true })
  @IsOptional()
  @IsBoolean()
  activo?: boolean;
}

/** A new station: its name, its kind, its alert thresholds (defaults 8 and 15 minutes). */
export class EstacionBody extends OmitType(EstacionPatchBody, ['nombre'] as const) {
  @ApiProperty({ type: String, example: 'Parrilla', maxLength: 100 })
  @IsString()
  @MaxLength(100)
  nombre!: string;

  @ApiPropertyOptional({
    enum: ESTACION_TIPOS,
    description: 'preparacion (default) receives tickets; expo sees every station’s',
  })
  @IsOptional()
  @IsIn(ESTACION_TIPOS)
  tipo?: EstacionTipo;
}

export class EstacionCategoriasBody {
  @ApiProperty({
    type: 'integer',
    isArray: true,
    maxItems: 500,
    example: [2, 5],
    description: 'The categories this station prepares (each leaves the station it was at)',
  })
  @IsArray()
  @ArrayMaxSize(500)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  categorias!: number[];
}

export const ENVIOS_FILTROS = ['pendiente', 'listo', 'todos'] as const;

export class ListEnviosQuery {
  @IdFilter('The station whose tickets (an expo station: every station’s); default: all', 1)
  estacion?: number;

  @ApiPropertyOptional({
    enum: ENVIOS_FILTROS,
    description:
      'pendiente (default: pendiente and en_preparacion, oldest first), listo (newest first), todos (newest first)',
  })
  @IsOptional()
  @IsIn(ENVIOS_FILTROS)
  estado?: (typeof ENVIOS_FILTROS)[number];

  @PageLimit(50, 200)
  limit?: number;

  @PageOffset('Tickets')
  offset?: number;
}

export class CocinaStreamQuery {
  @IdFilter('Only events touching this station’s tickets (an expo station: all)', 1)
  estacion?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    example: 5012,
    description: 'Resume after this event id (for clients that cannot send Last-Event-ID)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  lastEventId?: number;

  @ApiPropertyOptional({
    type: String,
    example: 'demo',
    description: 'For EventSource (no headers): the tenant',
  })
  @IsOptional()
  @IsString()
  tenant?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'With AUTH_MODE=jwt, for EventSource: a token expiring within 5 minutes',
  })
  @IsOptional()
  @IsString()
  access_token?: string;
}
