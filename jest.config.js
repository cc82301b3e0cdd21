/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
  },
  testTimeout: 30000,
  // jest's default is one worker fewer than the cores (one on a 2-core machine); the suites wait
  // on query worker threads much of the time, so every core runs a suite.
  maxWorkers: '100%',
};
