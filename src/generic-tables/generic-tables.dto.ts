import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

export class RowsQuery {
  @IsOptional()
  @IsString()
  limit?: string;
}

export class ForeignKeyDto {
  @ApiProperty({ example: 'fk_productos_id_categoria' }) constraint!: string;
  @ApiProperty({ example: 'categorias' }) table!: string;
  @ApiProperty({ example: 'id_categoria' }) column!: string;
}

export class ColumnDto {
  @ApiProperty({ example: 'id_categoria' }) name!: string;
  @ApiProperty({ example: 6 }) position!: number;
  @ApiProperty({ example: 'integer' }) type!: string;
  @ApiProperty({ example: 'int4' }) udt!: string;
  @ApiProperty() nullable!: boolean;
  @ApiProperty({ nullable: true, type: String, example: null }) default!: string | null;
  @ApiProperty({ nullable: true, enum: ['ALWAYS', 'BY DEFAULT'] }) identity!: string | null;
  @ApiProperty() generated!: boolean;
  @ApiProperty({ nullable: true, type: Number }) maxLength!: number | null;
  @ApiProperty() primaryKey!: boolean;
  @ApiPropertyOptional({ type: ForeignKeyDto, nullable: true }) foreign!: ForeignKeyDto | null;
}

export class TableSchema {
  @ApiProperty({ example: 'productos' }) table!: string;
  @ApiProperty({ type: [ColumnDto] }) columns!: ColumnDto[];
}

export class OptionItem {
  @ApiProperty({ example: 1 }) id!: unknown;
  @ApiProperty({ example: 'Ceviches', nullable: true, type: String }) label!: string | null;
}

export class InsertedRow {
  @ApiProperty({
    type: Object,
    example: { id_categoria: 8, nombre: 'Postres', descripcion: null, activo: true },
  })
  inserted!: Record<string, unknown>;
}
