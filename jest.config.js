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
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      // a project's testTimeout is not applied by jest 30: the setup file sets it
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-setup.ts'],
    },
  ],
};
