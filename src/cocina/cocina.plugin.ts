import { definePlugin } from '../module-plugin';

declare module '../common/config/features' {
  interface FeatureNames {
    cocina: 'FEATURE_COCINA';
  }
}

declare module '../auth/permissions' {
  interface ModulePermissions {
    'cocina:read': true;
    'cocina:send': true;
    'cocina:bump': true;
    'cocina:manage': true;
  }
}

/** The kitchen: courses, tickets per station, bump and recall (docs/cocina.md). */
export const COCINA_PLUGIN = definePlugin({
  name: 'cocina',
  feature: {
    name: 'cocina',
    variable: 'FEATURE_COCINA',
    default: false,
    demo: true,
    tag: 'cocina',
    description:
      'The kitchen: courses, tickets per station as deltas, bump and recall, the kitchen stream (docs/cocina.md)',
    permissionsWhileOff: 'hidden',
  },
  // the waiter and the cashier send the orders they take to the kitchen (the waiter fires the next
  // course and serves what is ready); the kitchen works its station's tickets: starts them, bumps
  // them when ready, recalls a bumped one
  permissions: {
    'cocina:read': { roles: ['cajero', 'mozo', 'cocina'] },
    'cocina:send': { roles: ['cajero', 'mozo'] },
    'cocina:bump': { roles: ['cocina'] },
    'cocina:manage': { roles: [] },
  },
  // what it brings is required when the application is composed, not when this is read (the
  // plugin is read before the config: src/main.ts)
  /* eslint-disable @typescript-eslint/no-require-imports */
  load: () => ({
    module: (require('./cocina.module') as typeof import('./cocina.module')).CocinaModule,
    comandaExtension: (require('./comanda-extension') as typeof import('./comanda-extension'))
      .COCINA_EXTENSION,
  }),
  /* eslint-enable @typescript-eslint/no-require-imports */
});
