import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateNested,
} from 'class-validator';
import { IdFilter, PageLimit, PageOffset } from '../../common/http/paging';
import { IsBusinessDate, IsDecimalNumber, MAX_INT4 } from '../../common/validation';
import { IsMonto, MAX_MONTO } from './pago-input.dto';

const MOTIVO_MAX = 500;

/** POST /cajas/:id/sesiones: the float the drawer starts with. */
export class AbrirSesionBody {
  @ApiProperty({
    type: Number,
    minimum: 0,
    maximum: MAX_MONTO,
    example: 200,
    description: 'Cash in the drawer at the opening (soles)',
  })
  @IsDefined({ message: 'monto_apertura is required' })
  @IsMonto(0)
  monto_apertura!: number;
}

export const MOVIMIENTO_TIPOS = ['ingreso', 'retiro'] as const;
export type MovimientoTipo = (typeof MOVIMIENTO_TIPOS)[number];

/** POST /sesiones-caja/:id/movimientos: cash put in or taken out, with its reason. */
export class MovimientoBody {
  @ApiProperty({ enum: MOVIMIENTO_TIPOS, example: 'retiro' })
  @IsIn(MOVIMIENTO_TIPOS)
  tipo!: MovimientoTipo;

  @ApiProperty({ type: Number, minimum: 0.01, maximum: MAX_MONTO, example: 40 })
  @IsMonto(0.01)
  monto!: number;

  @ApiProperty({ type: String, maxLength: MOTIVO_MAX, example: 'compra de limones' })
  @IsDefined({ message: 'motivo is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MOTIVO_MAX)
  motivo!: string;
}

/** What was counted of one payment method at the close. */
export class ContadoMetodo {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_metodo_pago!: number;

  @ApiProperty({ type: Number, minimum: 0, maximum: MAX_MONTO, example: 1254.3 })
  @IsMonto(0)
  monto!: number;
}

/** One denomination of the cash count (a note or a coin, in soles) and how many there are. */
export class ConteoDenominacion {
  @ApiProperty({ type: Number, minimum: 0.01, example: 50, description: 'S/ 200 … S/ 0.10' })
  @IsDecimalNumber(2)
  @Min(0.01)
  @Max(1_000)
  denominacion!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 12 })
  @IsInt()
  @Min(0)
  @Max(100_000)
  cantidad!: number;
}

/** POST /sesiones-caja/:id/cerrar: the count; the answer is the Z. */
export class CerrarSesionBody {
  @ApiProperty({
    type: [ContadoMetodo],
    maxItems: 50,
    description:
      'What was counted per method. The cash method (cuenta_en_caja) is required unless conteo ' +
      'gives it; another method not listed is taken as counted equal to what was expected ' +
      '(reconciled against its terminal’s batch).',
  })
  @IsDefined({ message: 'contado is required' })
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => ContadoMetodo)
  contado!: ContadoMetodo[];

  @ApiPropertyOptional({
    type: [ConteoDenominacion],
    maxItems: 30,
    description:
      'The cash count by denomination, kept with the Z; when the cash method is not in contado, ' +
      'its count is the sum of these (when it is, they must agree)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  @Type(() => ConteoDenominacion)
  conteo?: ConteoDenominacion[];

  @ApiPropertyOptional({
    type: String,
    maxLength: MOTIVO_MAX,
    example: 'faltan 2 soles de sencillo',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MOTIVO_MAX)
  nota?: string;
}

export const SESION_ESTADOS = ['abierta', 'cerrada'] as const;
export type SesionEstado = (typeof SESION_ESTADOS)[number];

export class ListSesionesQuery {
  @IdFilter('Only sessions of this till', 1)
  id_caja?: number;

  @ApiPropertyOptional({ enum: SESION_ESTADOS })
  @IsOptional()
  @IsIn(SESION_ESTADOS)
  estado?: SesionEstado;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    example: '2026-11-01',
    description: 'Opened on or after this day (YYYY-MM-DD, tenant time zone)',
  })
  @IsOptional()
  @Validate(IsBusinessDate)
  desde?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    example: '2026-11-30',
    description: 'Opened on or before this day (YYYY-MM-DD, tenant time zone)',
  })
  @IsOptional()
  @Validate(IsBusinessDate)
  hasta?: string;

  @PageLimit(50, 500)
  limit?: number;

  @PageOffset('Sessions')
  offset?: number;
}

/** An IGV rate and the day it is in force from. */
export class TasaIgvInput {
  @ApiProperty({ type: String, format: 'date', example: '2026-01-01' })
  @Validate(IsBusinessDate)
  vigente_desde!: string;

  @ApiProperty({
    type: Number,
    minimum: 0,
    maximum: 0.5,
    example: 0.18,
    description: 'A fraction: 0.18 is 18 %, 0.10 the small restaurants’ rate',
  })
  @IsNumber({ maxDecimalPlaces: 4 })
  @Min(0)
  @Max(0.5)
  tasa!: number;
}

/** PUT /cobros/ajustes: the tenant's money settings (fields not sent stay). */
export class AjustesBody {
  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: 0.13,
    example: 0.1,
    description: 'Recargo al consumo (service charge), a fraction 0–0.13, outside the IGV base',
  })
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 4 })
  @Min(0)
  @Max(0.13)
  tasa_recargo?: number;

  @ApiPropertyOptional({
    type: Number,
    enum: [0, 0.1],
    example: 0.1,
    description:
      'Cash rounding step: 0.10 rounds a cash settlement down to S/ 0.10; 0 turns it off',
  })
  @IsOptional()
  @IsIn([0, 0.1])
  paso_redondeo?: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: MAX_MONTO,
    example: 5,
    description: 'A close whose difference of any method is larger needs caja:approve-difference',
  })
  @IsOptional()
  @IsMonto(0)
  tolerancia_cierre?: number;

  @ApiPropertyOptional({
    type: [TasaIgvInput],
    maxItems: 50,
    description: 'The IGV rates by date (replaces the list; at least one)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => TasaIgvInput)
  tasas_igv?: TasaIgvInput[];
}
