import type { MigrationInterface } from 'typeorm';
import { TenantCatalog1764000000000 } from './1764000000000-tenant-catalog';
import { TenantMigratedAt1764100000000 } from './1764100000000-tenant-migrated-at';
import { Devices1764300000000 } from './1764300000000-devices';
import { OutboxDue1765500000100 } from './1765500000100-outbox-due';

/**
 * The control database's migrations kept here, oldest first; `controlMigrations()`
 * (../module-migrations.ts) merges the modules' own with them by timestamp.
 */
export const SHARED_CONTROL_MIGRATIONS: (new () => MigrationInterface)[] = [
  TenantCatalog1764000000000,
  TenantMigratedAt1764100000000,
  Devices1764300000000,
  OutboxDue1765500000100,
];
