import { definePlugin } from '../module-plugin';

declare module '../auth/permissions' {
  interface ModulePermissions {
    'asistencia:import': true;
  }
}

/** The time clocks and their drivers: devices, attendance imported from them (docs/device-drivers.md). */
export const DEVICE_DRIVERS_PLUGIN = definePlugin({
  name: 'device-drivers',
  permissions: {
    'asistencia:import': { roles: [] },
  },
  // what it brings is required when the application is composed, not when this is read (the
  // plugin is read before the config: src/main.ts)
  /* eslint-disable @typescript-eslint/no-require-imports */
  load: () => ({
    module: (require('./device-drivers.module') as typeof import('./device-drivers.module'))
      .DeviceDriversModule,
    controlEntities: [
      (require('./entities/device.entity') as typeof import('./entities/device.entity')).Device,
    ],
  }),
  /* eslint-enable @typescript-eslint/no-require-imports */
});
