import type { EntitySchema } from 'typeorm';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type TenantEntity = Function | EntitySchema;

const entities = new Set<TenantEntity>();

/**
 * A module that maps tenant tables with TypeORM entities registers them here, in its module
 * file (docs/adding-a-module.md): every tenant DataSource, created on a tenant's first request,
 * then knows them, and `TenantContext.repository(Entity)` works for them.
 */
export function registerTenantEntities(...list: TenantEntity[]): void {
  for (const entity of list) entities.add(entity);
}

/** The entities registered so far (read when a tenant DataSource is created). */
export function tenantEntities(): TenantEntity[] {
  return [...entities];
}
