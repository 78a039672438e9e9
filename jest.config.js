/**
 * NestJS 12 ships ESM-only packages: @swc/jest transforms both our TypeScript and those
 * packages' JavaScript to CommonJS (see docs/testing.md).
 */
const swcTransform = [
  '@swc/jest',
  {
    swcrc: false,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2023',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swcTransform },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|file-type|load-esm|uid)/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      // the page's rules (web/src) are pure functions, tested like the service's
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/web/src/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      // a project's testTimeout is not applied by jest 30: the setup file sets it
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-setup.ts'],
    },
    {
      // store functions called with SQL on a real tenant database: the PostgreSQL and the
      // migrated templates of the e2e global setup, no app
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/integration/support/integration-setup.ts'],
    },
    {
      // the client's contract over plain HTTP: in process, or against E2E_BASE_URL (docs/testing.md)
      ...common,
      displayName: 'contract',
      testMatch: ['<rootDir>/test/contract/**/*.contract-spec.ts'],
      globalSetup: '<rootDir>/test/contract/global-setup.ts',
      globalTeardown: '<rootDir>/test/contract/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-setup.ts'],
    },
  ],
};
