/**
 * The features an admin can switch on and off: one line each. Everything else is derived from
 * this registry: the FEATURE_* variables of the config (validated like any other, with the
 * default given here), the tenant catalog's per-tenant overrides, the feature guard, the OpenAPI tags and
 * labels, `GET /api/v1/tenant`, the tenant CLI's `feature` command and the check that
 * `.env.example` documents every variable. docs/adding-a-module.md shows how a module becomes
 * switchable.
 */
export const FEATURES = {
  genericTables: {
    variable: 'FEATURE_GENERIC_TABLES',
    default: false,
    tag: 'generic tables',
    description:
      'Schema-driven reading and inserting over an allow-list of tables (docs/generic-tables.md)',
  },
  rpc: {
    variable: 'FEATURE_RPC',
    default: false,
    tag: 'rpc',
    description:
      'Business operations over store functions: recipes, purchases, attendance, reports (docs/rpc.md)',
  },
  reservas: {
    variable: 'FEATURE_RESERVAS',
    default: true,
    tag: 'reservas',
    description: 'Table reservations (docs/reservas.md)',
  },
  cobros: {
    variable: 'FEATURE_COBROS',
    default: false,
    demo: true,
    tag: 'cobros',
    description: "Payments, tills and the day's close (docs/cobros.md)",
  },
  inventario: {
    variable: 'FEATURE_INVENTARIO',
    default: false,
    demo: true,
    tag: 'inventario',
    description:
      'Stock from recipes: purchases in, sales out, waste, counts, food cost (docs/inventario.md)',
  },
  cocina: {
    variable: 'FEATURE_COCINA',
    default: false,
    demo: true,
    tag: 'cocina',
    description:
      'The kitchen: courses, tickets per station as deltas, bump and recall, the kitchen stream (docs/cocina.md)',
  },
  reportes: {
    variable: 'FEATURE_REPORTES',
    default: false,
    demo: true,
    tag: 'reportes',
    inDatabase: { onOpen: 'SELECT reportes_seguimiento($1)' },
    description:
      'Reports: sales by period, product, waiter, table and payment method, expenses against sales, hours worked; CSV (docs/reportes.md)',
  },
  webhooks: {
    variable: 'FEATURE_WEBHOOKS',
    default: false,
    demo: true,
    tag: 'webhooks',
    inDatabase: {},
    description:
      'Outbound webhooks: signed, at-least-once messages of the changes to endpoints of the tenant (docs/webhooks.md)',
  },
} as const satisfies Record<string, FeatureDefinition>;

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

/** The session settings of a tenant's connections: `comandas.<feature> = off` per feature off. */
export function databaseSwitchesOff(isOn: (feature: TenantFeature) => boolean): string {
  return TENANT_FEATURES.filter(
    (feature) => (FEATURES[feature] as FeatureDefinition).inDatabase && !isOn(feature),
  )
    .map((feature) => `-c comandas.${feature}=off`)
    .join(' ');
}

export type TenantFeature = keyof typeof FEATURES;
export const TENANT_FEATURES = Object.keys(FEATURES) as TenantFeature[];

export type FeatureVariable = (typeof FEATURES)[TenantFeature]['variable'];
export const FEATURE_VARIABLES = TENANT_FEATURES.map((feature) => FEATURES[feature].variable);

/** The global switches, one boolean per feature (part of the config). */
export type FeatureSwitches = Record<FeatureVariable, boolean>;

/** Per-tenant overrides kept in the tenant catalog (absent: follow the global switch). */
export type TenantFeatureOverrides = Partial<Record<TenantFeature, boolean>>;

/** The overrides the `demo` tenant is provisioned with: the features marked `demo`, on. */
export function demoFeatureOverrides(): TenantFeatureOverrides {
  return Object.fromEntries(
    TENANT_FEATURES.filter((feature) => (FEATURES[feature] as FeatureDefinition).demo).map(
      (feature) => [feature, true],
    ),
  );
}

export function isTenantFeature(name: string): name is TenantFeature {
  return Object.hasOwn(FEATURES, name);
}

/**
 * Whether `feature` is on for a tenant: its catalog override when it has one, else the global
 * switch of the config.
 */
export function isFeatureOn(
  feature: TenantFeature,
  switches: FeatureSwitches,
  overrides: TenantFeatureOverrides | null | undefined,
): boolean {
  const override = overrides?.[feature];
  return typeof override === 'boolean' ? override : switches[FEATURES[feature].variable];
}
