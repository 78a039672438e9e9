/**
 * The features an admin can switch on and off. Each switchable module declares its feature in
 * its plugin (`src/<module>/<module>.plugin.ts`, docs/adding-a-module.md), and the plugins are
 * installed here when the application's module list (`src/modules.ts`) is read. Everything else
 * is derived from these definitions: the FEATURE_* variables of the config (validated like any
 * other, with the default given by the module), the tenant catalog's per-tenant overrides, the
 * feature guard, the OpenAPI tags and labels, `GET /api/v1/tenant`, the tenant CLI's `feature`
 * command and the check that `.env.example` documents every variable.
 */

/**
 * The names of the features, each with its variable: every plugin adds its own by declaration
 * merging, so that a feature's name is checked by the compiler wherever it is written
 * (`@RequiresFeature('reservas')`):
 *
 * ```ts
 * declare module '../common/config/features' {
 *   interface FeatureNames { reservas: 'FEATURE_RESERVAS' }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FeatureNames {}

export type TenantFeature = Extract<keyof FeatureNames, string>;
export type FeatureVariable = FeatureNames[TenantFeature] & `FEATURE_${string}`;

export interface FeatureDefinition {
  /** The environment variable that switches it for every tenant. */
  variable: `FEATURE_${string}`;
  /** Its value when the variable is not set. */
  default: boolean;
  /** Switched on for the `demo` tenant when it is provisioned (a per-tenant override). */
  demo?: boolean;
  /** The OpenAPI tag of its operations. */
  tag: string;
  /** What it is, for people: the OpenAPI tag, GET /tenant, the CLI's usage. */
  description: string;
  /**
   * It has triggers in the tenant database (the reports' change marks, the webhooks' outbox):
   * while it is off for a tenant, the service's connections to its database carry the setting
   * `comandas.<feature> = off`, which the triggers' WHEN clauses read, so a tenant without the
   * feature pays nothing for it on its writes (docs/performance.md). `onOpen`, run with whether
   * it is on when a DataSource of the tenant opens (or reopens after a switch), records what the
   * module must know of that (the reports: that they missed changes and are computed again).
   */
  inDatabase?: { onOpen?: string };
}

const definitions = new Map<TenantFeature, FeatureDefinition>();
let names: readonly TenantFeature[] = [];
let installed = false;

/**
 * Installs the features of the application's modules, in the order of its module list
 * (src/module-plugin.ts does it once, when src/modules.ts is read).
 */
export function installFeatures(features: readonly [TenantFeature, FeatureDefinition][]): void {
  if (installed) throw new Error('The features are installed once (src/modules.ts)');
  const variables = new Set<string>();
  for (const [name, definition] of features) {
    if (definitions.has(name)) throw new Error(`Feature "${name}" is declared twice`);
    if (variables.has(definition.variable))
      throw new Error(`Variable ${definition.variable} switches two features`);
    variables.add(definition.variable);
    definitions.set(name, definition);
  }
  names = Object.freeze([...definitions.keys()]);
  installed = true;
}

function registry(): ReadonlyMap<TenantFeature, FeatureDefinition> {
  if (!installed)
    throw new Error(
      'The features are read before the modules are installed: import src/modules.ts first',
    );
  return definitions;
}

/** Every feature with its definition, in the order of the module list. */
export function featureDefinitions(): ReadonlyMap<TenantFeature, FeatureDefinition> {
  return registry();
}

/** The names of the features, in the order of the module list. */
export function tenantFeatures(): readonly TenantFeature[] {
  registry();
  return names;
}

/** The definition of a feature. */
export function featureDefinition(feature: TenantFeature): FeatureDefinition {
  const definition = registry().get(feature);
  if (definition === undefined) throw new Error(`Unknown feature "${feature}"`);
  return definition;
}

/** The FEATURE_* variables, one per feature. */
export function featureVariables(): FeatureVariable[] {
  return [...registry().values()].map((definition) => definition.variable as FeatureVariable);
}

/** The session settings of a tenant's connections: `comandas.<feature> = off` per feature off. */
export function databaseSwitchesOff(isOn: (feature: TenantFeature) => boolean): string {
  return [...registry()]
    .filter(([feature, definition]) => definition.inDatabase && !isOn(feature))
    .map(([feature]) => `-c comandas.${feature}=off`)
    .join(' ');
}

/** The global switches, one boolean per feature (part of the config). */
export type FeatureSwitches = Record<FeatureVariable, boolean>;

/** Per-tenant overrides kept in the tenant catalog (absent: follow the global switch). */
export type TenantFeatureOverrides = Partial<Record<TenantFeature, boolean>>;

/** The overrides the `demo` tenant is provisioned with: the features marked `demo`, on. */
export function demoFeatureOverrides(): TenantFeatureOverrides {
  return Object.fromEntries(
    [...registry()].filter(([, definition]) => definition.demo).map(([feature]) => [feature, true]),
  );
}

export function isTenantFeature(name: string): name is TenantFeature {
  return registry().has(name as TenantFeature);
}
