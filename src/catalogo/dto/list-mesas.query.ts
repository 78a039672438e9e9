import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { QueryBoolean } from './list-productos.query';

export class ListMesasQuery {
  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only the tables in use; false: only the retired ones; default: all',
    example: true,
  })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'activo must be true or false' })
  activo?: boolean;
}
