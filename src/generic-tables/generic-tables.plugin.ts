import { definePlugin } from '../module-plugin';

declare module '../common/config/features' {
  interface FeatureNames {
    genericTables: 'FEATURE_GENERIC_TABLES';
  }
}

declare module '../auth/permissions' {
  interface ModulePermissions {
    'tables:access': true;
  }
}

/** Schema-driven reading and inserting over an allow-list of tables (docs/generic-tables.md). */
export const GENERIC_TABLES_PLUGIN = definePlugin({
  name: 'generic-tables',
  feature: {
    name: 'genericTables',
    variable: 'FEATURE_GENERIC_TABLES',
    default: false,
    tag: 'generic tables',
    description:
      'Schema-driven reading and inserting over an allow-list of tables (docs/generic-tables.md)',
    permissionsWhileOff: 'kept',
  },
  permissions: {
    'tables:access': { roles: [] },
  },
  // what it brings is required when the application is composed, not when this is read (the
  // plugin is read before the config: src/main.ts)
  /* eslint-disable @typescript-eslint/no-require-imports */
  load: () => ({
    module: (require('./generic-tables.module') as typeof import('./generic-tables.module'))
      .GenericTablesModule,
  }),
  /* eslint-enable @typescript-eslint/no-require-imports */
});
