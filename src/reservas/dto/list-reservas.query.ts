import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Validate } from 'class-validator';
import { IsBusinessDate } from '../../common/validation';
import { RESERVA_ESTADOS, type ReservaEstado } from '../reservas-state';
import { IdFilter, PageLimit, PageOffset } from '../../common/http/paging';

export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 500;

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

  @IdFilter('Only reservations of this table', 3)
  id_mesa?: number;

  @PageLimit(LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX)
  limit?: number;

  @PageOffset('Reservations')
  offset?: number;
}
