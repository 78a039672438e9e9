import type { Type } from '@nestjs/common';
import type { ComandaExtensionContract } from './comandas/comanda-contract';
import {
  installFeatures,
  type FeatureDefinition,
  type TenantFeature,
} from './common/config/features';
import {
  installModuleMigrations,
  type MigrationClass,
} from './database/migrations/module-migrations';
import { installPermissions, type Permission, type PermissionDefinition } from './auth/permissions';

/**
 * What a module is to the rest of the application, declared in its own folder
 * (`src/<module>/<module>.plugin.ts`) and listed once in `src/modules.ts`
 * (docs/adding-a-module.md). The plugin is read when the module list is, before the
 * configuration (its feature's switch is a variable of the config); `load` brings the Nest
 * module itself, later, when the application is composed.
 */
export interface ModulePlugin {
  /** The module's folder under src/. */
  name: string;
  /** Its switch, when an admin can turn it off (off for a tenant: its routes answer 404). */
  feature?: PluginFeature;
  /**
   * Its permissions, with the roles that hold them besides `admin` (which holds them all),
   * after the comandas' own and the earlier modules' in the answers (`/me`, the token CLI).
   * Each name also joins the type `Permission`, by declaration merging in the same file.
   */
  permissions?: Partial<Record<Permission, PermissionDefinition>>;
  /** Its tenant migrations (src/<module>/migrations/), merged with the others by timestamp. */
  tenantMigrations?: readonly MigrationClass[];
  /** Its control-database migrations, likewise. */
  controlMigrations?: readonly MigrationClass[];
  /** The Nest module and what it adds to the application, loaded when it is composed. */
  load(): LoadedModule;
}

export interface PluginFeature extends FeatureDefinition {
  /** The feature's name (`FeatureNames` gets it by declaration merging in the same file). */
  name: TenantFeature;
  /**
   * While the feature is off for a tenant, its module's permissions are nobody's there (not in
   * `/me`, not in `acciones`), or they stay as they are.
   */
  permissionsWhileOff: 'hidden' | 'kept';
}

export interface LoadedModule {
  /** The Nest module, imported by the root module after the shared ones. */
  module: Type<unknown>;
  /**
   * Its contract with the comandas (its actions, fields, errors: docs/adding-a-module.md,
   * "Extending the comandas"). The extensions' hooks run in the order of the module list.
   */
  comandaExtension?: ComandaExtensionContract;
  /** The TypeORM entities it keeps in the control database. */
  controlEntities?: readonly Type<unknown>[];
}

/** A module's plugin, as written: the object itself, typed. */
export function definePlugin<const P extends ModulePlugin>(plugin: P): P {
  return plugin;
}

let installed: readonly ModulePlugin[] | undefined;

/**
 * Installs the modules of the list, in its order: their features, permissions and migrations
 * join the registries that the configuration, the permission checks and the migrations read.
 * Done once, by src/modules.ts.
 */
export function installModules(plugins: readonly ModulePlugin[]): readonly ModulePlugin[] {
  if (installed) throw new Error('The modules are installed once (src/modules.ts)');
  const names = new Set<string>();
  for (const plugin of plugins) {
    if (names.has(plugin.name)) throw new Error(`Module ${plugin.name} is listed twice`);
    names.add(plugin.name);
  }
  installFeatures(
    plugins.flatMap(({ feature }) => {
      if (!feature) return [];
      // the plugin's feature is a FeatureDefinition with its name and permissions' rule
      return [[feature.name, feature] as [TenantFeature, FeatureDefinition]];
    }),
  );
  installPermissions(
    plugins.map(({ permissions = {}, feature }) => ({
      permissions,
      feature: feature?.permissionsWhileOff === 'hidden' ? feature.name : undefined,
    })),
  );
  installModuleMigrations({
    tenant: plugins.flatMap((plugin) => plugin.tenantMigrations ?? []),
    control: plugins.flatMap((plugin) => plugin.controlMigrations ?? []),
  });
  installed = plugins;
  return plugins;
}

const loaded = new Map<ModulePlugin, LoadedModule>();

/** What each module of the list brings, in its order (each loaded once). */
export function loadModules(plugins: readonly ModulePlugin[]): LoadedModule[] {
  return plugins.map((plugin) => {
    let module = loaded.get(plugin);
    if (module === undefined) {
      module = plugin.load();
      loaded.set(plugin, module);
    }
    return module;
  });
}
