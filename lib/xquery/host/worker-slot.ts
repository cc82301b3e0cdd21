/**
 * One worker of a pool (pool.ts) and what it does: the task it runs, the tasks posted behind it
 * in the same message (a batch), the running task's time limit, and the stylesheets it has been
 * sent.
 *
 * - Batches: an idle worker may be given several short tasks in one message (`start`); it goes
 *   from one to the next without waiting for the pool, and the pool wakes the sleeping thread
 *   once per batch instead of once per task (a wake-up costs the waking thread tens of
 *   microseconds). Until the worker starts a task, the pool may take it back (task-claim.ts):
 *   once the running task has run `windowMs`, those behind it are taken back (`stalled`), so a
 *   task that turns out long does not hold up the others.
 * - Time limit: runs from the moment the worker starts a task: for a task behind another, from
 *   the reply to that one (the worker starts it right after posting that reply). A task given to
 *   a worker that is still loading gets STARTUP_MS more, and its limit starts over when the worker
 *   is ready.
 * - Store requests are answered with the view of the task that asks (store-channel.ts): a task
 *   behind another may ask before the pool has seen the reply to the one before it.
 */
import type { Worker } from 'node:worker_threads';
import { evalTimeoutError, type QueryError } from '../query-error';
import { startWorker, type WorkerStart } from './launch';
import type { Pending } from './pending';
import type { PostedTask, Task, WorkerInit } from '../protocol/protocol';
import { openStoreChannel, type ChannelView, type StoreChannelHost } from '../protocol/store-channel';
import { TaskClaim } from '../protocol/task-claim';

/** What a worker may take to load (saxon-js and the engine's modules), beyond a task's limit. */
const STARTUP_MS = 60_000;

/** A task given to the worker, with the number of the post that carried it (task-claim.ts). */
interface Posted {
  readonly pending: Pending;
  seq: number;
}

export class WorkerSlot {
  readonly worker: Worker;
  /** The worker has loaded (its first message): time limits run from then on. */
  ready = false;
  /** The task the worker runs (or, while it loads or has not read its batch yet, will run first). */
  current: Posted | null = null;
  /** Tasks posted behind `current` that the worker has not started, as far as the pool knows, in order. */
  readonly behind: Posted[] = [];
  /** Compile keys whose stylesheet this worker has been sent (it may have evicted some since). */
  readonly primed = new Set<string>();
  private readonly claim = new TaskClaim();
  /** Posts to the worker so far (task-claim.ts numbers them). */
  private posts = 0;
  /** Where the worker asks for stored data. */
  private readonly store: StoreChannelHost;
  private timer: NodeJS.Timeout | null = null;
  /** When the current task's own time limit passes (Date.now() scale). */
  private deadline = 0;

  /**
   * `expire`: the current task went over its time limit (with `error` when it is not its own);
   * `stalled`: the current task has run `windowMs` with tasks behind it.
   */
  constructor(
    init: WorkerInit,
    start: WorkerStart,
    private readonly windowMs: number,
    private readonly expire: (slot: WorkerSlot, error?: QueryError) => void,
    private readonly stalled: (slot: WorkerSlot) => void,
  ) {
    this.store = openStoreChannel((id) => this.viewOf(id));
    const transferList = [...(start.transferList ?? []), this.store.channel.port];
    this.worker = startWorker({ ...init, storeChannel: this.store.channel, claim: this.claim.buffer }, { ...start, transferList });
    this.worker.unref();
  }

  /** Whether the worker has no task. */
  get idle(): boolean {
    return this.current === null;
  }

  /** Whether `pending` is one of this worker's tasks. */
  has(pending: Pending): boolean {
    return this.current?.pending === pending || this.behind.some((p) => p.pending === pending);
  }

  /** Gives the idle worker a batch of tasks (one or more) in one message, run in this order. */
  start(batch: readonly Pending[], cacheMax: number): void {
    const posted = batch.map((pending) => ({ pending, seq: 0 }));
    this.current = posted[0];
    this.behind.push(...posted.slice(1));
    this.worker.ref();
    this.startTimer();
    this.worker.postMessage(posted.map((p) => this.postable(p, cacheMax)));
  }

