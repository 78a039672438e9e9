import type { MigrationInterface } from 'typeorm';
import { TenantCatalog1764000000000 } from './1764000000000-tenant-catalog';

/** Migrations of the control database, oldest first. */
export const CONTROL_MIGRATIONS: (new () => MigrationInterface)[] = [TenantCatalog1764000000000];
