/**
 * Restarting what failed to start (a query worker, pool.ts; the query host, engine/query-host.ts): after
 * a delay that doubles with each failure in a row, from 100 ms up to 30 s, so a broken
 * installation does not spin; after a few failures in a row, the tasks waiting for it fail with
 * the error instead of waiting for the next try.
 */
const FIRST_MS = 100;
const MAX_MS = 30_000;

/** Start-up failures in a row after which waiting tasks fail. */
const START_GIVE_UP = 3;

/** The delay before the next try after `failures` failures in a row (1 or more). */
function startDelay(failures: number): number {
  return Math.min(MAX_MS, FIRST_MS * 2 ** (failures - 1));
}

/** The start-up failures in a row of one thing that is restarted, and the retry that waits out its delay. */
export class StartBackoff {
  private failures = 0;
  private retry: NodeJS.Timeout | null = null;

  /** Whether a retry waits out its delay: nothing is started meanwhile. */
  get waiting(): boolean {
    return this.retry !== null;
  }

  /** A start succeeded: the next failure waits the first delay again. */
  succeeded(): void {
    this.failures = 0;
  }

  /** A start failed: whether that makes START_GIVE_UP in a row, after which waiting tasks fail. */
  failed(): boolean {
    return ++this.failures >= START_GIVE_UP;
  }

  /** Runs `retry` once the delay of the failures so far has passed, unless a retry waits already. */
  retryLater(retry: () => void): void {
    if (this.retry !== null) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      retry();
    }, startDelay(this.failures));
    this.retry.unref();
  }

  /** Drops a waiting retry (the thing is closed). */
  cancel(): void {
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
  }
}
