import { definePlugin } from '../module-plugin';

declare module '../common/config/features' {
  interface FeatureNames {
    cobros: 'FEATURE_COBROS';
  }
}

declare module '../auth/permissions' {
  interface ModulePermissions {
    'cobros:pay': true;
    'cobros:void': true;
    'cobros:refund': true;
    'cobros:discount': true;
    'cobros:settings': true;
    'caja:operate': true;
    'caja:approve-difference': true;
  }
}

/** Payments, tills and the day's close (docs/cobros.md). */
export const COBROS_PLUGIN = definePlugin({
  name: 'cobros',
  feature: {
    name: 'cobros',
    variable: 'FEATURE_COBROS',
    default: false,
    demo: true,
    tag: 'cobros',
    description: "Payments, tills and the day's close (docs/cobros.md)",
    permissionsWhileOff: 'hidden',
  },
  // the cashier takes the money: payments, voids of a payment while the ticket is open, the till's
  // session (open, movements, close within the tolerance); refunds, discounts and a close beyond
  // the tolerance are the admin's
  permissions: {
    'cobros:pay': { roles: ['cajero'] },
    'cobros:void': { roles: ['cajero'] },
    'cobros:refund': { roles: [] },
    'cobros:discount': { roles: [] },
    'cobros:settings': { roles: [] },
    'caja:operate': { roles: ['cajero'] },
    'caja:approve-difference': { roles: [] },
  },
  // what it brings is required when the application is composed, not when this is read (the
  // plugin is read before the config: src/main.ts)
  /* eslint-disable @typescript-eslint/no-require-imports */
  load: () => ({
    module: (require('./cobros.module') as typeof import('./cobros.module')).CobrosModule,
    comandaExtension: (require('./comanda-extension') as typeof import('./comanda-extension'))
      .COBROS_EXTENSION,
  }),
  /* eslint-enable @typescript-eslint/no-require-imports */
});
