/**
 * The jest test environment of the suite (jest.config.js `testEnvironment`): Node's, plus the
 * query host processes kept between the test files that one jest worker runs (kept-hosts.ts).
 * jest loads this module once per worker, outside the files' module registries, so its state
 * outlives each file; the files reach it through their global `KEPT_HOSTS` (shared-hosts.ts).
 */
import { TestEnvironment } from 'jest-environment-node';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { KEPT_HOSTS, KeptHostProcesses } from './kept-hosts';

const kept = new KeptHostProcesses();

export default class QueryHostEnvironment extends TestEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.global[KEPT_HOSTS] = kept;
  }
}
