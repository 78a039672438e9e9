import { ApiProperty } from '@nestjs/swagger';

/** The error envelope of DESIGN §3, for the OpenAPI document. */
export class ErrorBody {
  @ApiProperty({ example: 'Cannot cerrar a comanda that is cerrada' }) error!: string;
  @ApiProperty({ example: 'INVALID_TRANSITION' }) code!: string;
  @ApiProperty({ required: false, example: { estado: 'cerrada', action: 'cerrar' } })
  detail?: unknown;
  @ApiProperty({ required: false, example: '5f0c6c1e-2d2b-4d6b-9d6a-1f7f0e0c3a11' })
  requestId?: string;
}
