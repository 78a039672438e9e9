import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class DatabaseHealth {
  @ApiProperty({ enum: ['up', 'down'] })
  status!: 'up' | 'down';

  @ApiPropertyOptional({ description: 'Round trip of SELECT 1 on the control database' })
  latencyMs?: number;
}

export class HealthReport {
  @ApiProperty({ enum: ['ok', 'unavailable'] })
  status!: 'ok' | 'unavailable';

  @ApiProperty({ type: DatabaseHealth })
  database!: DatabaseHealth;

  @ApiProperty({ description: 'Whether the service runs on its embedded PostgreSQL' })
  embeddedDatabase!: boolean;

  @ApiProperty({ description: 'Tenant DataSources open right now' })
  tenantDataSources!: number;

  @ApiProperty()
  uptimeSeconds!: number;
}
