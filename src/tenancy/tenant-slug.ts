/** A tenant slug, the value of X-Tenant-ID (docs/api-contract.md, the tenant). */
export const TENANT_SLUG_PATTERN = /^[a-z][a-z0-9_-]{1,62}$/;

export function isTenantSlug(value: string): boolean {
  return TENANT_SLUG_PATTERN.test(value);
}

/** PostgreSQL's limit on identifier length (NAMEDATALEN - 1). */
export const MAX_DATABASE_NAME_LENGTH = 63;

/** The database of a tenant on the control server: the prefix then the slug. */
export function tenantDatabaseName(prefix: string, slug: string): string {
  return `${prefix}${slug}`;
}
