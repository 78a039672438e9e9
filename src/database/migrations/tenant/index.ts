import type { MigrationInterface } from 'typeorm';
import { DomainSchema1764000000000 } from './1764000000000-domain-schema';

/** Migrations of every tenant database, oldest first. */
export const TENANT_MIGRATIONS: (new () => MigrationInterface)[] = [DomainSchema1764000000000];
