import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsDecimalNumber } from '../../common/validation';

export const MAX_CANTIDAD = 10_000;
const NOTE_MAX = 500;

/** A line the waiter orders: the price is taken from the product at order time. */
export class ItemInput {
  @ApiProperty({ type: 'integer', minimum: 1, example: 12 })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_producto!: number;

  @ApiProperty({
    type: Number,
    minimum: 0.001,
    maximum: MAX_CANTIDAD,
    example: 2,
    description: 'Greater than 0, up to 3 decimals',
  })
  @IsDecimalNumber(3)
  @Min(0.001)
  @Max(MAX_CANTIDAD)
  cantidad!: number;

  @ApiPropertyOptional({ type: String, example: 'sin ají', nullable: true, maxLength: NOTE_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  nota?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Staff member adding the line (default: the waiter)',
    example: 4,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_usuario?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 9,
    example: 2,
    description:
      'Feature cocina: the course the line is served in (default: its category’s default course, ' +
      'else 1). Refused while cocina is off.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(9)
  curso?: number;
}

/** The fields of an ordered line that belong to an extension (refused while it is off). */
export const ITEM_EXTENSION_FIELDS = ['curso'] as const;

/** A change of a line: quantity and/or note (a different product is a new line). */
export class ItemChange {
  @ApiPropertyOptional({ type: Number, minimum: 0.001, maximum: MAX_CANTIDAD, example: 3 })
  @IsOptional()
  @IsDecimalNumber(3)
  @Min(0.001)
  @Max(MAX_CANTIDAD)
  cantidad?: number;

  @ApiPropertyOptional({
    type: String,
    example: 'bien cocido',
    nullable: true,
    maxLength: NOTE_MAX,
  })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  nota?: string | null;
}

/** The editable fields of an open comanda. */
export class ComandaFields {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 3,
    nullable: true,
    description: 'Table; null = take-away',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_mesa?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 4,
    nullable: true,
    description: 'Waiter',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_usuario?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: null,
    nullable: true,
    description: 'Customer',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_cliente?: number | null;

  @ApiPropertyOptional({
    type: String,
    example: 'mesa junto a la ventana',
    nullable: true,
    maxLength: NOTE_MAX,
  })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  observacion?: string | null;
}

export const EDITABLE_FIELDS = ['id_mesa', 'id_usuario', 'id_cliente', 'observacion'] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

export class CreateComandaBody extends ComandaFields {
  @ApiPropertyOptional({
    type: [ItemInput],
    maxItems: 200,
    description: 'Lines ordered with the comanda',
  })
  @IsOptional()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => ItemInput)
  items?: ItemInput[];
}

export const COMANDA_UPDATE_ACTIONS = ['abrir', 'cerrar', 'restaurar'] as const;
export type ComandaUpdateAction = (typeof COMANDA_UPDATE_ACTIONS)[number];

/**
 * Either `{action}` alone, or a partial change of the editable fields. The modules that extend
 * the comandas add fields of their own (ComandaExtensionContract.updateFields).
 */
export class UpdateComandaBody extends ComandaFields {
  @ApiPropertyOptional({
    enum: COMANDA_UPDATE_ACTIONS,
    description: 'A transition; no other field with it',
  })
  @IsOptional()
  @IsIn(COMANDA_UPDATE_ACTIONS)
  action?: ComandaUpdateAction;

  @ApiPropertyOptional({
    type: String,
    description: 'Reason kept in the audit trail',
    maxLength: NOTE_MAX,
  })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  motivo?: string;
}

export class DeleteComandaBody {
  @ApiPropertyOptional({ type: String, example: 'cliente se retiró', maxLength: NOTE_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(NOTE_MAX)
  motivo?: string;
}

/** A quantity of a line to move to the new comanda of a split. */
export class SplitLine {
  @ApiProperty({ type: 'integer', minimum: 1, example: 12, description: 'A line of the comanda' })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  id_item!: number;

  @ApiProperty({
    type: Number,
    minimum: 0.001,
    maximum: MAX_CANTIDAD,
    example: 1,
    description: 'How much of the line moves: all of it moves the line, less splits it in two',
  })
  @IsDecimalNumber(3)
  @Min(0.001)
  @Max(MAX_CANTIDAD)
  cantidad!: number;
}

/** POST /comandas/:id/split: what moves to a new open comanda, and where that one sits. */
export class SplitComandaBody {
  @ApiProperty({ type: [SplitLine], minItems: 1, maxItems: 200 })
  @IsDefined({ message: 'lineas is required' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => SplitLine)
  lineas!: SplitLine[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    nullable: true,
    example: 5,
    description: 'Table of the new comanda (default: the same table)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_mesa?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    nullable: true,
    example: null,
    description: 'Customer of the new comanda (default: none)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id_cliente?: number | null;
}

/** POST /comandas/:id/merge: the open comandas whose lines move into this one. */
export class MergeComandaBody {
  @ApiProperty({
    type: 'integer',
    isArray: true,
    minItems: 1,
    maxItems: 50,
    example: [302, 305],
    description: 'Ids of open comandas; each ends eliminada with motivo "unida a {numero_ticket}"',
  })
  @IsDefined({ message: 'comandas is required' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(Number.MAX_SAFE_INTEGER, { each: true })
  comandas!: number[];
}
