import { definePlugin } from '../module-plugin';

declare module '../common/config/features' {
  interface FeatureNames {
    inventario: 'FEATURE_INVENTARIO';
  }
}

declare module '../auth/permissions' {
  interface ModulePermissions {
    'inventario:read': true;
    'inventario:write': true;
    'inventario:waste': true;
  }
}

/** Stock from recipes (docs/inventario.md). */
export const INVENTARIO_PLUGIN = definePlugin({
  name: 'inventario',
  feature: {
    name: 'inventario',
    variable: 'FEATURE_INVENTARIO',
    default: false,
    demo: true,
    tag: 'inventario',
    description:
      'Stock from recipes: purchases in, sales out, waste, counts, food cost (docs/inventario.md)',
    permissionsWhileOff: 'hidden',
  },
  // the cashier reads the stock, its movements, the counts and the food cost, and changes none of
  // it; the kitchen records the waste of what it throws away
  permissions: {
    'inventario:read': { roles: ['cajero'] },
    'inventario:write': { roles: [] },
    'inventario:waste': { roles: ['cocina'] },
  },
  // what it brings is required when the application is composed, not when this is read (the
  // plugin is read before the config: src/main.ts)
  /* eslint-disable @typescript-eslint/no-require-imports */
  load: () => ({
    module: (require('./inventario.module') as typeof import('./inventario.module'))
      .InventarioModule,
    comandaExtension: (require('./comanda-extension') as typeof import('./comanda-extension'))
      .INVENTARIO_EXTENSION,
  }),
  /* eslint-enable @typescript-eslint/no-require-imports */
});
