import type { DataSource, EntityManager } from 'typeorm';
import { ContextKey } from '../common/context/request-context';
import type { DomainError } from '../common/errors/domain-error';
import type { Tenant } from './entities/tenant.entity';

/**
 * The tenancy module's slots in the request context. Only `src/tenancy` reads or writes them;
 * everything else asks TenantContext.
 */
export const TENANT_KEYS = {
  /** The X-Tenant-ID header when it is a well-formed slug (read once, by the middleware). */
  requested: new ContextKey<string>('requestedTenant'),
  /** The catalog row of the X-Tenant-ID tenant, when it exists (any status). */
  tenant: new ContextKey<Tenant>('tenant'),
  /** Why the header does not designate a usable tenant (raised by the tenant guard). */
  tenantError: new ContextKey<DomainError>('tenantError'),
  /** The tenant's DataSource, held for the request by the tenant guard. */
  dataSource: new ContextKey<DataSource>('dataSource'),
  /**
   * The request's tenant transaction, when something around the handler opened one (an
   * idempotent write stores its answer in the transaction of its effect); repositories join it.
   */
  transaction: new ContextKey<EntityManager>('tenantTransaction'),
} as const;
