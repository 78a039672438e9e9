import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class DatabaseHealth {
  @ApiProperty({ enum: ['up', 'down'] })
  status!: 'up' | 'down';

  @ApiPropertyOptional({ description: 'Round trip of SELECT 1 on the control database' })
  latencyMs?: number;
}

export class HealthReport {
  @ApiProperty({
    enum: ['ok', 'degraded', 'unavailable'],
    description: 'degraded: some tenant databases do not answer (the others are served)',
  })
  status!: 'ok' | 'degraded' | 'unavailable';

  @ApiProperty({ type: DatabaseHealth })
  database!: DatabaseHealth;

  @ApiProperty({ description: 'Whether the service runs on its embedded PostgreSQL' })
  embeddedDatabase!: boolean;

  @ApiProperty({ description: 'Tenant DataSources open right now' })
  tenantDataSources!: number;

  @ApiProperty({
    type: [String],
    description:
      'Tenants whose database does not answer (of those in use since the start), e.g. during an outage',
  })
  tenantsDown!: string[];

  @ApiProperty()
  uptimeSeconds!: number;
}
