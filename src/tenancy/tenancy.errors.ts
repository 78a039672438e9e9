import {
  BadRequestError,
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

/** A tenant-scoped value was read outside a request or job that entered a tenant context. */
export class TenantContextMissingError extends InternalError {
  constructor(what: string) {
    super('TENANT_CONTEXT_MISSING', new Error(`No tenant context is active (reading ${what})`));
  }
}
