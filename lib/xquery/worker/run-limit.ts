/**
 * A lower time limit for part of a run, asked for from inside the query worker (xquery:eval's
 * `timeout` option, functions/xquery.ts). A synchronous evaluation cannot be interrupted from its
 * own thread, so the worker tells the pool (host/pool.ts), which stops the worker when the
 * lower limit passes, as it does at the query's own limit, with `[xquery:timeout]`. Limits nest:
 * an inner one never extends an outer one, and leaving one restores the one around it (or the
 * query's own limit). Outside a query worker (no poster connected) nothing is limited.
 */

/** Tells the pool the limit from now on: milliseconds left, or null for the query's own limit. */
export type LimitPoster = (ms: number | null) => void;

let poster: LimitPoster | undefined;
/** Deadlines (performance.now()) of the limits in force, innermost last. */
const deadlines: number[] = [];

/** Connects the worker's channel to the pool (worker/thread.ts). */
export function connectRunLimit(post: LimitPoster): void {
  poster = post;
}

/** Forgets the limits of a previous run (a run that failed inside a limit never left it). */
export function resetRunLimits(): void {
  // most runs set no limit: writing the length of an array costs more than reading it
  if (deadlines.length !== 0) deadlines.length = 0;
}

/** Runs `fn` under a limit of `ms` milliseconds from now (never beyond the limits around it). */
export function withRunLimit<T>(ms: number, fn: () => T): T {
  if (!poster) return fn();
  const outer = deadlines.at(-1);
  const deadline = Math.min(performance.now() + ms, outer ?? Infinity);
  deadlines.push(deadline);
  poster(Math.max(0, deadline - performance.now()));
  try {
    return fn();
  } finally {
    deadlines.pop();
    const restored = deadlines.at(-1);
    poster(restored === undefined ? null : Math.max(0, restored - performance.now()));
  }
}
