import type { MigrationInterface } from 'typeorm';
import { TenantCatalog1764000000000 } from './1764000000000-tenant-catalog';
import { TenantMigratedAt1764100000000 } from './1764100000000-tenant-migrated-at';
import { Devices1764300000000 } from './1764300000000-devices';
import { OutboxDue1765500000100 } from './1765500000100-outbox-due';

/** Migrations of the control database, oldest first. */
export const CONTROL_MIGRATIONS: (new () => MigrationInterface)[] = [
  TenantCatalog1764000000000,
  TenantMigratedAt1764100000000,
  Devices1764300000000,
  OutboxDue1765500000100,
];
