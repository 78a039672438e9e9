import { ApiTag } from '../common/decorators';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { TenantScoped } from './tenancy.decorators';
import { TenantContext } from './tenant-context';
import { TenantFeatures } from './tenant-features.service';
import { CurrentTenantDto } from './tenant.dto';

@ApiTag('tenant', 'The tenant named by X-Tenant-ID, with its effective feature switches.')
@TenantScoped()
@Controller('tenant')
export class TenantController {
  constructor(
    private readonly context: TenantContext,
    private readonly features: TenantFeatures,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'The tenant of X-Tenant-ID: name, time zone and effective feature switches',
  })
  @ApiOkResponse({ type: CurrentTenantDto })
  current(): CurrentTenantDto {
    const tenant = this.context.tenant;
    return {
      slug: tenant.slug,
      name: tenant.name,
      status: tenant.status,
      timeZone: tenant.timeZone,
      features: this.features.effective(tenant),
    };
  }
}
