/**
 * A task of the pool (pool.ts) from submission until it is settled: the ends of its caller's
 * promise, its cancel signal, and its wait limit.
 */
import type { CancelSignal } from './jobs';
import type { Reply, Task } from '../protocol/protocol';
import type { ChannelView } from '../protocol/store-channel';

export interface Pending {
  readonly task: Task;
  readonly timeoutMs: number;
  /** The view answering the worker's store requests while it runs this task. */
  readonly view?: ChannelView;
  /**
   * Set once the task has waited half its time limit for a busy worker holding its database
   * while another worker was free: from then on it runs on any worker (document-budget.ts).
   */
  anyWorker: boolean;
  resolve(reply: Reply): void;
  reject(error: Error): void;
  /**
   * Starts the wait limit, unless it runs already: after half the task's time limit `giveUp` is
   * asked whether the task is settled (refused) or started; while it answers false, it is asked
   * again as long again.
   */
  limitWait(giveUp: () => boolean): void;
}

/**
 * A task and its caller's promise. `onAbort` hears of the signal's abort; settling the task
 * stops listening to the signal and clears the wait limit.
 */
export function openPending(
  task: Task,
  timeoutMs: number,
  signal: CancelSignal | undefined,
  view: ChannelView | undefined,
  onAbort: (pending: Pending) => void,
): [Pending, Promise<Reply>] {
  let waitLimit: NodeJS.Timeout | undefined;
  const abort = () => onAbort(pending);
  const detach = () => {
    clearTimeout(waitLimit);
    signal?.removeEventListener('abort', abort);
  };
  let pending!: Pending;
  const promise = new Promise<Reply>((resolve, reject) => {
    pending = {
      task,
      timeoutMs,
      view,
      anyWorker: false,
      resolve: (reply) => {
        detach();
        resolve(reply);
      },
      reject: (error) => {
        detach();
        reject(error);
      },
      limitWait: (giveUp) => {
        if (waitLimit !== undefined) return; // started already
        const wait = () => {
          waitLimit = setTimeout(() => giveUp() || wait(), timeoutMs / 2);
          waitLimit.unref();
        };
        wait();
      },
    };
  });
  signal?.addEventListener('abort', abort, { once: true });
  return [pending, promise];
}
