/**
 * A full garbage collection of the worker's heap, soon after it dropped parsed documents
 * (document-budget.ts), or after a task when the heap has grown to twice what the last
 * collection left (plus a margin). V8 collects when allocation asks for it and lets a large heap
 * grow several times over its live data first; a worker that went idle allocates nothing, so
 * without this the memory of dropped documents and of finished queries would stay taken until
 * its next busy spell.
 *
 * V8's `gc` is reachable only with the `--expose-gc` flag, which worker options cannot set
 * (Node refuses V8 flags in `execArgv` of a Worker): it is switched on just long enough to take
 * the function from a fresh context, and off again. Obtained while the worker loads, before the
 * host wall (host-wall.ts) forbids compiling code from strings; queries cannot reach it.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Milliseconds after an eviction before collecting (evictions that come together share one). */
const DELAY_MS = 50;

/** Garbage a task may leave beyond the live heap before a collection is due. */
const MARGIN_BYTES = 64 * 1024 * 1024;

let gc: (() => void) | undefined;
/** Heap in use after the last collection. */
let live = 0;
let timer: NodeJS.Timeout | undefined;

/** Takes V8's `gc` function (call while loading, before the host wall); without it, a no-op later. */
export function prepareCollection(): void {
  try {
    setFlagsFromString('--expose-gc');
    const fn: unknown = runInNewContext('gc');
    if (typeof fn === 'function') gc = fn as () => void;
  } catch {
    gc = undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Collects soon (once for several calls close together). */
export function collectSoon(): void {
  if (!gc || timer) return;
  timer = setTimeout(() => {
    timer = undefined;
    gc?.();
    live = getHeapStatistics().used_heap_size;
  }, DELAY_MS);
  timer.unref();
}

/** After a task: collects soon when the heap grew to twice its live size and the margin. */
export function collectIfGrown(): void {
  if (gc && getHeapStatistics().used_heap_size > 2 * live + MARGIN_BYTES) collectSoon();
}
