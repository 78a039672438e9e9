import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class DatabaseHealth {
  @ApiProperty({ enum: ['up', 'down'] })
  status!: 'up' | 'down';

  @ApiPropertyOptional({
    type: Number,
    description: 'Round trip of SELECT 1 on the control database, in milliseconds (when up)',
  })
  latencyMs?: number;
}

export class ConnectionsHealth {
  @ApiProperty({
    type: 'integer',
    description:
      'The most PostgreSQL connections this instance may open, whatever the number of tenants: CONTROL_POOL_MAX + TENANT_DATASOURCE_MAX × (TENANT_POOL_MAX + 1)',
  })
  budget!: number;

  @ApiProperty({
    type: 'integer',
    description:
      'LISTEN connections of the live streams open now (one per tenant with subscribers)',
  })
  listeners!: number;

  @ApiProperty({ type: 'integer', description: 'Live streams (GET /comandas/stream) open now' })
  streams!: number;
}

export class HealthReport {
  @ApiProperty({
    enum: ['ok', 'degraded', 'unavailable'],
    description: 'degraded: some tenant databases do not answer (the others are served)',
  })
  status!: 'ok' | 'degraded' | 'unavailable';

  @ApiProperty({ type: DatabaseHealth })
  database!: DatabaseHealth;

  @ApiProperty({
    type: Boolean,
    description: 'Whether the service runs on its embedded PostgreSQL',
  })
  embeddedDatabase!: boolean;

  @ApiProperty({ type: 'integer', description: 'Tenant DataSources open right now' })
  tenantDataSources!: number;

  @ApiProperty({
    type: [String],
    description:
      'Tenants whose database does not answer (of those in use since the start), e.g. during an outage',
  })
  tenantsDown!: string[];

  @ApiProperty({ type: ConnectionsHealth })
  connections!: ConnectionsHealth;

  @ApiProperty({ type: 'integer', description: 'Seconds since the process started' })
  uptimeSeconds!: number;
}

/** The 503 of health: the report, with the envelope's error and code. */
export class HealthUnavailableReport extends HealthReport {
  @ApiProperty({ type: String, example: 'The control database does not answer' })
  error!: string;

  @ApiProperty({ enum: ['DATABASE_UNAVAILABLE'] })
  code!: 'DATABASE_UNAVAILABLE';
}
