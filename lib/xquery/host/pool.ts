/**
 * A pool of worker threads that compiles and runs queries off the HTTP thread.
 *
 * - Size: `size` workers (default: the number of cores), started on demand; a task waits in a
 *   FIFO queue while all are busy. Idle workers are unref'd, so an idle pool never keeps the
 *   process alive.
 * - Batches: tasks are handed out once per turn of the event loop (or earlier, `handOutNow`, by a
 *   caller that knows no more come in this turn), and the short ones (those whose query last ran
 *   under SHORT_TASK_MS, task-costs.ts) go to one idle worker together, in one message: a worker
 *   is woken once per batch, not once per task. A task behind a running
 *   one that turns out long is taken back and handed out again (worker-slot.ts, task-claim.ts).
 * - Time limit: each task has `timeoutMs` (default 30 s) from the moment a worker starts it (a
 *   newly started worker takes it once it has loaded, so its start-up is not charged). A
 *   synchronous transform cannot be interrupted, so on expiry the worker is terminated (its
 *   memory goes with it), a fresh one takes its place, and the caller gets
 *   `[BASX0003] Timeout exceeded.` (query-error.ts).
 * - Cancellation: a task may carry a cancel signal (the client went away; jobs.ts CancelSignal).
 *   A queued task is dropped (one posted behind another is taken back); a running one gets
 *   `cancelGraceMs` to end (jobs.ts), then its worker is terminated and replaced, like a
 *   timeout: no CPU on an answer nobody will read.
 * - Bounded work: at most `maxQueued` tasks wait; one more is refused at once with 503 and
 *   `Retry-After` (query-error.ts `busyError`), and so is a task that waited half its time
 *   limit without getting a worker: a client hears back within 1.5 time limits. Each worker's
 *   heap is capped (`heapMb`, via `resourceLimits`): a query that exhausts it ends its worker,
 *   fails alone with `[XPDY0130] Out of main memory`, and a fresh worker takes its place.
 * - Start-up failures: a worker that dies before it has loaded is replaced after a delay that
 *   doubles with each failure in a row (up to 30 s), so a broken installation does not spin;
 *   tasks waiting meanwhile fail with the start-up error once the backoff gives up on them.
 * - Compilation is shared across the pool (shared-compilations.ts): one compilation per compile
 *   key, in a worker, under the same time limit. Each worker also keeps its own primed copies, so
 *   a hot query is parsed once per worker.
 * - Parsed documents: one budget for all workers; a query runs next to them (document-budget.ts).
 */
import os from 'node:os';
import { DEFAULT_BASE_URI } from '../constants';
import { busyError, cancelledError, outOfMemoryError, timeoutError, type QueryError } from '../query-error';
import { isOutOfMemory, workerLimits, type WorkerOutput } from './launch';
import { SharedCompilations } from './shared-compilations';
import { DocumentBudget, choose, databaseOf, newWorkerWanted, placement } from './document-budget';
import { TaskCosts } from './task-costs';
import { CANCEL_GRACE_MS, runTaskParts, toOutcome, type CancelSignal, type QueryJob, type QueryOutcome, type QueryPoolOptions } from './jobs';
import { openPending, type Pending } from './pending';
import { WorkerSlot } from './worker-slot';
import { StartBackoff } from '../start-backoff';
import type { ChannelView } from '../protocol/store-channel';
import type { EvictMessage, LimitMessage, ReadyMessage, Reply, Task, WorkerInit } from '../protocol/protocol';
import type { PoolAdjustment } from '../protocol/host-protocol';

export type { ContextSpec, DocumentSourceSpec, ItemPage } from '../protocol/protocol';
export type { CancelSignal, QueryJob, QueryOutcome, QueryPoolOptions } from './jobs';

/** Tasks at most in one batch. */
const BATCH_MAX = 16;
/**
 * Once the task a worker runs has run this long, the tasks behind it in its batch are handed
 * out again (pool option `batchWindowMs`; 0: no batches): a batch saves a thread wake-up per
 * task (tens of microseconds), which matters for short tasks only.
 */
const BATCH_WINDOW_MS = 2;

export class QueryPool {
  // size, timeoutMs, maxQueued, cancelGraceMs and batchWindowMs: set by `adjust`, from the constructor on
  private size!: number;
  private timeoutMs!: number;
  private readonly init: WorkerInit;
  private readonly output?: WorkerOutput;
  private readonly slots: WorkerSlot[] = [];
  private readonly queue: Pending[] = [];
  private readonly shared: SharedCompilations;
  private maxQueued!: number;
  private readonly heapMb: number | undefined;
  private cancelGraceMs!: number;
  private readonly budget: DocumentBudget<WorkerSlot>;
  private nextId = 1;
  private closed = false;
  /** Workers in a row that died before they loaded (reset by one that loads), and the replacement that waits out its delay. */
  private readonly starts = new StartBackoff();
  private batchWindowMs!: number;
  private readonly costs: TaskCosts;
  /** Set while a hand-out is due at the end of this turn of the event loop. */
  private handOut: NodeJS.Immediate | null = null;
  /** Workers replaced after a timeout or a crash. */
  restarts = 0;
  /** Tasks posted to a worker behind another in the same message so far. */
  batched = 0;

