import type { AppConfig } from './app-config';

/**
 * The most PostgreSQL connections one instance opens: the control pool, and per tenant
 * DataSource (at most TENANT_DATASOURCE_MAX) its pool plus the live feed's LISTEN connection
 * (one per tenant with subscribers, never more tenants than DataSources). README, Configuration,
 * and docs/architecture.md, Scale-out, give the arithmetic for N instances.
 */
export function connectionBudget(
  config: Pick<AppConfig, 'CONTROL_POOL_MAX' | 'TENANT_POOL_MAX' | 'TENANT_DATASOURCE_MAX'>,
): number {
  return config.CONTROL_POOL_MAX + config.TENANT_DATASOURCE_MAX * (config.TENANT_POOL_MAX + 1);
}
