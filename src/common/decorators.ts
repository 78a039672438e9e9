import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiHeader } from '@nestjs/swagger';
import type { TenantFeature } from '../tenancy/entities/tenant.entity';

export const NO_TENANT = 'comandas:no-tenant';
export const REQUIRES_FEATURE = 'comandas:requires-feature';
export const LONG_RUNNING = 'comandas:long-running';

/** The route serves no tenant (health, docs): no X-Tenant-ID is needed or read. */
export const NoTenant = () => SetMetadata(NO_TENANT, true);

/** Documents the tenant header of a tenant-scoped controller. */
export const TenantScoped = () =>
  ApiHeader({
    name: 'X-Tenant-ID',
    required: true,
    description: 'Tenant slug (^[a-z][a-z0-9_-]{1,62}$)',
    example: 'demo',
  });

/**
 * The route exists only while `feature` is on for the requested tenant (global switch, or the
 * tenant's override). Off, it answers exactly like a route that does not exist (DESIGN §5).
 */
export const RequiresFeature = (feature: TenantFeature) =>
  applyDecorators(SetMetadata(REQUIRES_FEATURE, feature), ApiExtension('x-feature', feature));

/** The route may run longer than REQUEST_TIMEOUT_MS (file imports): no request timeout. */
export const LongRunning = () => SetMetadata(LONG_RUNNING, true);
