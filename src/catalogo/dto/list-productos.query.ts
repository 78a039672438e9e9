import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageLimit, PageOffset } from '../../common/http/paging';

export const PRODUCTOS_LIMIT_DEFAULT = 100;
export const PRODUCTOS_LIMIT_MAX = 500;
export const Q_MAX = 100;
/** Ids are PostgreSQL integers: a larger one is refused here, not by the database (22003). */
const MAX_INT4 = 2_147_483_647;

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

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INT4,
    description: 'Only the products of this category',
    example: 1,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_categoria?: number;

  @PageLimit(PRODUCTOS_LIMIT_DEFAULT, PRODUCTOS_LIMIT_MAX)
  limit?: number;

  @PageOffset('Products')
  offset?: number;
}