  /** The current task was answered: the one behind it (if any) is current now. Answers the answered one. */
  finish(): Pending | null {
    const done = this.current;
    this.current = this.behind.shift() ?? null;
    if (this.current) this.startTimer();
    else {
      this.stopTimer();
      this.worker.unref();
    }
    return done?.pending ?? null;
  }

  /** Takes back `pending`, waiting behind the current task, unless the worker has started it. */
  takeBack(pending: Pending): boolean {
    const i = this.behind.findIndex((p) => p.pending === pending);
    if (i < 0 || !this.claim.takeBack(this.behind[i].seq)) return false;
    this.behind.splice(i, 1);
    return true;
  }

  /**
   * Takes back every task behind the current one that the worker has not started; answers them
   * in order. Those it has started (only ever the first few) stay.
   */
  takeBackAll(): Pending[] {
    const taken: Pending[] = [];
    for (let i = 0; i < this.behind.length; ) {
      const p = this.behind[i];
      if (this.claim.takeBack(p.seq)) {
        this.behind.splice(i, 1);
        taken.push(p.pending);
      } else i++;
    }
    return taken;
  }

  /**
   * The worker evicted the current task's stylesheet: the task is sent again, with it, behind
   * the tasks already posted (the worker performs posts in order); the next one is current.
   */
  resend(cacheMax: number): void {
    const again = this.current;
    if (!again) return;
    if (this.behind.length > 0) {
      this.current = this.behind.shift()!;
      this.behind.push(again);
      this.startTimer();
    }
    this.worker.postMessage([this.postable(again, cacheMax, true)]);
  }

  /**
   * A task as posted, numbered and marked open for the worker to claim; a run task carries its
   * stylesheet only to a worker that has not seen it.
   */
  private postable(posted: Posted, cacheMax: number, withStylesheet = false): PostedTask {
    const task: Task = posted.pending.task;
    const seq = (posted.seq = ++this.posts);
    this.claim.post(seq);
    if (task.kind !== 'run' || task.key === undefined) return { ...task, seq };
    const send = withStylesheet || !this.primed.has(task.key);
    if (send) {
      if (this.primed.size >= cacheMax) this.primed.clear();
      this.primed.add(task.key);
    }
    return send ? { ...task, seq } : { ...task, sefText: undefined, seq };
  }

  /** The view of task `id` of this worker, if it is one of its tasks. */
  private viewOf(id: number): ChannelView | undefined {
    if (this.current?.pending.task.id === id) return this.current.pending.view;
    return this.behind.find((p) => p.pending.task.id === id)?.pending.view;
  }

  /**
   * (Re)starts the time limit of the current task, from now. With tasks behind it, the timer
   * first fires once the task has run the batch window, to take them back.
   */
  startTimer(): void {
    this.stopTimer();
    const current = this.current;
    if (!current) return;
    const ms = current.pending.timeoutMs + (this.ready ? 0 : STARTUP_MS);
    this.deadline = Date.now() + ms;
    if (this.behind.length > 0 && this.ready && this.windowMs < ms) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.stalled(this);
        if (this.current === current) this.limitTimer(null);
      }, this.windowMs);
    } else this.timer = setTimeout(() => this.expire(this), ms);
  }

  /**
   * The running task lowered its time limit to `ms` from now (xquery:eval's `timeout`), or went
   * back to its own (null). A lower limit that passes stops the worker with `[xquery:timeout]`.
   */
  limitTimer(ms: number | null): void {
    this.stopTimer();
    const own = Math.max(0, this.deadline - Date.now());
    const lowered = ms !== null && ms < own;
    this.timer = setTimeout(() => this.expire(this, lowered ? evalTimeoutError() : undefined), lowered ? ms : own);
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Stops the worker; its tasks are the caller's to settle (current and behind are cleared). */
  stop(): Promise<number> {
    this.stopTimer();
    this.current = null;
    this.behind.length = 0;
    this.store.close();
    this.worker.removeAllListeners('exit');
    this.worker.removeAllListeners('error');
    this.worker.on('error', () => undefined); // a late error of a stopped worker is of no interest
    return this.worker.terminate();
  }
}
