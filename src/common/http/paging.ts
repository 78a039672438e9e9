import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_INT4 } from '../validation';

/** The largest offset a list accepts (a page beyond it is a client's mistake). */
const OFFSET_MAX = 1_000_000_000;

/** `limit` of a list query: 1 to `max`, `defaultSize` when absent; above `max` is 400, not cut. */
export function PageLimit(defaultSize: number, max: number): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      default: defaultSize,
      minimum: 1,
      maximum: max,
      description: 'Page size (above the maximum is 400, not cut)',
    }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(max),
  );
}

/** `offset` of a list query: how many `items` (comandas, reservations ...) come before the page. */
export function PageOffset(items: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      default: 0,
      minimum: 0,
      maximum: OFFSET_MAX,
      description: `${items} skipped before the page`,
    }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(0),
    Max(OFFSET_MAX),
  );
}

/** An optional id filter of a list query (`id_mesa`, `id_usuario` ...): 1 to the largest integer. */
export function IdFilter(description: string, example: number): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_INT4, description, example }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(MAX_INT4),
  );
}
