/**
 * Restarting what failed to start (a query worker, pool.ts; the query host, engine/query-host.ts): after
 * a delay that doubles with each failure in a row, from 100 ms up to 30 s, so a broken
 * installation does not spin; after a few failures in a row, the tasks waiting for it fail with
 * the error instead of waiting for the next try.
 */
const FIRST_MS = 100;
const MAX_MS = 30_000;

/** Start-up failures in a row after which waiting tasks fail. */
export const START_GIVE_UP = 3;

/** The delay before the next try after `failures` failures in a row (1 or more). */
export function startDelay(failures: number): number {
  return Math.min(MAX_MS, FIRST_MS * 2 ** (failures - 1));
}