  constructor(options: QueryPoolOptions = {}) {
    this.adjust(options);
    const cacheMax = options.cacheMax ?? 256;
    this.heapMb = options.heapMb;
    this.costs = new TaskCosts(4 * cacheMax, options.shortTaskMs);
    this.budget = new DocumentBudget(options.documentSource?.cacheBytes);
    this.init = {
      cacheMax,
      dbPath: options.dbPath,
      documentSource: options.documentSource,
      ...(options.maxResultBytes !== undefined ? { maxResultBytes: options.maxResultBytes } : {}),
    };
    this.output = options.output;
    this.shared = new SharedCompilations(cacheMax, async (xslt, options, timeoutMs) => {
      const reply = await this.submit({ kind: 'compile', id: 0, xslt, options }, timeoutMs);
      if (!reply.ok && 'error' in reply) return { error: reply.error };
      if (!('sefText' in reply)) throw new Error('unexpected reply to a compile task');
      return { sefText: reply.sefText, baseUri: reply.baseUri };
    });
  }

  /**
   * Takes the options of `PoolAdjustment` (host-protocol.ts) again, each absent one at its
   * default: at the start, and when a kept host process is taken up by a host whose pool differs
   * in these only (query-host.ts). Workers past the new size are stopped (a kept process is
   * idle); compiled stylesheets, parsed documents and the other workers stay.
   */
  adjust(options: PoolAdjustment): void {
    this.size = Math.max(1, options.size ?? os.availableParallelism?.() ?? os.cpus().length);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxQueued = options.maxQueued ?? Math.max(32, 16 * this.size);
    this.cancelGraceMs = options.cancelGraceMs ?? CANCEL_GRACE_MS;
    this.batchWindowMs = options.batchWindowMs ?? BATCH_WINDOW_MS;
    for (const slot of this.slots.slice(this.size)) for (const p of this.retire(slot, false)) p.reject(new Error('query pool resized'));
    if (this.queue.length > 0) this.schedule();
  }

  /** Compiles (once per key across the pool) and runs a query; rejects with a QueryError. */
  async run(job: QueryJob): Promise<QueryOutcome> {
    const options = job.compile ?? {};
    const timeoutMs = job.timeoutMs ?? this.timeoutMs;
    if (job.xpath !== undefined || job.firstOnly) {
      const task = { kind: 'run', id: 0, xpath: job.xpath, xpathShape: job.xpathShape, baseUri: options.baseUri ?? DEFAULT_BASE_URI, ...runTaskParts(job) } as const;
      return toOutcome(await this.submit(task, timeoutMs, job.signal, job.view), false);
    }
    const compileStarted = performance.now();
    const { key, compiled, cached } =
      job.xsltKey !== undefined && job.xslt === ''
        ? this.shared.kept(job.xsltKey)
        : await this.shared.compile(job.xslt, options, job.compileTimeoutMs ?? timeoutMs);
    const compileMs = performance.now() - compileStarted;
    const task = { kind: 'run', id: 0, key, sefText: compiled.sefText, baseUri: compiled.baseUri ?? options.baseUri ?? DEFAULT_BASE_URI, ...runTaskParts(job) } as const;
    return toOutcome(await this.submit(task, timeoutMs, job.signal, job.view), cached, compileMs);
  }

  /**
   * Whether `xslt` (default compile options) is compiled, so that a run of it would not wait for
   * that; when not, it is compiled in a worker with no run waiting for it (shared-compilations.ts).
   */
  compiledOrAhead(xslt: string): boolean {
    return this.shared.compiledOrAhead(xslt, {}, this.timeoutMs);
  }

  /** Whether `xslt` (default compile options) is compiled; starts nothing. */
  compiled(xslt: string): boolean {
    return this.shared.has(xslt, {});
  }

  /** Settles once no compilation started by `compiledOrAhead` is running. */
  compiledAhead(): Promise<void> {
    return this.shared.aheadSettled();
  }

  /** Compilations sent to workers. */
  get compilations(): number {
    return this.shared.compilations;
  }

