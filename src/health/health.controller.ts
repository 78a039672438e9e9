import {
  Controller,
  Get,
  Headers,
  HttpStatus,
  Inject,
  Res,
  VERSION_NEUTRAL,
  Version,
} from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG, CONTROL_CONNECTION, DATABASE_TARGET } from '../common/config/config.tokens';
import { withDeadline } from '../common/deadline';
import { ApiTag, NotRateLimited } from '../common/decorators';
import { requestedLanguage, setErrorLanguage } from '../common/errors/language';
import { NoTenant } from '../tenancy/tenancy.decorators';
import type { DatabaseTarget } from '../database/database-target';
import { TenantDataSources } from '../tenancy/tenant-datasources.service';
import { ComandaEventHub } from '../comandas/stream/comanda-event-hub.service';
import { connectionBudget } from '../common/config/connection-budget';
import { HealthReport, HealthUnavailableReport } from './health.dto';
import { controlDatabaseDown } from './health.errors';

const PROBE_TIMEOUT_MS = 2_000;

@ApiTag('health', 'Liveness and database readiness, without tenant or token.')
@NoTenant()
@Public()
@NotRateLimited()
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource(CONTROL_CONNECTION) private readonly control: DataSource,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
    private readonly tenants: TenantDataSources,
    private readonly live: ComandaEventHub,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Version(VERSION_NEUTRAL)
  @ApiOperation({
    summary:
      'Liveness and readiness: the control database answers (503 otherwise); tenant databases that do not answer are listed (degraded)',
  })
  @ApiOkResponse({
    type: HealthReport,
    description: 'The control database answers: status ok, or degraded with tenantsDown',
  })
  @ApiServiceUnavailableResponse({
    description:
      'The control database does not answer: the report with status unavailable, and the ' +
      'error and code (`DATABASE_UNAVAILABLE`) of the error envelope (Retry-After)',
    type: HealthUnavailableReport,
  })
  async health(
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') acceptLanguage: string | undefined,
  ): Promise<HealthReport> {
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
      this.tenants.unreachable(PROBE_TIMEOUT_MS),
    ]);
    const report: HealthReport = {
      status: database.status !== 'up' ? 'unavailable' : tenantsDown.length > 0 ? 'degraded' : 'ok',
      database,
      embeddedDatabase: this.target.embedded,
      tenantDataSources: this.tenants.size,
      tenantsDown,
      connections: {
        budget: connectionBudget(this.config),
        listeners: this.live.listenerCount,
        streams: this.live.streamCount,
      },
      uptimeSeconds: Math.round(process.uptime()),
    };
    if (database.status !== 'up') {
      const down = controlDatabaseDown();
      const language = requestedLanguage(acceptLanguage);
      res.status(HttpStatus.SERVICE_UNAVAILABLE);
      for (const [name, value] of Object.entries(down.headers ?? {})) res.setHeader(name, value);
      setErrorLanguage(res, language);
      Object.assign(report, {
        error: language === 'es' ? down.spanish : down.message,
        code: down.code,
      });
    }
    return report;
  }
}
