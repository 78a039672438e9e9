import { definePlugin } from '../module-plugin';

declare module '../common/config/features' {
  interface FeatureNames {
    webhooks: 'FEATURE_WEBHOOKS';
  }
}

declare module '../auth/permissions' {
  interface ModulePermissions {
    'webhooks:manage': true;
  }
}

/** Outbound webhooks (docs/webhooks.md). */
export const WEBHOOKS_PLUGIN = definePlugin({
  name: 'webhooks',
  feature: {
    name: 'webhooks',
    variable: 'FEATURE_WEBHOOKS',
    default: false,
    demo: true,
    tag: 'webhooks',
    inDatabase: {},
    description:
      'Outbound webhooks: signed, at-least-once messages of the changes to endpoints of the tenant (docs/webhooks.md)',
    permissionsWhileOff: 'hidden',
  },
  permissions: {
    'webhooks:manage': { roles: [] },
  },
  // what it brings is required when the application is composed, not when this is read (the
  // plugin is read before the config: src/main.ts)
  /* eslint-disable @typescript-eslint/no-require-imports */
  load: () => ({
    module: (require('./webhooks.module') as typeof import('./webhooks.module')).WebhooksModule,
  }),
  /* eslint-enable @typescript-eslint/no-require-imports */
});
