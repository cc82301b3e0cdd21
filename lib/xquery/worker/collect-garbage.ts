/**
 * A full garbage collection of the worker's heap, soon after it dropped parsed documents
 * (document-budget.ts). V8 collects when allocation asks for it; a worker that went idle after
 * an eviction allocates nothing, so without this the memory of the dropped documents would stay
 * taken until its next busy spell.
 *
 * V8's `gc` is reachable only with the `--expose-gc` flag, which worker options cannot set
 * (Node refuses V8 flags in `execArgv` of a Worker): it is switched on just long enough to take
 * the function from a fresh context, and off again. Obtained while the worker loads, before the
 * host wall (host-wall.ts) forbids compiling code from strings; queries cannot reach it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Milliseconds after an eviction before collecting (evictions that come together share one). */
const DELAY_MS = 50;

let gc: (() => void) | undefined;
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
  }, DELAY_MS);
  timer.unref();
}
