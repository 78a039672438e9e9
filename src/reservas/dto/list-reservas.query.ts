import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min, Validate } from 'class-validator';
import { IsBusinessDate } from '../../common/validation';
import { RESERVA_ESTADOS, type ReservaEstado } from '../reservas-state';

export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 500;
const MAX_INT4 = 2_147_483_647;

export class ListReservasQuery {
  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description: 'The business day (YYYY-MM-DD, tenant time zone); default: today there',
    example: '2026-11-28',
  })
  @IsOptional()
  @Validate(IsBusinessDate)
  fecha?: string;

  @ApiPropertyOptional({ enum: RESERVA_ESTADOS, description: 'Only reservations in this estado' })
  @IsOptional()
  @IsIn(RESERVA_ESTADOS)
  estado?: ReservaEstado;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INT4,
    description: 'Only reservations of this table',
    example: 3,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_mesa?: number;

  @ApiPropertyOptional({
    type: 'integer',
    default: LIST_LIMIT_DEFAULT,
    minimum: 1,
    maximum: LIST_LIMIT_MAX,
    description: 'Page size (above the maximum is 400, not cut)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(LIST_LIMIT_MAX)
  limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    default: 0,
    minimum: 0,
    maximum: 1_000_000_000,
    description: 'Reservations skipped before the page',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  offset?: number;
}
