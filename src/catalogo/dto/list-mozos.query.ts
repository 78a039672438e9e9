import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { QueryBoolean } from './list-productos.query';

export class ListMozosQuery {
  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only the current staff; false: only the former ones; default: all',
    example: true,
  })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'activo must be true or false' })
  activo?: boolean;
}
