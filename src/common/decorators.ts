import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';

export const LONG_RUNNING = 'comandas:long-running';

/** The tenant header as the OpenAPI document declares it (the tenancy module's TenantScoped). */
export const TENANT_HEADER_PARAMETER = {
  name: 'X-Tenant-ID',
  required: true,
  description:
    'The tenant slug: a lowercase letter, then 1 to 62 of a-z, 0-9, _ or - (missing: 400 ' +
    '`TENANT_REQUIRED`, malformed: 400 `TENANT_INVALID`, unknown: 404 `TENANT_NOT_FOUND`)',
  schema: { type: 'string', pattern: '^[a-z][a-z0-9_-]{1,62}$', example: 'demo' },
} as const;

/**
 * The OpenAPI tag of a controller's operations, described where the controller is: the document
 * declares every tag with the description its controller gives (common/http/openapi-contract.ts).
 */
export const ApiTag = (name: string, description: string) =>
  applyDecorators(ApiTags(name), ApiExtension('x-tag-description', description));

/** The route may run longer than REQUEST_TIMEOUT_MS (file imports): no request timeout. */
export const LongRunning = () =>
  applyDecorators(SetMetadata(LONG_RUNNING, true), ApiExtension('x-long-running', true));

/**
 * The route is not rate limited (health): the throttler skips it and the OpenAPI document
 * leaves out its 429.
 */
export const NotRateLimited = () =>
  applyDecorators(SkipThrottle(), ApiExtension('x-rate-limited', false));
