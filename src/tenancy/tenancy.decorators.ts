import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiHeader } from '@nestjs/swagger';
import type { TenantFeature } from '../common/config/features';
import { TENANT_HEADER_PARAMETER } from '../common/decorators';

export const NO_TENANT = 'comandas:no-tenant';
export const REQUIRES_FEATURE = 'comandas:requires-feature';

/**
 * The route serves no tenant (health, the driver catalogue): no X-Tenant-ID is needed or read.
 * The OpenAPI document then leaves out the tenant header and its answers
 * (src/common/http/openapi-contract.ts adds them to every other operation).
 */
export const NoTenant = () =>
  applyDecorators(SetMetadata(NO_TENANT, true), ApiExtension('x-no-tenant', true));

/**
 * Documents the tenant header of a tenant-scoped controller (the OpenAPI document adds it to
 * every operation not marked `@NoTenant()` anyway, with the tenant's answers).
 */
export const TenantScoped = () => ApiHeader(TENANT_HEADER_PARAMETER);

/**
 * The route exists only while `feature` (common/config/features.ts) is on for the requested
 * tenant: its catalog override, else the global FEATURE_* switch. Off, it answers exactly like a
 * route that does not exist.
 */
export const RequiresFeature = (feature: TenantFeature) =>
  applyDecorators(SetMetadata(REQUIRES_FEATURE, feature), ApiExtension('x-feature', feature));
