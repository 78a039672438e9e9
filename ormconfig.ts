import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { MIGRATIONS_TABLE } from './src/database/database-target';
import { CONTROL_MIGRATIONS } from './src/database/migrations/control';
import { TENANT_MIGRATIONS } from './src/database/migrations/tenant';
import { CONTROL_ENTITIES } from './src/control-entities';

/**
 * DataSource for the TypeORM CLI (`npm run typeorm -- migration:show`, `migration:revert`).
 * ORM_TARGET=control (default) works on DATABASE_URL, the control database; ORM_TARGET=tenant
 * works on TENANT_DATABASE_URL, one tenant's database. The service itself and the tenant CLI
 * run migrations on their own (see docs/architecture.md).
 */
const target = process.env.ORM_TARGET ?? 'control';
const url = target === 'tenant' ? process.env.TENANT_DATABASE_URL : process.env.DATABASE_URL;
if (!url) {
  throw new Error(
    target === 'tenant'
      ? 'Set TENANT_DATABASE_URL to the tenant database (ORM_TARGET=tenant)'
      : 'Set DATABASE_URL to the control database (or ORM_TARGET=tenant with TENANT_DATABASE_URL)',
  );
}

export default new DataSource({
  type: 'postgres',
  url,
  entities: target === 'tenant' ? [] : CONTROL_ENTITIES,
  migrations: target === 'tenant' ? TENANT_MIGRATIONS : CONTROL_MIGRATIONS,
  migrationsTableName: MIGRATIONS_TABLE,
  migrationsTransactionMode: 'each',
  synchronize: false,
});
