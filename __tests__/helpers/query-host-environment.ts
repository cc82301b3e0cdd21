/**
 * The jest test environment of the suite (jest.config.js `testEnvironment`): Node's, plus the
 * query host processes kept between the test files that one jest worker runs (kept-hosts.ts).
 * jest loads this module once per worker, outside the files' module registries, so its state
 * outlives each file; the files reach it through their global `KEPT_HOSTS` (shared-hosts.ts).
 * With `npm test -- --cpu-report`, it also logs what each file costs (file-cpu.ts). After a file,
 * it removes the temporary folders the file made (temp-dir.ts), once its tests and hooks have
 * closed what used them: a run left hundreds of them behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TestEnvironment } from 'jest-environment-node';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { KEPT_HOSTS, KeptHostProcesses } from './kept-hosts';
import { CPU_LOG_ENV, FileCpuMeter } from './file-cpu';
import { TEMP_DIRS } from './temp-dir';

const kept = new KeptHostProcesses();

export default class QueryHostEnvironment extends TestEnvironment {
  private readonly meter: FileCpuMeter | undefined;
  /** The temporary folders the file made (temp-dir.ts `tempDir`). */
  private readonly tempDirs: string[] = [];

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.global[KEPT_HOSTS] = kept;
    (this.global as unknown as Record<symbol, unknown>)[TEMP_DIRS] = this.tempDirs;
    const log = process.env[CPU_LOG_ENV];
    if (log) this.meter = new FileCpuMeter(log, path.relative(config.globalConfig.rootDir, context.testPath));
  }

  override async setup(): Promise<void> {
    await super.setup();
    this.meter?.start();
  }

  override async teardown(): Promise<void> {
    this.meter?.end();
    for (const dir of this.tempDirs.splice(0)) {
      try {
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
      } catch {
        // a process of the file still writing there: left to the system's cleaning
      }
    }
    await super.teardown();
  }
}
