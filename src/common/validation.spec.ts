import { BadRequestException } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { createValidationPipe, hasAtMostDecimals, IsDecimalNumber } from './validation';

class Line {
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_producto!: number;
}

class Body {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_mesa?: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  driver!: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Line)
  items?: Line[];
}

class Quantity {
  @IsDecimalNumber(3)
  @Min(0.001)
  cantidad!: number;
}

class Query {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

const pipe = createValidationPipe();

async function detailOf(
  value: unknown,
  type: 'body' | 'query',
  metatype: object,
): Promise<unknown> {
  try {
    await pipe.transform(value, { type, metatype: metatype as never });
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { detail: unknown }).detail;
  }
  throw new Error('expected a validation error');
}

describe('the validation pipe', () => {
  it('names the type, not the range, of a value of the wrong type', async () => {
    expect(await detailOf({ id_mesa: 'tres', driver: 'x' }, 'body', Body)).toEqual([
      'id_mesa must be an integer number',
    ]);
  });

  it('says a required field is required, not how long it may be', async () => {
    expect(await detailOf({}, 'body', Body)).toEqual(['driver is required']);
  });

  it('gives the range when the type is right', async () => {
    expect(await detailOf({ id_mesa: 99_999_999_999, driver: 'x' }, 'body', Body)).toEqual([
      'id_mesa must not be greater than 2147483647',
    ]);
  });

  it('gives one message per field, nested fields by their path, unknown fields refused', async () => {
    expect(
      await detailOf({ driver: 'x', items: [{ id_producto: 'uno' }], color: 'rojo' }, 'body', Body),
    ).toEqual(['property color should not exist', 'items.0.id_producto must be an integer number']);
  });

  it('refuses a query parameter given twice with one message', async () => {
    expect(await detailOf({ limit: ['5', '6'] }, 'query', Query)).toEqual([
      'limit must be given once (it was given 2 times)',
    ]);
  });

  it('counts the decimals of numbers whose text has an exponent (1e-7, 4e-323)', async () => {
    for (const cantidad of [1e-7, -4e-323, 5e-324, 0.0001]) {
      expect(await detailOf({ cantidad }, 'body', Quantity)).toEqual([
        'cantidad must be a number with at most 3 decimals',
      ]);
    }
    expect(await detailOf({ cantidad: '2' }, 'body', Quantity)).toEqual([
      'cantidad must be a number with at most 3 decimals',
    ]);
    await expect(
      pipe.transform({ cantidad: 0.125 }, { type: 'body', metatype: Quantity }),
    ).resolves.toEqual({ cantidad: 0.125 });
    expect([2, 0.001, 1234.5, 1e21].every((n) => hasAtMostDecimals(n, 3))).toBe(true);
    expect([0.0005, NaN, Infinity, 1e-7].some((n) => hasAtMostDecimals(n, 3))).toBe(false);
  });

  it('converts and accepts valid values', async () => {
    await expect(
      pipe.transform({ limit: '5' }, { type: 'query', metatype: Query }),
    ).resolves.toEqual({ limit: 5 });
  });
});
