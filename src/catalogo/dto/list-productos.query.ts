import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { IdFilter, PageLimit, PageOffset } from '../../common/http/paging';

export const PRODUCTOS_LIMIT_DEFAULT = 100;
export const PRODUCTOS_LIMIT_MAX = 500;
export const Q_MAX = 100;
/** `true` / `false` in a query string; anything else is left for IsBoolean to refuse. */
export const QueryBoolean = () =>
  Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  );

export class ListProductosQuery {
  @ApiPropertyOptional({
    type: String,
    maxLength: Q_MAX,
    description:
      'Part of the name, ignoring case; `%` and `_` are plain characters (empty: every product)',
    example: 'cevi',
  })
  @IsOptional()
  @IsString()
  @MaxLength(Q_MAX)
  q?: string;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only the products on sale; false: only the withdrawn ones; default: all',
    example: true,
  })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'activo must be true or false' })
  activo?: boolean;

  @IdFilter('Only the products of this category', 1)
  id_categoria?: number;

  @PageLimit(PRODUCTOS_LIMIT_DEFAULT, PRODUCTOS_LIMIT_MAX)
  limit?: number;

  @PageOffset('Products')
  offset?: number;
}
