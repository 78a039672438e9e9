import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

export const MAX_CANTIDAD = 10_000;
const NOTE_MAX = 500;

/** A line the waiter orders: the price is taken from the product at order time. */
export class ItemInput {
  @ApiProperty({ example: 12 })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_producto!: number;

  @ApiProperty({ example: 2, description: 'Greater than 0, up to 3 decimals' })
  @IsNumber({ maxDecimalPlaces: 3, allowNaN: false, allowInfinity: false })
  @Min(0.001)
  @Max(MAX_CANTIDAD)
  cantidad!: number;

  @ApiPropertyOptional({ example: 'sin ají', nullable: true, maxLength: NOTE_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  nota?: string | null;

  @ApiPropertyOptional({
    description: 'Staff member adding the line (default: the waiter)',
    example: 4,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_usuario?: number;
}

/** A change of a line: quantity and/or note (a different product is a new line). */
export class ItemChange {
  @ApiPropertyOptional({ example: 3 })
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 3, allowNaN: false, allowInfinity: false })
  @Min(0.001)
  @Max(MAX_CANTIDAD)
  cantidad?: number;

  @ApiPropertyOptional({ example: 'bien cocido', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  nota?: string | null;
}

/** The editable fields of an open comanda. */
export class ComandaFields {
  @ApiPropertyOptional({ example: 3, nullable: true, description: 'Table; null = take-away' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_mesa?: number | null;

  @ApiPropertyOptional({ example: 4, nullable: true, description: 'Waiter' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_usuario?: number | null;

  @ApiPropertyOptional({ example: null, nullable: true, description: 'Customer' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_cliente?: number | null;

  @ApiPropertyOptional({ example: 'mesa junto a la ventana', nullable: true, maxLength: NOTE_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  observacion?: string | null;
}

export const EDITABLE_FIELDS = ['id_mesa', 'id_usuario', 'id_cliente', 'observacion'] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

export class CreateComandaBody extends ComandaFields {
  @ApiPropertyOptional({ type: [ItemInput], description: 'Lines ordered with the comanda' })
  @IsOptional()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => ItemInput)
  items?: ItemInput[];
}

export const COMANDA_UPDATE_ACTIONS = ['abrir', 'cerrar', 'restaurar'] as const;
export type ComandaUpdateAction = (typeof COMANDA_UPDATE_ACTIONS)[number];

/** Either `{action}` alone, or a partial change of the editable fields. */
export class UpdateComandaBody extends ComandaFields {
  @ApiPropertyOptional({
    enum: COMANDA_UPDATE_ACTIONS,
    description: 'A transition; no other field with it',
  })
  @IsOptional()
  @IsIn(COMANDA_UPDATE_ACTIONS)
  action?: ComandaUpdateAction;

  @ApiPropertyOptional({ description: 'Reason kept in the audit trail', maxLength: NOTE_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  motivo?: string;
}

export class DeleteComandaBody {
  @ApiPropertyOptional({ example: 'cliente se retiró', maxLength: NOTE_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  motivo?: string;
}