  /** Stops all workers; queued and running tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.starts.cancel();
    if (this.handOut) clearImmediate(this.handOut);
    this.handOut = null;
    const closed = () => new Error('query pool closed');
    for (const p of this.queue.splice(0)) p.reject(closed());
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        for (const p of [slot.current, ...slot.behind]) p?.pending.reject(closed());
        return slot.stop();
      }),
    );
  }

  /** Workers started so far. */
  get workers(): number {
    return this.slots.length;
  }

  /** Tasks waiting for a worker: queued, or posted behind a running task and not started. */
  get queued(): number {
    let behind = 0;
    for (const slot of this.slots) behind += slot.behind.length;
    return this.queue.length + behind;
  }

  /** Workers that take a task at the next hand-out: the idle ones, and those yet to be started. */
  private get free(): number {
    let free = this.starts.waiting ? 0 : this.size - this.slots.length;
    for (const slot of this.slots) if (slot.idle) free++;
    return free;
  }

  private submit(task: Task, timeoutMs: number, signal?: CancelSignal, view?: ChannelView): Promise<Reply> {
    if (this.closed) return Promise.reject(new Error('query pool closed'));
    if (signal?.aborted) return Promise.reject(cancelledError());
    // Refused at once when every worker is busy and the queue is full (spec: bounded work).
    if (this.queued - this.free >= this.maxQueued) return Promise.reject(busyError(this.retryAfterSeconds()));
    const [pending, promise] = openPending({ ...task, id: this.nextId++ }, timeoutMs, signal, view, (p) => this.cancel(p));
    this.queue.push(pending);
    this.schedule();
    return promise;
  }

