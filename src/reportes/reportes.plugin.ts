import { definePlugin } from '../module-plugin';

declare module '../common/config/features' {
  interface FeatureNames {
    reportes: 'FEATURE_REPORTES';
  }
}

declare module '../auth/permissions' {
  interface ModulePermissions {
    'reportes:read': true;
  }
}

/** Reports: sales, expenses against sales, hours worked (docs/reportes.md). */
export const REPORTES_PLUGIN = definePlugin({
  name: 'reportes',
  feature: {
    name: 'reportes',
    variable: 'FEATURE_REPORTES',
    default: false,
    demo: true,
    tag: 'reportes',
    inDatabase: { onOpen: 'SELECT reportes_seguimiento($1)' },
    description:
      'Reports: sales by period, product, waiter, table and payment method, expenses against sales, hours worked; CSV (docs/reportes.md)',
    permissionsWhileOff: 'hidden',
  },
  permissions: {
    'reportes:read': { roles: ['cajero'] },
  },
  // what it brings is required when the application is composed, not when this is read (the
  // plugin is read before the config: src/main.ts)
  /* eslint-disable @typescript-eslint/no-require-imports */
  load: () => ({
    module: (require('./reportes.module') as typeof import('./reportes.module')).ReportesModule,
  }),
  /* eslint-enable @typescript-eslint/no-require-imports */
});
