/**
 * The operations a store has running, so that `close()` refuses new ones (STORE_CLOSED) and
 * waits for those already started: shared by every store implementation.
 */
import { raise } from '../xmldb-error';
import { STORE_ERRORS } from './store-errors';

export class InFlight {
  private readonly running = new Set<Promise<unknown>>();
  private closing = false;

  /** Whether `close` was called. */
  get closed(): boolean {
    return this.closing;
  }

  /** Runs `run` as one operation, or refuses it once closing. */
  track<T>(run: () => Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(raise(STORE_ERRORS, 'STORE_CLOSED'));
    const promise = run();
    this.running.add(promise);
    const forget = () => this.running.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  /** Refuses new operations and resolves when every running one has settled. */
  async close(): Promise<void> {
    this.closing = true;
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
