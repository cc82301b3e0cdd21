/**
 * Requests of one user in progress at once (router option `maxUserRequests`): one account cannot
 * take every pooled PostgreSQL connection, query worker or place in the query queue, whatever it
 * sends. A user's further requests wait their turn in order, holding nothing; one that waited
 * longer than the limit (half the `queryTimeout`, as a query waiting for a worker) answers 503
 * with `Retry-After`. The wait starts after authentication, so logins never wait here.
 */
import { entry, raise, withHeaders } from '../xmldb-error';

export const USER_REQUEST_ERRORS = {
  USER_BUSY_X: entry(503, "Server busy: too many requests of user '%' are in progress. Try again later."),
} as const;

interface Turns {
  running: number;
  readonly waiting: Array<() => void>;
}

export class UserRequests {
  private readonly users = new Map<string, Turns>();

  constructor(
    private readonly max: number,
    private readonly maxWaitMs: number,
  ) {}

  /** Waits for a turn of `user`; answers the function that ends it (call it once, when done). */
  async enter(user: string): Promise<() => void> {
    let turns = this.users.get(user);
    if (turns === undefined) this.users.set(user, (turns = { running: 0, waiting: [] }));
    if (turns.running >= this.max) await this.wait(user, turns);
    else turns.running++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.leave(user, turns);
    };
  }

  /** Queues for a turn; the one leaving hands its turn over (`running` stays counted). */
  private wait(user: string, turns: Turns): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        turns.waiting.splice(turns.waiting.indexOf(take), 1);
        const retryAfter = String(Math.max(1, Math.ceil(this.maxWaitMs / 1000)));
        reject(withHeaders(raise(USER_REQUEST_ERRORS, 'USER_BUSY_X', user), { 'Retry-After': retryAfter }));
      }, this.maxWaitMs);
      timer.unref();
      const take = (): void => {
        clearTimeout(timer);
        resolve();
      };
      turns.waiting.push(take);
    });
  }

  private leave(user: string, turns: Turns): void {
    const next = turns.waiting.shift();
    if (next !== undefined) return next();
    turns.running--;
    if (turns.running === 0) this.users.delete(user);
  }
}
