import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsDecimalNumber, MAX_INT4 } from '../../common/validation';

/** The largest amount one payment, refund, movement or count line may carry (soles). */
export const MAX_MONTO = 1_000_000;
const MOTIVO_MAX = 500;

/** An amount of money: a number of soles with at most 2 decimals (never computed here). */
export function IsMonto(min: number): PropertyDecorator {
  return (target, key) => {
    IsDecimalNumber(2)(target, key);
    Min(min)(target, key);
    Max(MAX_MONTO)(target, key);
  };
}

/** A payment of a comanda (POST /comandas/:id/pagos; each of PUT's `pagos` when closing). */
export class PagoInput {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1, description: 'GET /metodos-pago' })
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_metodo_pago!: number;

  @ApiProperty({
    type: Number,
    minimum: 0.01,
    maximum: MAX_MONTO,
    example: 64.5,
    description:
      'What is applied to the bill (soles, 2 decimals). Not cash: at most the balance (409 ' +
      'PAGO_EXCEDE_SALDO). Cash: more than the balance settles it and the rest is change (vuelto); ' +
      'the balance is rounded down to S/ 0.10 when cash settles it.',
  })
  @IsMonto(0.01)
  monto!: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: MAX_MONTO,
    example: 5,
    description: 'Tip, on top of monto; never part of the sale (default 0)',
  })
  @IsOptional()
  @IsMonto(0)
  propina?: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0.01,
    maximum: MAX_MONTO,
    example: 100,
    description:
      'Cash only: what the customer handed over (default monto + propina); the change is ' +
      'recibido − monto applied − propina',
  })
  @IsOptional()
  @IsMonto(0.01)
  recibido?: number;

  @ApiPropertyOptional({
    type: String,
    maxLength: 120,
    example: 'VISA 4821 aut. 093311',
    description: 'Voucher, operation number',
  })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  referencia?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 1,
    description:
      'The till whose open session takes the payment (default: the session the caller opened, ' +
      'else the only open one)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_caja?: number;
}

/**
 * What `PUT /comandas/:id` takes while cobros is on (the field its contract adds to the
 * comanda's body: comanda-extension.ts): pay and close in one step.
 */
export class CierreConPagosBody {
  @ApiPropertyOptional({
    type: [PagoInput],
    maxItems: 20,
    description:
      'With {"action":"cerrar"} and the feature cobros: payments applied before closing, in the ' +
      'same transaction (all or nothing). Refused while cobros is off.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => PagoInput)
  pagos?: PagoInput[];
}

/** DELETE /comandas/:id/pagos/:id_pago: why the payment is voided (required). */
export class AnularPagoBody {
  @ApiPropertyOptional({
    type: String,
    maxLength: MOTIVO_MAX,
    example: 'se cobró con el método equivocado',
    description: 'Required, in the body or the query',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MOTIVO_MAX)
  motivo?: string;
}

/** A line a refund is for (kept with it as the line was). */
export class ReembolsoLinea {
  @ApiProperty({ type: 'integer', minimum: 1, example: 977, description: 'A line of the comanda' })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  id_item!: number;

  @ApiProperty({ type: Number, minimum: 0.001, example: 1, description: 'At most the line’s' })
  @IsDecimalNumber(3)
  @Min(0.001)
  @Max(10_000)
  cantidad!: number;
}

/** POST /comandas/:id/reembolsos: money given back on a closed comanda. */
export class ReembolsoBody {
  @ApiProperty({ type: 'integer', minimum: 1, example: 88, description: 'The payment refunded' })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  id_pago!: number;

  @ApiProperty({
    type: Number,
    minimum: 0.01,
    maximum: MAX_MONTO,
    example: 32,
    description: 'With the refunds before, at most the payment’s monto',
  })
  @IsMonto(0.01)
  monto!: number;

  @ApiProperty({ type: String, maxLength: MOTIVO_MAX, example: 'plato devuelto' })
  @IsDefined({ message: 'motivo is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MOTIVO_MAX)
  motivo!: string;

  @ApiPropertyOptional({ type: [ReembolsoLinea], maxItems: 200 })
  @IsOptional()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => ReembolsoLinea)
  lineas?: ReembolsoLinea[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 1,
    description: 'The till the money comes out of (its open session; default as for a payment)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_caja?: number;
}

export const DESCUENTO_TIPOS = ['porcentaje', 'monto'] as const;
export type DescuentoTipo = (typeof DESCUENTO_TIPOS)[number];

/** POST /comandas/:id/descuento: the comanda's discount (replaces any before; valor 0 removes it). */
export class DescuentoBody {
  @ApiProperty({ enum: DESCUENTO_TIPOS, example: 'porcentaje' })
  @IsIn(DESCUENTO_TIPOS)
  tipo!: DescuentoTipo;

  @ApiProperty({
    type: Number,
    minimum: 0,
    example: 10,
    description:
      'porcentaje: 0–100 of the lines; monto: soles (at most the lines’ sum); 0 removes it',
  })
  @IsMonto(0)
  valor!: number;

  @ApiProperty({ type: String, maxLength: MOTIVO_MAX, example: 'cliente frecuente' })
  @IsDefined({ message: 'motivo is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MOTIVO_MAX)
  motivo!: string;
}
