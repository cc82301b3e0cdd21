/**
 * A full garbage collection of the worker's heap, soon after it dropped parsed documents
 * (document-budget.ts), or after a task when the heap has grown to twice what the last
 * collection left (plus a margin). V8 collects when allocation asks for it and lets a large heap
 * grow several times over its live data first; a worker that went idle allocates nothing, so
 * without this the memory of dropped documents and of finished queries would stay taken until
 * its next busy spell. A collection waits for the worker to be idle for a moment: a task that
 * arrives first puts it off until after that task, so a busy worker's answers never wait for a
 * full collection (a stream of new queries would otherwise pay one every few tasks).
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
/** A collection is wanted (an eviction, or growth) and has not run yet. */
let due = false;

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

/** Collects once the worker has been idle for a moment (once for several calls close together). */
export function collectSoon(): void {
  if (!gc) return;
  due = true;
  if (timer) return;
  timer = setTimeout(() => {
    timer = undefined;
    due = false;
    gc?.();
    live = getHeapStatistics().used_heap_size;
  }, DELAY_MS);
  timer.unref();
}

/** Before a task: a collection not run yet waits until after it. */
export function postponeCollection(): void {
  if (!timer) return;
  clearTimeout(timer);
  timer = undefined;
}

/** After a task: collects soon when one is due or the heap grew to twice its live size and the margin. */
export function collectIfGrown(): void {
  if (gc && (due || getHeapStatistics().used_heap_size > 2 * live + MARGIN_BYTES)) collectSoon();
}