  /** Seconds a refused client should wait: about one query's time limit per round of the pool. */
  private retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.timeoutMs / 1000 / Math.max(1, this.size)));
  }

  /**
   * A task that waited half its time limit, in the queue or behind another task: while a worker
   * is free, it was waiting for a busy holder of its database, and from now on it runs on any
   * worker (document-budget.ts); else it is refused as busy (a started task runs on).
   */
  private giveUp(pending: Pending): boolean {
    const i = this.queue.indexOf(pending);
    const holder = i < 0 ? this.slots.find((s) => s.behind.some((p) => p.pending === pending)) : undefined;
    if (i < 0 && !holder) return true;
    // Workers still loading are not busy with queries: a task waiting for them waits on.
    if (this.slots.some((s) => !s.ready)) return false;
    if (holder && !holder.takeBack(pending)) return true;
    if (!pending.anyWorker && this.free > 0) {
      pending.anyWorker = true;
      if (holder) this.queue.unshift(pending);
      this.schedule();
      return false;
    }
    if (i >= 0) this.queue.splice(i, 1);
    pending.reject(busyError(this.retryAfterSeconds()));
    return true;
  }

  /** The client of a task went away: drop it from the queue, take it back, or stop the worker running it. */
  private cancel(pending: Pending): void {
    const i = this.queue.indexOf(pending);
    if (i >= 0) {
      this.queue.splice(i, 1);
      pending.reject(cancelledError());
      return;
    }
    const slot = this.slots.find((s) => s.has(pending));
    if (!slot) return;
    pending.reject(cancelledError());
    if (slot.takeBack(pending)) return;
    setTimeout(() => slot.current?.pending === pending && this.expire(slot), this.cancelGraceMs).unref();
  }

  /** Hands out queued tasks at the end of this turn of the event loop, with all that arrived in it. */
  private schedule(): void {
    if (this.handOut || this.closed) return;
    this.handOut = setImmediate(() => {
      this.handOut = null;
      this.dispatch();
    });
  }

  /**
   * Hands out now what is due at the end of this turn: for a caller that knows no more tasks come
   * in this turn (the query host, once it has read a batch of messages), so that they start
   * without waiting for the rest of the turn.
   */
  handOutNow(): void {
    if (!this.handOut) return;
    clearImmediate(this.handOut);
    this.handOut = null;
    this.dispatch();
  }

  private dispatch(): void {
    const { cacheMax } = this.init;
    while (this.queue.length > 0) {
      const idle = this.slots.filter((s) => s.idle);
      if (idle.length === 0 && this.slots.length < this.size && !this.starts.waiting && newWorkerWanted(this.budget, this.queue)) idle.push(this.spawn());
      const next = choose(this.budget, this.queue, idle);
      if (!next) break;
      const batch = [this.queue.splice(next.index, 1)[0]];
      if (next.slot.ready && this.batchWindowMs > 0 && this.costs.short(batch[0].task)) this.fill(batch, next.slot);
      next.slot.start(batch, cacheMax);
    }
    // A task waits for a worker at most half its own time limit, then hears 503 like a full
    // queue: with the run's own limit, a client hears back within 1.5 time limits.
    for (const pending of this.queue) pending.limitWait(() => this.giveUp(pending));
  }

  /** Adds to `batch` the queued short tasks that may run on `slot` (document-budget.ts), in order. */
  private fill(batch: Pending[], slot: WorkerSlot): void {
    for (let i = 0; i < this.queue.length && batch.length < BATCH_MAX; ) {
      const { task, anyWorker } = this.queue[i];
      if (!this.costs.short(task) || placement(this.budget, task, [slot], anyWorker) !== slot) {
        i++;
        continue;
      }
      this.budget.expect(slot, databaseOf(task));
      batch.push(...this.queue.splice(i, 1));
      this.batched++;
    }
  }

  /** The task a worker runs has run the batch window: the tasks behind it are handed out again. */
  private stalled(slot: WorkerSlot): void {
    const taken = slot.takeBackAll();
    if (taken.length === 0) return;
    this.queue.unshift(...taken);
    this.schedule();
  }

  private spawn(): WorkerSlot {
    const start = { output: this.output, resourceLimits: workerLimits(this.heapMb) };
    const slot = new WorkerSlot(this.init, start, this.batchWindowMs, (s, error) => this.expire(s, error), (s) => this.stalled(s));
    slot.worker.on('message', (reply: Reply | ReadyMessage | LimitMessage) => {
      if ('limit' in reply) {
        if (slot.current?.pending.task.id !== reply.id) return;
        this.stalled(slot); // its limit timer replaces the batch window's
        slot.limitTimer(reply.limit);
        return;
      }
      if ('ready' in reply) {
        slot.ready = true;
        this.starts.succeeded();
        slot.startTimer(); // the task waiting for it starts its time limit now
        this.schedule();
        return;
      }
      const current = slot.current?.pending;
      if (reply.id !== current?.task.id) return; // a late reply of a stopped worker
      for (const [holder, db] of this.budget.report(slot, reply.held, databaseOf(current.task))) holder.worker.postMessage({ evict: [db] } satisfies EvictMessage);
      // the report drops what the worker was expected to load and did not: the tasks behind stay expected
      for (const p of slot.behind) this.budget.expect(slot, databaseOf(p.pending.task));
      if ('ms' in reply) this.costs.record(current.task, reply.ms);
      // The worker evicted the stylesheet: send the same task again, with it.
      if (!reply.ok && 'missing' in reply) slot.resend(this.init.cacheMax);
      else this.settle(slot, reply);
    });
    slot.worker.on('error', (e) => this.replace(slot, isOutOfMemory(e) ? outOfMemoryError(this.heapMb) : e));
    slot.worker.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, new Error(`query worker exited with code ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }

  private settle(slot: WorkerSlot, reply: Reply): void {
    slot.finish()?.resolve(reply);
    if (slot.idle) this.schedule();
  }

  /** A worker over its time limit: stop it, start another, fail its task. */
  private expire(slot: WorkerSlot, error?: QueryError): void {
    this.restarts++;
    for (const p of this.retire(slot)) p.reject(error ?? timeoutError(p.timeoutMs));
    this.schedule();
  }

  /** A worker that crashed or exited: fail its task, start another when needed. */
  private replace(slot: WorkerSlot, error: Error): void {
    if (!this.slots.includes(slot)) return;
    const failedAtStart = !slot.ready;
    this.restarts++;
    for (const p of this.retire(slot, !failedAtStart)) p.reject(error);
    if (failedAtStart) this.startFailed(error);
    else this.schedule();
  }

  /**
   * A worker died before it loaded: try again after a delay that doubles with each failure in a
   * row. After a few, the tasks still waiting fail with the error rather than wait for ever.
   */
  private startFailed(error: Error): void {
    if (this.starts.failed()) for (const p of this.queue.splice(0)) p.reject(error);
    if (this.closed) return;
    this.starts.retryLater(() => {
      if (this.closed) return;
      if (this.slots.length < this.size) this.spawn();
      this.schedule();
    });
  }

  /**
   * Stops a slot's worker; `respawn`: its replacement warms up while the caller hears back. The
   * tasks posted behind the current one go back to the head of the queue; answers the current
   * one and those the worker had started (they fail with it).
   */
  private retire(slot: WorkerSlot, respawn = true): Pending[] {
    const waiting = slot.takeBackAll();
    const lost = [slot.current, ...slot.behind].flatMap((p) => (p ? [p.pending] : []));
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    this.budget.forget(slot);
    void slot.stop();
    this.queue.unshift(...waiting);
    if (respawn && !this.closed && !this.starts.waiting) this.spawn();
    return lost;
  }

  /** Starts all workers now rather than on demand (they load saxon-js, ~0.2 s each). */
  warm(): void {
    while (!this.closed && !this.starts.waiting && this.slots.length < this.size) this.spawn();
  }
}
