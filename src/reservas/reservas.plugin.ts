import { definePlugin } from '../module-plugin';

declare module '../common/config/features' {
  interface FeatureNames {
    reservas: 'FEATURE_RESERVAS';
  }
}

declare module '../auth/permissions' {
  interface ModulePermissions {
    'reservas:read': true;
    'reservas:write': true;
    'reservas:seat': true;
    'reservas:no-show': true;
  }
}

/** Table reservations: the book, seating (which opens a comanda), cancellations and no-shows (docs/reservas.md). */
export const RESERVAS_PLUGIN = definePlugin({
  name: 'reservas',
  feature: {
    name: 'reservas',
    variable: 'FEATURE_RESERVAS',
    default: true,
    tag: 'reservas',
    description: 'Table reservations (docs/reservas.md)',
    permissionsWhileOff: 'kept',
  },
  // the cashier keeps the book (books, changes, cancels, marks the no-shows) but seats no one:
  // seating opens a comanda, which is the waiter's; the kitchen reads it to plan the covers
  permissions: {
    'reservas:read': { roles: ['cajero', 'mozo', 'cocina'] },
    'reservas:write': { roles: ['cajero', 'mozo'] },
    'reservas:seat': { roles: ['mozo'] },
    'reservas:no-show': { roles: ['cajero'] },
  },
  // what it brings is required when the application is composed, not when this is read (the
  // plugin is read before the config: src/main.ts)
  /* eslint-disable @typescript-eslint/no-require-imports */
  load: () => ({
    module: (require('./reservas.module') as typeof import('./reservas.module')).ReservasModule,
  }),
  /* eslint-enable @typescript-eslint/no-require-imports */
});
