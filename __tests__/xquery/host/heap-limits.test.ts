/**
 * The heap limits query workers start with (launch.ts `workerLimits`) and the router's default
 * worker heap (router-options.ts `workerMemory`).
 */
import type { Worker } from 'node:worker_threads';
import { resolveOptions } from '../../../lib/router-options';
import { QueryPool } from '../../../lib/xquery/host/pool';
import { YOUNG_GENERATION_MB, workerLimits } from '../../../lib/xquery/host/launch';

const MiB = 1024 * 1024;

/** The workers a pool has started (private to the pool: read here to see their limits). */
function workersOf(pool: QueryPool): Worker[] {
  return (pool as unknown as { slots: { worker: Worker }[] }).slots.map((s) => s.worker);
}

describe('workerLimits', () => {
  it('caps the young generation, and the old one only when a heap size is given', () => {
    expect(YOUNG_GENERATION_MB).toBe(12);
    expect(workerLimits(undefined)).toEqual({ maxYoungGenerationSizeMb: 12 });
    expect(workerLimits(300)).toEqual({ maxYoungGenerationSizeMb: 12, maxOldGenerationSizeMb: 300 });
  });
});

describe('query workers', () => {
  it('start with both limits, and answer as before', async () => {
    const pool = new QueryPool({ size: 1, heapMb: 300 });
    try {
      const out = await pool.run({ xslt: '', xpath: 'string-join((1 to 3) ! string(), ",")', serialization: { method: 'text' } });
      expect(out.body).toBe('1,2,3');
      const [worker] = workersOf(pool);
      expect(worker.resourceLimits).toMatchObject({ maxYoungGenerationSizeMb: 12, maxOldGenerationSizeMb: 300 });
    } finally {
      await pool.close();
    }
  });

  it('without a heap size, keep V8\'s old generation and cap the young one', async () => {
    const pool = new QueryPool({ size: 1 });
    try {
      expect((await pool.run({ xslt: '', xpath: '1 + 1', serialization: { method: 'text' } })).body).toBe('2');
      const [worker] = workersOf(pool);
      expect(worker.resourceLimits?.maxYoungGenerationSizeMb).toBe(12);
    } finally {
      await pool.close();
    }
  });
});

describe('the router\'s workerMemory', () => {
  it('defaults to 1 GiB, and a given value is kept', () => {
    expect(resolveOptions({}).workerMemory).toBe(1024 * MiB);
    expect(resolveOptions({ workerMemory: 3072 * MiB }).workerMemory).toBe(3072 * MiB);
  });
});
