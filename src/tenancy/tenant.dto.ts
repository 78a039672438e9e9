import { ApiProperty } from '@nestjs/swagger';
import { featureDefinitions, tenantFeatures, type TenantFeature } from '../common/config/features';

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
      [...featureDefinitions()].map(([feature, { description }]) => [
        feature,
        { type: 'boolean', description },
      ]),
    ),
    required: tenantFeatures(),
    additionalProperties: false,
  })
  features!: Record<TenantFeature, boolean>;
}
