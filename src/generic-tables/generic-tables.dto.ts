import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** `?limit=` of GET /table/:table, read by the service (parseRowsLimit): documented with @ApiQuery. */
export class RowsQuery {
  @IsOptional()
  @IsString()
  limit?: string;
}

export interface ForeignKeyDto {
  constraint: string;
  table: string;
  column: string;
}

export class ColumnDto {
  @ApiProperty({ example: 'id_categoria' }) name!: string;
  @ApiProperty({ example: 6 }) position!: number;
  @ApiProperty({ example: 'integer' }) type!: string;
  @ApiProperty({ example: 'int4' }) udt!: string;
  @ApiProperty({ type: Boolean }) nullable!: boolean;
  @ApiProperty({ nullable: true, type: String, example: null }) default!: string | null;
  // null among the values: in OpenAPI 3.0 an enum lists every value, null included
  @ApiProperty({ type: String, nullable: true, enum: ['ALWAYS', 'BY DEFAULT', null] })
  identity!: string | null;
  @ApiProperty({ type: Boolean, description: 'A computed column (never written)' })
  generated!: boolean;
  @ApiProperty({ nullable: true, type: Number }) maxLength!: number | null;
  @ApiProperty({ type: Boolean }) primaryKey!: boolean;
  // Inline and nullable: in OpenAPI 3.0 `nullable` beside a `$ref` (or an `allOf` of one) does
  // not let null through, and the column of most rows has no foreign key.
  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'Its single-column foreign key, or null',
    properties: {
      constraint: { type: 'string', example: 'fk_productos_id_categoria' },
      table: { type: 'string', example: 'categorias' },
      column: { type: 'string', example: 'id_categoria' },
    },
    required: ['constraint', 'table', 'column'],
  })
  foreign!: ForeignKeyDto | null;
}

export interface TableOwnerDto {
  module: string;
  routes: string[];
}

export class TableSchema {
  @ApiProperty({ example: 'productos' }) table!: string;
  @ApiProperty({
    enum: ['table', 'view'],
    example: 'table',
    description: 'A table, or a view (read only: POST /table/:table answers 400 NOT_INSERTABLE)',
  })
  kind!: 'table' | 'view';
  @ApiProperty({
    type: Boolean,
    example: false,
    description:
      'POST /table/:table refuses every row: a table a module owns (400 TABLE_READ_ONLY) or a ' +
      'view (400 NOT_INSERTABLE). Read it here; write it with the routes of `owner`.',
  })
  read_only!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Why it is read-only, in a sentence; null when writable',
  })
  read_only_reason!: string | null;
  // Inline and nullable, like `foreign`: most tables have no owner.
  @ApiProperty({
    type: 'object',
    nullable: true,
    example: null,
    description: 'The module that owns the table and the routes that write it; null when none does',
    properties: {
      module: { type: 'string', example: 'comandas' },
      routes: {
        type: 'array',
        items: { type: 'string' },
        example: ['POST /api/v1/comandas', 'PUT /api/v1/comandas/:id'],
      },
    },
    required: ['module', 'routes'],
  })
  owner!: TableOwnerDto | null;
  @ApiProperty({ type: [ColumnDto] }) columns!: ColumnDto[];
}

export class OptionItem {
  @ApiProperty({ type: 'integer', example: 1, description: 'The referenced key' }) id!: number;
  @ApiProperty({ example: 'Ceviches', nullable: true, type: String }) label!: string | null;
}

export class InsertedRow {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { id_categoria: 8, nombre: 'Postres', descripcion: null, activo: true },
  })
  inserted!: Record<string, unknown>;
}
