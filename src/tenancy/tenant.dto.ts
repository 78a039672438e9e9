import { ApiProperty } from '@nestjs/swagger';
import { FEATURES, TENANT_FEATURES, type TenantFeature } from '../common/config/features';

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
    properties: Object.fromEntries(
      TENANT_FEATURES.map((feature) => [
        feature,
        { type: 'boolean', description: FEATURES[feature].description },
      ]),
    ),
    required: [...TENANT_FEATURES],
    additionalProperties: false,
  })
  features!: Record<TenantFeature, boolean>;
}
