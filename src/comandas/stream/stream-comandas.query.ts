import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IdFilter } from '../../common/http/paging';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

/** GET /comandas/stream: the filters, where to resume, and a browser's token. */
export class StreamComandasQuery {
  @IdFilter('Only events of comandas at this table (now, or before the change)', 3)
  id_mesa?: number;

  @ApiPropertyOptional({
    enum: ['abierta', 'cerrada'],
    description: 'Only events of comandas in this estado (now, or before the change)',
  })
  @IsOptional()
  @IsIn(['abierta', 'cerrada'])
  estado?: 'abierta' | 'cerrada';

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    example: 5012,
    description:
      'Resume after this event id (for clients that cannot send the Last-Event-ID header)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  lastEventId?: number;

  @ApiPropertyOptional({
    type: String,
    example: 'demo',
    description:
      'For EventSource (no headers): the tenant, when X-Tenant-ID cannot be sent (with Accept: text/event-stream)',
  })
  @IsOptional()
  @IsString()
  tenant?: string;

  @ApiPropertyOptional({
    type: String,
    description:
      'With AUTH_MODE=jwt, for EventSource (no headers): a token expiring within 5 minutes. Never logged.',
  })
  @IsOptional()
  @IsString()
  access_token?: string;
}
