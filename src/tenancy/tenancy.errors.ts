import { BadRequestError, DomainError, NotFoundError } from '../common/errors/domain-error';

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
  new DomainError(403, 'TENANT_SUSPENDED', `Tenant "${slug}" is suspended`);

export const tenantProvisioning = (slug: string) =>
  new DomainError(
    503,
    'TENANT_PROVISIONING',
    `Tenant "${slug}" is still being provisioned`,
    undefined,
    undefined,
    {
      'Retry-After': '5',
    },
  );

/** A tenant-scoped value was read outside a request or job that entered a tenant context. */
export class TenantContextMissingError extends DomainError {
  constructor(what: string) {
    super(500, 'TENANT_CONTEXT_MISSING', `No tenant context is active (reading ${what})`);
  }
}
