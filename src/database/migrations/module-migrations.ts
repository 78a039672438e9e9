import type { MigrationInterface } from 'typeorm';

export type MigrationClass = new () => MigrationInterface;

let modules: { tenant: MigrationClass[]; control: MigrationClass[] } | undefined;
let tenant: MigrationClass[] | undefined;
let control: MigrationClass[] | undefined;

/**
 * Installs the migrations the modules keep in their own folders (src/<module>/migrations/), in
 * the order of the module list (src/module-plugin.ts does it once, when src/modules.ts is read).
 */
export function installModuleMigrations(installed: {
  tenant: readonly MigrationClass[];
  control: readonly MigrationClass[];
}): void {
  if (modules) throw new Error('The modules’ migrations are installed once (src/modules.ts)');
  modules = { tenant: [...installed.tenant], control: [...installed.control] };
}

function installed(): { tenant: MigrationClass[]; control: MigrationClass[] } {
  if (!modules)
    throw new Error(
      'The migrations are read before the modules are installed: import src/modules.ts first',
    );
  return modules;
}

/** The 13-digit timestamp a migration's name ends with (its place in the history). */
export function migrationTimestamp(Migration: MigrationClass): number {
  const name = new Migration().name ?? Migration.name;
  const match = /(\d{13})$/.exec(name);
  if (!match) throw new Error(`Migration ${name}: its name must end with its 13-digit timestamp`);
  return Number(match[1]);
}

/** One history: the shared migrations and the modules', oldest first, each timestamp once. */
function history(shared: readonly MigrationClass[], own: readonly MigrationClass[]) {
  const all = [...shared, ...own].map((Migration) => ({
    Migration,
    at: migrationTimestamp(Migration),
  }));
  all.sort((a, b) => a.at - b.at);
  for (let i = 1; i < all.length; i++) {
    if (all[i].at === all[i - 1].at)
      throw new Error(
        `Migrations ${all[i - 1].Migration.name} and ${all[i].Migration.name} have one timestamp`,
      );
  }
  return all.map(({ Migration }) => Migration);
}

/**
 * Every migration of a tenant database, oldest first: those of src/database/migrations/tenant
 * and the modules' own, merged by timestamp. Loaded on first use, not imported: the request path
 * reads the migrations (their SQL) only when it first opens a tenant database.
 */
export function tenantMigrations(): MigrationClass[] {
  if (!tenant) {
    type Shared = typeof import('./tenant');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { SHARED_TENANT_MIGRATIONS } = require('./tenant') as Shared;
    tenant = history(SHARED_TENANT_MIGRATIONS, installed().tenant);
  }
  return tenant;
}

/** Every migration of the control database, oldest first (shared and modules', by timestamp). */
export function controlMigrations(): MigrationClass[] {
  if (!control) {
    type Shared = typeof import('./control');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { SHARED_CONTROL_MIGRATIONS } = require('./control') as Shared;
    control = history(SHARED_CONTROL_MIGRATIONS, installed().control);
  }
  return control;
}
