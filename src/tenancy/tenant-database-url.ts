import { withDatabase } from '../database/pg-url';
import type { Tenant } from './entities/tenant.entity';

/** The URL of a tenant's database: its own URL, or its database on the control server. */
export function tenantDatabaseUrl(
  tenant: Pick<Tenant, 'databaseName' | 'databaseUrl'>,
  controlUrl: string,
): string {
  return tenant.databaseUrl ?? withDatabase(controlUrl, tenant.databaseName);
}
