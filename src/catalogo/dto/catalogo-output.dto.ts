import { ApiProperty } from '@nestjs/swagger';

/** A product as the floor picks it. */
export class ProductoDto {
  @ApiProperty({ type: 'integer', example: 1 }) id_producto!: number;
  @ApiProperty({ type: String, example: 'Ceviche clásico' }) nombre!: string;
  @ApiProperty({ type: 'number', example: 38, description: 'Current sale price' })
  precio!: number;
  @ApiProperty({ type: Boolean, example: true, description: 'false: withdrawn, not on sale' })
  activo!: boolean;
  @ApiProperty({ type: 'integer', example: 1, nullable: true }) id_categoria!: number | null;
  @ApiProperty({
    type: String,
    example: 'Platos',
    nullable: true,
    description: 'Category name (null: none)',
  })
  categoria!: string | null;
}

/** A dining table with the comandas open at it. */
export class MesaDto {
  @ApiProperty({ type: 'integer', example: 3 }) id_mesa!: number;
  @ApiProperty({ type: 'integer', example: 3, description: 'The number the staff know it by' })
  numero!: number;
  @ApiProperty({ type: String, example: 'terraza', nullable: true }) zona!: string | null;
  @ApiProperty({ type: 'integer', example: 4, description: 'Seats' }) capacidad!: number;
  @ApiProperty({ type: Boolean, example: true, description: 'false: retired' }) activo!: boolean;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 1,
    description: 'Comandas open at the table (abierta, not deleted)',
  })
  abiertas!: number;
}

/** A waiter, as the floor and the history pick one (no document, e-mail or phone). */
export class MozoDto {
  @ApiProperty({ type: 'integer', example: 4 }) id_usuario!: number;
  @ApiProperty({
    type: String,
    example: 'Jorge Luis Rojas Chávez',
    description: 'Full name, as a comanda’s `mozo` shows it',
  })
  nombre!: string;
  @ApiProperty({ type: Boolean, example: true, description: 'false: former staff' })
  activo!: boolean;
}
