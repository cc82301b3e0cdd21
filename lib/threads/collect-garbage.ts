/**
 * Full garbage collections of a thread's heap while the thread is idle: a query worker's
 * (xquery/worker/thread.ts) soon after it dropped parsed documents (document-budget.ts), or
 * after a task when the heap has grown by MARGIN_BYTES over what the last collection left; the
 * query host's main thread (xquery/host/host-process.ts) after a large file crossed it in parts.
 * Below, "the worker" is whichever thread calls. V8 collects when allocation asks for it and lets
 * a large heap grow several times over its live data first; a worker that went idle allocates
 * nothing, so without this the memory of dropped documents and of finished queries would stay
 * taken until its next busy spell. On an idle worker a collection is cheap where the heap is mostly a document's
 * tree (its strings are a few large objects, its columns outside the heap): 3 ms with the XMark
 * factor 1 tree (108 MB of XML), 20 ms with a million node objects besides. The margin was twice
 * the live heap once, which at that size let 200 MB of garbage stay. A collection waits for the
 * worker to be idle for a moment: a task that arrives first puts it off until after that task, so
 * a busy worker's answers never wait for a full collection (a stream of new queries would
 * otherwise pay one every few tasks).
 *
 * Reading the heap's size is not free (V8 walks its spaces: a few microseconds, a notable part of
 * a small query's run), so the growth is not read after every task: the first task after a
 * reading arms a timer, and the size is read when it fires, CHECK_DELAY_MS later, once for all
 * the tasks run meanwhile. A worker that goes idle after growing is thus still found out, within
 * CHECK_DELAY_MS; the collection then waits for idleness as before.
 *
 * A plain full collection frees the dead objects but gives back little of the memory they took:
 * the pages they shared with live objects stay committed (a worker that dropped a 10 MB database
 * kept 140 MiB of heap for 30 MiB of live data), and V8 moves the survivors out of only a few of
 * them per collection. So each collection here compacts (`collectCompacting`), and more rounds
 * follow, each again only while the worker is idle, for as long as the heap holds notably more
 * than it uses and the last one gave back a notable amount (at most MAX_ROUNDS in a row).
 *
 * V8's `gc` is reachable only with the `--expose-gc` flag, which worker options cannot set
 * (Node refuses V8 flags in `execArgv` of a Worker). A query host process has the flag
 * (host-flags.ts), so V8 gives every context it creates a global `gc`: the worker takes it from
 * its own global and clears it there. Elsewhere (a pool in a process without the flag) the flag
 * is switched on just long enough to take the function from a fresh context, and off again: a
 * context costs a worker's start about 9 ms (Node 20). Obtained while the worker loads, before
 * the host wall (host-wall.ts) forbids compiling code from strings; queries cannot reach it.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Milliseconds after an eviction before collecting (evictions that come together share one). */
const DELAY_MS = 50;

/** Garbage a task may leave beyond the live heap before a collection is due. */
const MARGIN_BYTES = 32 * 1024 * 1024;

/** Committed heap beyond the live heap that is worth another collection, and what one must give back to be followed by another. */
const SLACK_BYTES = 16 * 1024 * 1024;

/** Milliseconds from a task to the reading of the heap's growth (shared by the tasks run meanwhile). */
const CHECK_DELAY_MS = 20;

/** Most collections in a row for one that is due: bounds the idle time they take when each gives back a little. */
const MAX_ROUNDS = 4;

let gc: (() => void) | undefined;
/** Heap in use after the last collection. */
let live = 0;
let timer: NodeJS.Timeout | undefined;
/** A collection is wanted (an eviction, or growth) and has not run yet, or more rounds of one are. */
let due = false;
/** Collections run so far for the one that is due. */
let rounds = 0;
/** Committed heap before the last round. */
let committed = 0;
let count = 0;
/** The reading of the heap's growth is armed (tasks ran since the last one). */
let checkTimer: NodeJS.Timeout | undefined;

/** Takes V8's `gc` function (call while loading, before the host wall); without it, a no-op later. */
export function prepareCollection(): void {
  const global = globalThis as { gc?: unknown };
  if (typeof global.gc === 'function') {
    gc = global.gc as () => void;
    // V8 defines it non-configurable, but writable
    global.gc = undefined;
    return;
  }
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
  if (!due) {
    due = true;
    rounds = 0;
    committed = getHeapStatistics().total_heap_size;
  }
  schedule();
}

function schedule(): void {
  if (timer) return;
  timer = setTimeout(collect, DELAY_MS);
  timer.unref();
}

/** What the worker lets go of before the first round of a collection (`beforeCollecting`). */
let release: (() => void) | undefined;

/**
 * `letGo` runs once before each due collection, on an idle worker: it drops what the worker can
 * make again (parsed-documents.ts `renewViews`), for the collection to free.
 */
export function beforeCollecting(letGo: () => void): void {
  release = letGo;
}

/** One round; another follows while it pays (see the file comment). */
function collect(): void {
  timer = undefined;
  if (rounds === 0) release?.();
  collectCompacting();
  count++;
  rounds++;
  const { used_heap_size: used, total_heap_size: total } = getHeapStatistics();
  live = used;
  const gaveBack = committed - total;
  committed = total;
  if (anotherRound(rounds, gaveBack, total, used)) schedule();
  else due = false;
}

/**
 * One full collection that moves the live objects out of every page they share with garbage,
 * and gives those pages back. V8's own choice of pages to compact is sparing: after the twenty
 * XMark queries at factor 1, three runs each, the worker of one run in three kept 94 MB of old
 * space for 23 MB of live objects, rounds of plain collections giving back less than SLACK_BYTES
 * each (the other runs ended within 5 MB of their live size; with this, every run did). The flag
 * is V8's, read as each full collection starts; it is on only for this call, so the collections
 * during a query keep V8's choice. V8's flags are the process's: a collection another worker runs
 * meanwhile compacts too, which changes what it costs, not what it keeps.
 */
export function collectCompacting(): void {
  if (!gc) return;
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/**
 * Whether another round follows `rounds` rounds, the last of which gave back `gaveBack` bytes
 * and left `used` of `total` committed heap bytes.
 */
export function anotherRound(rounds: number, gaveBack: number, total: number, used: number): boolean {
  return rounds < MAX_ROUNDS && total - used > SLACK_BYTES && gaveBack >= SLACK_BYTES;
}

/** Before a task: a collection not run yet waits until after it. */
export function postponeCollection(): void {
  if (!timer) return;
  clearTimeout(timer);
  timer = undefined;
}

/**
 * After a task: collects soon when one is due, or when the heap grew by the margin (read
 * within CHECK_DELAY_MS, see the file comment).
 */
export function collectIfGrown(): void {
  if (!gc) return;
  if (due) collectSoon();
  else if (!checkTimer) {
    checkTimer = setTimeout(checkGrowth, CHECK_DELAY_MS);
    checkTimer.unref();
  }
}

function checkGrowth(): void {
  checkTimer = undefined;
  if (!due && getHeapStatistics().used_heap_size > live + MARGIN_BYTES) collectSoon();
}

/** Collections run so far in this thread. */
export function collectionCount(): number {
  return count;
}
