import { InternalError } from '../common/errors/common.errors';

/*
 * The tenant's codes every route shares (TENANT_REQUIRED, TENANT_NOT_FOUND ...) are in
 * src/common/errors/common.errors.ts, with the other shared codes of the OpenAPI document.
 */

export const TENANT_HEADER = 'x-tenant-id';

/** A tenant-scoped value was read outside a request or job that entered a tenant context. */
export class TenantContextMissingError extends InternalError {
  constructor(what: string) {
    super('TENANT_CONTEXT_MISSING', new Error(`No tenant context is active (reading ${what})`));
  }
}
