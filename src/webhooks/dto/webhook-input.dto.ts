import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { PageLimit, PageOffset } from '../../common/http/paging';
import { SUBSCRIBABLE } from '../webhook-events';
import { ENTREGA_ESTADOS, type EntregaEstado } from '../webhook-actions';

const EVENTOS_DESCRIPTION =
  'Event types (comanda.cerrar) or a module’s wildcard (comanda.*); an unknown one is refused';

export class CreateWebhookBody {
  @ApiProperty({
    example: 'https://erp.example.com/hooks/comandas',
    maxLength: 2048,
    description:
      'Where the messages are POSTed: https in production; private, loopback and link-local hosts are refused',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url!: string;

  @ApiProperty({
    type: [String],
    example: ['comanda.cerrar', 'pago.*'],
    minItems: 1,
    maxItems: 64,
    description: EVENTOS_DESCRIPTION,
    items: { type: 'string', enum: [...SUBSCRIBABLE] },
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(64)
  @ArrayUnique()
  @IsString({ each: true })
  eventos!: string[];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 200,
    example: 'Contabilidad: ventas cerradas',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  descripcion?: string | null;
}

export class UpdateWebhookBody {
  @ApiPropertyOptional({ example: 'https://erp.example.com/hooks/v2', maxLength: 2048 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['comanda.*'],
    minItems: 1,
    maxItems: 64,
    description: EVENTOS_DESCRIPTION,
    items: { type: 'string', enum: [...SUBSCRIBABLE] },
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(64)
  @ArrayUnique()
  @IsString({ each: true })
  eventos?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  descripcion?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'false: nothing is sent to it (its pending messages wait); true: sent to again, its failure record cleared',
  })
  @IsOptional()
  @IsBoolean()
  activo?: boolean;
}

export const ENTREGAS_LIMIT_DEFAULT = 50;
export const ENTREGAS_LIMIT_MAX = 500;

export class ListEntregasQuery {
  @ApiPropertyOptional({ enum: ENTREGA_ESTADOS, description: 'Only deliveries in this estado' })
  @IsOptional()
  @IsIn(ENTREGA_ESTADOS)
  estado?: EntregaEstado;

  @PageLimit(ENTREGAS_LIMIT_DEFAULT, ENTREGAS_LIMIT_MAX)
  limit?: number;

  @PageOffset('Deliveries')
  offset?: number;
}
