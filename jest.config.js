// Packages published as ES modules only, which jest's CommonJS registry cannot load as they are.
const ESM_ONLY = ['lowdb'];

/** @type {import('jest').Config} */
module.exports = {
  // Node's, plus the query host processes that one jest worker keeps between test files.
  testEnvironment: '<rootDir>/__tests__/helpers/query-host-environment.ts',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
    [`/node_modules/(?:${ESM_ONLY.join('|')})/.+\\.js$`]: '<rootDir>/scripts/jest-esm.js',
    // saxon-js with the source patches the query workers load it with (lib/saxon/load.ts)
    '/node_modules/saxon-js/SaxonJS2N\\.js$': '<rootDir>/scripts/jest-saxon.js',
  },
  transformIgnorePatterns: [`/node_modules/(?!(?:${[...ESM_ONLY, 'saxon-js'].join('|')})/)`],
  testTimeout: 30000,
  // jest's order, with the PostgreSQL parity suites placed by the size of the suites they run.
  testSequencer: '<rootDir>/scripts/jest-sequencer.js',
  // The PostgreSQL store's tests share one throwaway cluster per run (helpers/pg-cluster.ts).
  globalSetup: '<rootDir>/__tests__/helpers/pg-global-setup.ts',
  globalTeardown: '<rootDir>/__tests__/helpers/pg-global-teardown.ts',
  // The routers of one test file share their query host, which the next file may take up
  // (helpers/shared-hosts.ts).
  setupFilesAfterEnv: ['<rootDir>/__tests__/helpers/shared-hosts.ts'],
  // jest's default is one worker fewer than the cores (one on a 2-core machine); the suites wait
  // on query worker threads much of the time, so every core runs a suite.
  maxWorkers: '100%',
};
