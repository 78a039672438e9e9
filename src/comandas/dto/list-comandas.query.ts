import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, Validate } from 'class-validator';
import { IsBusinessDate } from '../../common/validation';
import { IdFilter, PageLimit, PageOffset } from '../../common/http/paging';

export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 500;

export class ListComandasQuery {
  @ApiPropertyOptional({
    enum: ['abierta', 'cerrada'],
    description: 'Only comandas in this estado',
  })
  @IsOptional()
  @IsIn(['abierta', 'cerrada'])
  estado?: 'abierta' | 'cerrada';

  @IdFilter('Only comandas of this table', 3)
  id_mesa?: number;

  @IdFilter('Only comandas of this waiter', 4)
  id_usuario?: number;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description: 'Opened on or after this business day (YYYY-MM-DD, tenant time zone)',
    example: '2026-11-01',
  })
  @IsOptional()
  @Validate(IsBusinessDate)
  desde?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description: 'Opened on or before this business day (YYYY-MM-DD, tenant time zone)',
    example: '2026-11-30',
  })
  @IsOptional()
  @Validate(IsBusinessDate)
  hasta?: string;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only the logically deleted comandas; false (default): only the others',
    default: false,
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean({ message: 'eliminada must be true or false' })
  eliminada?: boolean;

  @PageLimit(LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX)
  limit?: number;

  @PageOffset('Comandas')
  offset?: number;
}
