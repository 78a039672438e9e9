/**
 * The browser tests (`npm run test:web`; docs/testing.md, "Browser tests"). Kept out of
 * jest.config.js so that `npm test` runs what it always did. The project is the e2e one
 * (transforms, the global setup's PostgreSQL and migrated templates, the one-minute timeout)
 * with its own files.
 */
const { projects } = require('./jest.config');

const e2e = projects.find((project) => project.displayName === 'e2e');

module.exports = {
  projects: [{ ...e2e, displayName: 'web', testMatch: ['<rootDir>/test/web/**/*.web-spec.ts'] }],
};
