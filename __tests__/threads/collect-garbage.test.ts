/**
 * Collections of a thread's heap (threads/collect-garbage.ts). The real collections run here in the
 * test's own thread (the same V8 calls as in a worker), whose heap also holds what other suites
 * left: they assert what holds whatever else the heap holds, and the rule that ends the rounds
 * is checked on its own.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { hostFlags } from '../../lib/xquery/engine/host-flags';
import { sourceLoader } from '../../lib/threads/launch';
import { anotherRound, beforeCollecting, collectCompacting, collectIfGrown, collectionCount, collectSoon, postponeCollection, prepareCollection } from '../../lib/threads/collect-garbage';

const MiB = 1024 * 1024;

/** Resolves once no collection has run for `quietMs` (the rounds of one due collection are over). */
async function settled(quietMs = 400): Promise<void> {
  let seen = -1;
  while (seen !== collectionCount()) {
    seen = collectionCount();
    await new Promise((r) => setTimeout(r, quietMs));
  }
}

/**
 * Resolves once a collection has run since the count was `before` (then once the rounds of that
 * collection are over), or after `deadlineMs` without one. A quiet window alone is not enough:
 * on a loaded machine the timers of a due collection can fire after the window has passed.
 */
async function collectedSince(before: number, deadlineMs = 10_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (collectionCount() === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await settled();
}

/** Fills the heap with small objects of which one in `keepOne` stays referenced. */
function fragmentedHeap(keepOne: number, count = 1_500_000): object[] {
  const kept: object[] = [];
  let dropped: object[] | null = [];
  for (let i = 0; i < count; i++) (i % keepOne === 0 ? kept : dropped).push({ i, list: [i] });
  dropped = null;
  return kept;
}

describe('the rounds of a due collection', () => {
  it('go on while the last gave back 16 MiB and more than that stays unused, up to 4', () => {
    expect(anotherRound(1, 40 * MiB, 200 * MiB, 12 * MiB)).toBe(true);
    expect(anotherRound(3, 16 * MiB, 60 * MiB, 12 * MiB)).toBe(true);
    expect(anotherRound(4, 80 * MiB, 200 * MiB, 12 * MiB)).toBe(false);
    expect(anotherRound(1, 15 * MiB, 200 * MiB, 12 * MiB)).toBe(false); // gave back too little
    expect(anotherRound(1, 40 * MiB, 28 * MiB, 12 * MiB)).toBe(false); // little left unused
    expect(anotherRound(1, -5 * MiB, 200 * MiB, 12 * MiB)).toBe(false); // a task grew the heap meanwhile
  });
});

describe('collections', () => {
  beforeAll(() => prepareCollection());

  it('repeat on a fragmented heap, giving back the pages the survivors held', async () => {
    await settled();
    const kept = fragmentedHeap(20);
    const before = collectionCount();
    const committed = getHeapStatistics().total_heap_size;
    collectSoon();
    await collectedSince(before);
    const rounds = collectionCount() - before;
    // the first round frees the dropped objects, later ones release the pages the kept ones held
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(rounds).toBeLessThanOrEqual(4);
    expect(committed - getHeapStatistics().total_heap_size).toBeGreaterThan(64 * MiB);
    expect(kept.length).toBe(75_000);
  });

  it('compact: one gives back the pages that survivors shared with garbage', async () => {
    await settled();
    const kept = fragmentedHeap(4, 2_400_000);
    collectCompacting();
    const old = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
    // of the pages the survivors shared with garbage, a plain full collection left 12-13 MiB committed here, this one 2
    expect(old!.physical_space_size - old!.space_used_size).toBeLessThan(6 * MiB);
    expect(kept.length).toBe(600_000);
  });

  it('follow tasks after which the heap has grown, once the worker is idle', async () => {
    await settled();
    // all kept: the heap grows past what it holds now (at least its live size) and the margin
    const target = getHeapStatistics().used_heap_size + 48 * MiB;
    let grown: object[][] | null = [];
    while (getHeapStatistics().used_heap_size < target) grown.push(Array.from({ length: 100_000 }, (_, i) => ({ i })));
    const before = collectionCount();
    // the growth is read a moment after the task (not within it), and then collected
    collectIfGrown();
    expect(collectionCount()).toBe(before);
    await collectedSince(before);
    expect(collectionCount() - before).toBeGreaterThanOrEqual(1);
    expect(grown.length).toBeGreaterThan(0);
    grown = null;
  });

  it('let the worker let go of what it can make again, once before the rounds of each', async () => {
    await settled();
    let freed: object[] | null = Array.from({ length: 200_000 }, (_, i) => ({ i }));
    const weak = new WeakRef(freed);
    const counts: number[] = [];
    beforeCollecting(() => {
      counts.push(collectionCount());
      freed = null;
    });
    try {
      const before = collectionCount();
      collectSoon();
      await collectedSince(before);
      // called before the first round, whose collection then freed what it let go
      expect(counts).toEqual([before]);
      expect(weak.deref()).toBeUndefined();
      collectSoon();
      await collectedSince(before + 1);
      expect(counts.length).toBe(2);
    } finally {
      beforeCollecting(() => undefined);
    }
  });

  it('do not follow tasks after which the heap has not grown', async () => {
    await settled();
    const before = collectionCount();
    for (let i = 0; i < 1000; i++) collectIfGrown();
    await settled();
    expect(collectionCount()).toBe(before);
  });

  it('wait while a task runs: a postponed collection runs after it', async () => {
    await settled();
    const before = collectionCount();
    collectSoon();
    postponeCollection();
    await new Promise((r) => setTimeout(r, 200));
    expect(collectionCount()).toBe(before);
    collectSoon();
    await collectedSince(before);
    expect(collectionCount() - before).toBeGreaterThanOrEqual(1);
  });
});

describe("V8's gc function", () => {
  afterAll(() => prepareCollection()); // the real one again, from a fresh context

  it('is taken from the global where the process exposes it (a query host: host-flags.ts), and cleared there', async () => {
    await settled();
    const exposed = jest.fn();
    (globalThis as { gc?: unknown }).gc = exposed;
    prepareCollection();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    const before = collectionCount();
    collectSoon();
    await collectedSince(before);
    expect(exposed).toHaveBeenCalled();
  });

  it("is taken by each worker of a process with the query host's flags, and cleared on its global", async () => {
    const worker = `${sourceLoader()}
const before = typeof globalThis.gc;
projectRequire('./collect-garbage.ts').prepareCollection();
require('node:worker_threads').parentPort.postMessage({ before, after: typeof globalThis.gc });`;
    const script = `${sourceLoader()}
globalThis.gc = undefined;
const w = new (require('node:worker_threads').Worker)(${JSON.stringify(worker)}, { eval: true });
w.on('message', (m) => { process.stdout.write(JSON.stringify(m)); void w.terminate(); });`;
    const { stdout } = await promisify(execFile)(process.execPath, [...hostFlags(), '-e', script], { cwd: path.join(__dirname, '..', '..') });
    expect(JSON.parse(stdout)).toEqual({ before: 'function', after: 'undefined' });
  }, 60_000);
});
