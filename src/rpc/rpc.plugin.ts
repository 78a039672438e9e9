import { definePlugin } from '../module-plugin';

declare module '../common/config/features' {
  interface FeatureNames {
    rpc: 'FEATURE_RPC';
  }
}

declare module '../auth/permissions' {
  interface ModulePermissions {
    'rpc:call': true;
  }
}

/** Business operations over store functions (docs/rpc.md). */
export const RPC_PLUGIN = definePlugin({
  name: 'rpc',
  feature: {
    name: 'rpc',
    variable: 'FEATURE_RPC',
    default: false,
    tag: 'rpc',
    description:
      'Business operations over store functions: recipes, purchases, attendance, reports (docs/rpc.md)',
    permissionsWhileOff: 'kept',
  },
  permissions: {
    'rpc:call': { roles: [] },
  },
  // what it brings is required when the application is composed, not when this is read (the
  // plugin is read before the config: src/main.ts)
  /* eslint-disable @typescript-eslint/no-require-imports */
  load: () => ({
    module: (require('./rpc.module') as typeof import('./rpc.module')).RpcModule,
  }),
  /* eslint-enable @typescript-eslint/no-require-imports */
});
