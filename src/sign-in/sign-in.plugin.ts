import { definePlugin } from '../module-plugin';

declare module '../auth/permissions' {
  interface ModulePermissions {
    'usuarios:credenciales': true;
  }
}

/** Signing in on the page: staff PINs and their tokens (docs/sign-in.md). */
export const SIGN_IN_PLUGIN = definePlugin({
  name: 'sign-in',
  permissions: {
    'usuarios:credenciales': { roles: [] },
  },
  // what it brings is required when the application is composed, not when this is read (the
  // plugin is read before the config: src/main.ts)
  /* eslint-disable @typescript-eslint/no-require-imports */
  load: () => ({
    module: (require('./sign-in.module') as typeof import('./sign-in.module')).SignInModule,
  }),
  /* eslint-enable @typescript-eslint/no-require-imports */
});
