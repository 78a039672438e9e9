import {
  BadRequestError,
  DomainError,
  ForbiddenError,
  InternalError,
  NotFoundError,
  ServiceUnavailableError,
} from '../common/errors/domain-error';

export const TENANT_HEADER = 'x-tenant-id';

export const tenantRequired = () =>
  new BadRequestError('The X-Tenant-ID header is required', 'TENANT_REQUIRED');

export const tenantInvalid = () =>
  new BadRequestError(
    'X-Tenant-ID must be a tenant slug: a lowercase letter, then 1 to 62 of a-z, 0-9, _ or -',
    'TENANT_INVALID',
  );

export const tenantNotFound = (slug: string) =>
  new NotFoundError(`Tenant "${slug}" does not exist`, 'TENANT_NOT_FOUND');

export const tenantSuspended = (slug: string) =>
  new ForbiddenError(`Tenant "${slug}" is suspended`, 'TENANT_SUSPENDED');

export const tenantProvisioning = (slug: string) =>
  new ServiceUnavailableError(
    `Tenant "${slug}" is still being provisioned: npm run tenant -- create ${slug} finishes it`,
    'TENANT_PROVISIONING',
    5,
  );

/** The command that brings a tenant's database to the code's schema. */
export const migrateCommand = (slug: string) => `npm run tenant -- migrate ${slug}`;

/**
 * The tenant's database lacks migrations of this version of the code (the service was updated,
 * the tenant not migrated yet): 503 naming the command to run. Logged once per tenant where it
 * is found (TenantDataSources), not at every request.
 */
export const tenantSchemaOutdated = (slug: string) =>
  new DomainError({
    status: 503,
    code: 'TENANT_SCHEMA_OUTDATED',
    message: `The database of tenant "${slug}" is behind this version of the service: run ${migrateCommand(slug)}`,
    detail: { command: migrateCommand(slug) },
    headers: { 'Retry-After': '30' },
    reported: true,
  });

/** A tenant-scoped value was read outside a request or job that entered a tenant context. */
export class TenantContextMissingError extends InternalError {
  constructor(what: string) {
    super('TENANT_CONTEXT_MISSING', new Error(`No tenant context is active (reading ${what})`));
  }
}
