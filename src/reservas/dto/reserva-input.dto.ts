import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateIf,
} from 'class-validator';
import { IsBusinessDate, MAX_INT4 } from '../../common/validation';

export const PERSONAS_MAX = 50;
const NOMBRE_MAX = 120;
const TELEFONO_MAX = 30;
const NOTE_MAX = 500;
/** A wall-clock time of the tenant's zone, to the minute. */
const HORA = /^([01]\d|2[0-3]):[0-5]\d$/;
const NOT_BLANK = /\S/;

/** Only when the field is sent: a sent `null` is then refused like any wrong type. */
const IfSent = () => ValidateIf((_: object, value: unknown) => value !== undefined);

/** A new reservation. `id_mesa` may come now, later (PATCH) or when the party is seated. */
export class CreateReservaBody {
  @ApiProperty({ type: String, example: 'Familia Pérez', maxLength: NOMBRE_MAX })
  @IsString()
  @Matches(NOT_BLANK, { message: 'nombre must not be blank' })
  @MaxLength(NOMBRE_MAX)
  nombre!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: PERSONAS_MAX, example: 4 })
  @IsInt()
  @Min(1)
  @Max(PERSONAS_MAX)
  personas!: number;

  @ApiProperty({
    type: String,
    format: 'date',
    example: '2026-11-28',
    description: 'Business day YYYY-MM-DD in the tenant time zone; not before today',
  })
  @Validate(IsBusinessDate)
  fecha!: string;

  @ApiProperty({
    type: String,
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    example: '20:30',
    description: 'Time HH:MM in the tenant time zone',
  })
  @IsString()
  @Matches(HORA, { message: 'hora must be a time HH:MM (00:00 to 23:59)' })
  hora!: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INT4,
    nullable: true,
    example: 3,
    description: 'Table; may be given later, or when the party is seated',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_mesa?: number | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: TELEFONO_MAX,
    example: '987 654 321',
  })
  @IsOptional()
  @IsString()
  @MaxLength(TELEFONO_MAX)
  telefono?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: NOTE_MAX,
    example: 'cumpleaños, una silla para bebé',
  })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  observacion?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INT4,
    nullable: true,
    example: null,
    description: 'Customer',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_cliente?: number | null;
}

export const EDITABLE_FIELDS = [
  'nombre',
  'personas',
  'fecha',
  'hora',
  'id_mesa',
  'telefono',
  'observacion',
  'id_cliente',
] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

/**
 * A partial change of a pendiente reservation: the fields sent change, the others stay.
 * `nombre`, `personas`, `fecha` and `hora` cannot be null; the others can (null clears them).
 */
export class UpdateReservaBody {
  @ApiPropertyOptional({ type: String, example: 'Familia Pérez Rojas', maxLength: NOMBRE_MAX })
  @IfSent()
  @IsString()
  @Matches(NOT_BLANK, { message: 'nombre must not be blank' })
  @MaxLength(NOMBRE_MAX)
  nombre?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: PERSONAS_MAX, example: 6 })
  @IfSent()
  @IsInt()
  @Min(1)
  @Max(PERSONAS_MAX)
  personas?: number;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    example: '2026-11-29',
    description: 'Business day YYYY-MM-DD in the tenant time zone; not before today',
  })
  @IfSent()
  @Validate(IsBusinessDate)
  fecha?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    example: '21:00',
    description: 'Time HH:MM in the tenant time zone',
  })
  @IfSent()
  @IsString()
  @Matches(HORA, { message: 'hora must be a time HH:MM (00:00 to 23:59)' })
  hora?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INT4,
    nullable: true,
    example: 5,
    description: 'Table; null: none yet',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_mesa?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: TELEFONO_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(TELEFONO_MAX)
  telefono?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NOTE_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  observacion?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INT4,
    nullable: true,
    description: 'Customer; null: none',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_cliente?: number | null;
}

/** Seating: the table (required when the reservation has none) and the comanda's waiter. */
export class SentarReservaBody {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INT4,
    example: 3,
    description: 'The table the party sits at (default: the reservation’s)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_mesa?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INT4,
    example: 4,
    description: 'Waiter of the comanda opened (default: whoever seats the party)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_usuario?: number;
}

export class CancelarReservaBody {
  @ApiProperty({ type: String, example: 'el cliente llamó para cancelar', maxLength: NOTE_MAX })
  @IsString()
  @Matches(NOT_BLANK, { message: 'motivo must not be blank' })
  @MaxLength(NOTE_MAX)
  motivo!: string;
}
