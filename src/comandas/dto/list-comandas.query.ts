import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, Validate } from 'class-validator';
import { IsBusinessDate } from '../../common/validation';

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

  @ApiPropertyOptional({ description: 'Only comandas of this table', example: 3 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  id_mesa?: number;

  @ApiPropertyOptional({ description: 'Only comandas of this waiter', example: 4 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  id_usuario?: number;

  @ApiPropertyOptional({
    description: 'Opened on or after this business day (YYYY-MM-DD, tenant time zone)',
    example: '2026-11-01',
  })
  @IsOptional()
  @Validate(IsBusinessDate)
  desde?: string;

  @ApiPropertyOptional({
    description: 'Opened on or before this business day (YYYY-MM-DD, tenant time zone)',
    example: '2026-11-30',
  })
  @IsOptional()
  @Validate(IsBusinessDate)
  hasta?: string;

  @ApiPropertyOptional({
    description: 'true: only the logically deleted comandas; false (default): only the others',
    default: false,
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean({ message: 'eliminada must be true or false' })
  eliminada?: boolean;

  @ApiPropertyOptional({ default: LIST_LIMIT_DEFAULT, minimum: 1, maximum: LIST_LIMIT_MAX })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(LIST_LIMIT_MAX)
  limit?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  offset?: number;
}
