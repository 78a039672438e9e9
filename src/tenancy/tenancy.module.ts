import { Module } from '@nestjs/common';
import { TenantCatalogService } from './tenant-catalog.service';
import { TenantContext } from './tenant-context';
import { TenantContextMiddleware } from './tenant-context.middleware';
import { TenantController } from './tenant.controller';
import { TenantGuard } from './tenant.guard';

/** Tenant resolution (DESIGN §4): catalog, request context, DataSource cache, guard. */
@Module({
  controllers: [TenantController],
  providers: [TenantCatalogService, TenantContext, TenantContextMiddleware, TenantGuard],
  exports: [TenantCatalogService, TenantContext, TenantContextMiddleware, TenantGuard],
})
export class TenancyModule {}
