import { ApiProperty } from '@nestjs/swagger';
import { FEATURE_SWITCHES_SCHEMA } from '../common/http/openapi-contract';
import type { TenantFeature } from '../common/config/features';

export class CurrentTenantDto {
  @ApiProperty({ example: 'demo' })
  slug!: string;

  @ApiProperty({ example: 'Cevichería Demo' })
  name!: string;

  @ApiProperty({
    enum: ['active'],
    description: 'Always active here: a suspended or provisioning tenant is refused first',
  })
  status!: string;

  @ApiProperty({ example: 'America/Lima' })
  timeZone!: string;

  @ApiProperty({
    type: 'object',
    description: 'Effective switches: the tenant override, else the global FEATURE_* variable',
    // one boolean per feature, each described: filled in when the document is completed (the
    // features are the module list's, installed after this class is declared)
    properties: {},
    ...{ [FEATURE_SWITCHES_SCHEMA]: true },
  })
  features!: Record<TenantFeature, boolean>;
}
