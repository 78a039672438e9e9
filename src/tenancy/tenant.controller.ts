import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TenantScoped } from '../common/decorators';
import { TENANT_FEATURES } from './entities/tenant.entity';
import { TenantCatalogService } from './tenant-catalog.service';
import { TenantContext } from './tenant-context';
import { CurrentTenantDto } from './tenant.dto';

@ApiTags('tenant')
@TenantScoped()
@Controller('tenant')
export class TenantController {
  constructor(
    private readonly context: TenantContext,
    private readonly catalog: TenantCatalogService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'The tenant of X-Tenant-ID: name, time zone and effective feature switches',
  })
  @ApiOkResponse({ type: CurrentTenantDto })
  current(): CurrentTenantDto {
    const tenant = this.context.tenant;
    const features: CurrentTenantDto['features'] = { genericTables: false, rpc: false };
    for (const feature of TENANT_FEATURES)
      features[feature] = this.catalog.isFeatureEnabled(feature, tenant);
    return {
      slug: tenant.slug,
      name: tenant.name,
      status: tenant.status,
      timeZone: tenant.timeZone,
      features,
    };
  }
}
