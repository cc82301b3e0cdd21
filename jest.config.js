/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
  },
  testTimeout: 30000,
  // The PostgreSQL store's tests share one throwaway cluster per run (helpers/pg-cluster.ts).
  globalSetup: '<rootDir>/__tests__/helpers/pg-global-setup.ts',
  globalTeardown: '<rootDir>/__tests__/helpers/pg-global-teardown.ts',
  // jest's default is one worker fewer than the cores (one on a 2-core machine); the suites wait
  // on query worker threads much of the time, so every core runs a suite.
  maxWorkers: '100%',
};
