/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
    // lowdb and steno ship ESM only; jest's module system needs them as CommonJS.
    '^.+/node_modules/(lowdb|steno)/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', moduleResolution: 'node10', isolatedModules: true } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(lowdb|steno)/)'],
  testTimeout: 30000,
};
