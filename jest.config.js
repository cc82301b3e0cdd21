const os = require('node:os');

// Packages published as ES modules only, which jest's CommonJS registry cannot load as they are.
const ESM_ONLY = ['lowdb'];

/** @type {import('jest').Config} */
module.exports = {
  // Node's, plus the query host processes that one jest worker keeps between test files.
  testEnvironment: '<rootDir>/__tests__/helpers/query-host-environment.ts',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // sucrase: types stripped, imports made CommonJS, `jest.mock` calls hoisted, the rest left as
    // written; the source-mode loader of threads and processes transforms the same way
    // (lib/threads/launch.ts SOURCE_TRANSFORM). Many times faster than the TypeScript compiler's
    // per-file transpilation, which matters on a fresh clone, whose transform cache is empty.
    '^.+\\.ts$': '@sucrase/jest-plugin',
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
  // jest's default is one worker fewer than the cores (one on a 2-core machine). The suites wait
  // on query hosts, servers, PostgreSQL, the browser and sleeping queries for part of their time,
  // so two workers more than cores keep the cores busy: on an idle 2-core machine, back to back,
  // the suite took 274 s with 3 workers against 300 s with 2 (2026-11), and once its tests held
  // workers by sleeping rather than computing, 121.5 and 121.8 s with 4 against 123.6 and 125.3 s
  // with 3, the cores idle for 5 s of the run instead of 13-16 (2026-12-06). (A percentage above
  // 100 is not one to jest: it reads '150%' as 150 workers.)
  maxWorkers: os.availableParallelism() + 2,
};
