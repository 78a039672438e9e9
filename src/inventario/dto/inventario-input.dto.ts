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
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IdFilter, PageLimit, PageOffset } from '../../common/http/paging';
import { IsDateOrInstant, IsDecimalNumber, IsInstant, MAX_INT4 } from '../../common/validation';

const MOTIVO_MAX = 500;
/** numeric(14,4): quantities below ten thousand million, to four decimals. */
export const MAX_CANTIDAD = 999_999_999;
/** Lines of one count sheet (a restaurant has dozens to a few hundred materials). */
export const CONTEO_LINEAS_MAX = 2_000;

export const MOVIMIENTO_TIPOS = [
  'inicial',
  'compra',
  'reverso_compra',
  'consumo_venta',
  'reverso_consumo',
  'merma',
  'ajuste_conteo',
] as const;
export type MovimientoTipo = (typeof MOVIMIENTO_TIPOS)[number];

const INSTANT_DESCRIPTION =
  'An instant (ISO 8601; without an offset, the tenant’s local time); default now';

class IdMatPrima {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_INT4, example: 3 })
  @IsDefined({ message: 'id_mat_prima is required' })
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_mat_prima!: number;
}

/** POST /inventario/mermas: a quantity of a material lost, and why. */
export class MermaBody extends IdMatPrima {
  @ApiProperty({
    type: Number,
    minimum: 0.0001,
    maximum: MAX_CANTIDAD,
    example: 0.5,
    description: 'How much was lost, in the material’s unidad (up to 4 decimals)',
  })
  @IsDefined({ message: 'cantidad is required' })
  @IsDecimalNumber(4)
  @Min(0.0001)
  @Max(MAX_CANTIDAD)
  cantidad!: number;

  @ApiProperty({ type: String, maxLength: MOTIVO_MAX, example: 'pescado fuera de cadena de frío' })
  @IsDefined({ message: 'motivo is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MOTIVO_MAX)
  motivo!: string;

  @ApiPropertyOptional({
    type: String,
    example: '2026-11-24T22:40:00-05:00',
    description: INSTANT_DESCRIPTION,
  })
  @IsOptional()
  @Validate(IsInstant)
  fec?: string;
}

/** One line of a count sheet: what was counted of a material. */
export class ConteoLineaInput extends IdMatPrima {
  @ApiProperty({
    type: Number,
    minimum: 0,
    maximum: MAX_CANTIDAD,
    example: 4.25,
    description: 'What is on the shelf, in the material’s unidad (up to 4 decimals)',
  })
  @IsDefined({ message: 'contado is required' })
  @IsDecimalNumber(4)
  @Min(0)
  @Max(MAX_CANTIDAD)
  contado!: number;
}

/** POST /inventario/conteos: a count sheet, as a draft. */
export class ConteoBody {
  @ApiPropertyOptional({
    type: String,
    example: '2026-11-24T23:30:00-05:00',
    description:
      'The cut-off the counts are of (what the ledger holds up to then is compared); ' +
      `${INSTANT_DESCRIPTION}. Not in the future; after the last applied count’s cut-off`,
  })
  @IsOptional()
  @Validate(IsInstant)
  fec_corte?: string;

  @ApiPropertyOptional({ type: String, maxLength: MOTIVO_MAX, example: 'cierre de mes' })
  @IsOptional()
  @IsString()
  @MaxLength(MOTIVO_MAX)
  observacion?: string;

  @ApiProperty({
    type: [ConteoLineaInput],
    minItems: 1,
    maxItems: CONTEO_LINEAS_MAX,
    description: 'One line per material counted (a material once)',
  })
  @IsDefined({ message: 'lineas is required' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CONTEO_LINEAS_MAX)
  @ValidateNested({ each: true })
  @Type(() => ConteoLineaInput)
  lineas!: ConteoLineaInput[];
}

/** A line of PATCH /inventario/conteos/:id: set a material's count, or (null) take it off. */
export class ConteoLineaPatch extends IdMatPrima {
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: MAX_CANTIDAD,
    example: 4.25,
    description: 'The count (null takes the material off the sheet)',
  })
  @ValidateIf((_, value) => value !== null)
  @IsDefined({ message: 'contado is required (null takes the line off)' })
  @IsDecimalNumber(4)
  @Min(0)
  @Max(MAX_CANTIDAD)
  contado!: number | null;
}

/** PATCH /inventario/conteos/:id: lines set or taken off; the others stay. */
export class ConteoPatchBody {
  @ApiPropertyOptional({
    type: [ConteoLineaPatch],
    maxItems: CONTEO_LINEAS_MAX,
    description: 'Lines to set (added or replaced) or, with contado null, to take off',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CONTEO_LINEAS_MAX)
  @ValidateNested({ each: true })
  @Type(() => ConteoLineaPatch)
  lineas?: ConteoLineaPatch[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MOTIVO_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(MOTIVO_MAX)
  observacion?: string | null;
}

const RANGE_DESCRIPTION =
  'a date YYYY-MM-DD (the tenant’s day) or an instant; the period is after desde, up to and including hasta';

export class ListMovimientosQuery {
  @IdFilter('Only movements of this material', 3)
  id_mat_prima?: number;

  @ApiPropertyOptional({ enum: MOVIMIENTO_TIPOS })
  @IsOptional()
  @IsIn(MOVIMIENTO_TIPOS)
  tipo?: MovimientoTipo;

  @ApiPropertyOptional({
    type: String,
    example: '2026-11-01',
    description: `From: ${RANGE_DESCRIPTION}`,
  })
  @IsOptional()
  @Validate(IsDateOrInstant)
  desde?: string;

  @ApiPropertyOptional({
    type: String,
    example: '2026-11-30',
    description: `To: ${RANGE_DESCRIPTION}`,
  })
  @IsOptional()
  @Validate(IsDateOrInstant)
  hasta?: string;

  @PageLimit(50, 500)
  limit?: number;

  @PageOffset('Movements')
  offset?: number;
}

export const CONTEO_ESTADOS = ['borrador', 'aplicado', 'descartado'] as const;
export type ConteoEstado = (typeof CONTEO_ESTADOS)[number];

export class ListConteosQuery {
  @ApiPropertyOptional({ enum: CONTEO_ESTADOS })
  @IsOptional()
  @IsIn(CONTEO_ESTADOS)
  estado?: ConteoEstado;

  @PageLimit(20, 200)
  limit?: number;

  @PageOffset('Counts')
  offset?: number;
}

export class ConsumoQuery {
  @ApiPropertyOptional({
    type: String,
    example: '2026-11-01',
    description: `From: ${RANGE_DESCRIPTION}. Default: the last applied count’s cut-off before hasta, else 30 days before it`,
  })
  @IsOptional()
  @Validate(IsDateOrInstant)
  desde?: string;

  @ApiPropertyOptional({
    type: String,
    example: '2026-11-30',
    description: `To: ${RANGE_DESCRIPTION}. Default: now`,
  })
  @IsOptional()
  @Validate(IsDateOrInstant)
  hasta?: string;
}
