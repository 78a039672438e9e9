import { Module } from '@nestjs/common';
import { TenantCatalogService } from './tenant-catalog.service';
import { TenantContext } from './tenant-context';
import { TenantContextMiddleware } from './tenant-context.middleware';
import { TenantDataSources } from './tenant-datasources.service';
import { TenantFeatures } from './tenant-features.service';
import { TenantController } from './tenant.controller';
import { TenantGuard } from './tenant.guard';

/**
 * Tenancy: the tenant catalog, the tenant of each request (middleware, guards, TenantContext),
 * the tenants' DataSources and which features are on for a tenant. The root module mounts the
 * middleware and the guards (app.module.ts).
 */
@Module({
  controllers: [TenantController],
  providers: [
    TenantCatalogService,
    TenantDataSources,
    TenantFeatures,
    TenantContext,
    TenantContextMiddleware,
    TenantGuard,
  ],
  exports: [
    TenantCatalogService,
    TenantDataSources,
    TenantFeatures,
    TenantContext,
    TenantContextMiddleware,
    TenantGuard,
  ],
})
export class TenancyModule {}
