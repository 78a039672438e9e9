import { Controller, Get, HttpStatus, Inject, Res, VERSION_NEUTRAL, Version } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators';
import { CONTROL_CONNECTION, DATABASE_TARGET } from '../common/config/config.tokens';
import { withDeadline } from '../common/deadline';
import { NoTenant } from '../common/decorators';
import type { DatabaseTarget } from '../database/database-target';
import { TenantCatalogService } from '../tenancy/tenant-catalog.service';
import { HealthReport } from './health.dto';

const PROBE_TIMEOUT_MS = 2_000;

@ApiTags('health')
@NoTenant()
@Public()
@SkipThrottle()
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource(CONTROL_CONNECTION) private readonly control: DataSource,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
    private readonly catalog: TenantCatalogService,
  ) {}

  @Get()
  @Version(VERSION_NEUTRAL)
  @ApiOperation({
    summary:
      'Liveness and readiness: the control database answers (503 otherwise); tenant databases that do not answer are listed (degraded)',
  })
  @ApiOkResponse({ type: HealthReport })
  @ApiServiceUnavailableResponse({
    description: 'The control database does not answer',
    type: HealthReport,
  })
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const started = process.hrtime.bigint();
    // the control database and the tenant databases are probed side by side
    const [database, tenantsDown] = await Promise.all([
      withDeadline(this.control.query('SELECT 1'), PROBE_TIMEOUT_MS).then(
        (): HealthReport['database'] => ({
          status: 'up',
          latencyMs: Number(process.hrtime.bigint() - started) / 1e6,
        }),
        (): HealthReport['database'] => ({ status: 'down' }),
      ),
      this.catalog.dataSources.unreachable(PROBE_TIMEOUT_MS),
    ]);
    const report: HealthReport = {
      status: database.status !== 'up' ? 'unavailable' : tenantsDown.length > 0 ? 'degraded' : 'ok',
      database,
      embeddedDatabase: this.target.embedded,
      tenantDataSources: this.catalog.dataSources.size,
      tenantsDown,
      uptimeSeconds: Math.round(process.uptime()),
    };
    if (database.status !== 'up') {
      res.status(HttpStatus.SERVICE_UNAVAILABLE).setHeader('Retry-After', '5');
      Object.assign(report, {
        error: 'The control database does not answer',
        code: 'DATABASE_UNAVAILABLE',
      });
    }
    return report;
  }
}
