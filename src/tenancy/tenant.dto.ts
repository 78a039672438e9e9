import { ApiProperty } from '@nestjs/swagger';

export class TenantFeaturesDto {
  @ApiProperty({ description: 'Generic table routes (seed 4.2.1)' })
  genericTables!: boolean;

  @ApiProperty({ description: 'Business RPC routes (seed 4.2.2)' })
  rpc!: boolean;
}

export class CurrentTenantDto {
  @ApiProperty({ example: 'demo' })
  slug!: string;

  @ApiProperty({ example: 'Cevichería Demo' })
  name!: string;

  @ApiProperty({ enum: ['active'] })
  status!: string;

  @ApiProperty({ example: 'America/Lima' })
  timeZone!: string;

  @ApiProperty({
    type: TenantFeaturesDto,
    description: 'Effective switches: tenant override, else global',
  })
  features!: TenantFeaturesDto;
}
