/**
 * A pool of worker threads that compiles and runs queries off the HTTP thread.
 *
 * - Size: `size` workers (default: the number of cores), started on demand; a task waits in a
 *   FIFO queue while all are busy. Idle workers are unref'd, so an idle pool never keeps the
 *   process alive.
 * - Time limit: each task has `timeoutMs` (default 30 s) from the moment a worker takes it (a
 *   newly started worker takes it once it has loaded, so its start-up is not charged). A
 *   synchronous transform cannot be interrupted, so on expiry the worker is terminated (its
 *   memory goes with it), a fresh one takes its place, and the caller gets
 *   `[BASX0003] Timeout exceeded.` (query-error.ts).
 * - Cancellation: a task may carry a cancel signal (the client went away; jobs.ts CancelSignal).
 *   A queued task is dropped; a running one gets `cancelGraceMs` to end (jobs.ts), then its
 *   worker is terminated and replaced, like a timeout: no CPU on an answer nobody will read.
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
import type { Worker } from 'node:worker_threads';
import type { ReadView } from '../../store/types';
import { DEFAULT_BASE_URI } from '../constants';
import { busyError, cancelledError, evalTimeoutError, outOfMemoryError, timeoutError, type QueryError } from '../query-error';
import { startWorker, workerLimits, type WorkerOutput } from './launch';
import { openStoreChannel, type StoreChannelHost } from './store-channel';
import { SharedCompilations } from './shared-compilations';
import { DocumentBudget, choose, databaseOf } from './document-budget';
import { CANCEL_GRACE_MS, runTaskParts, toOutcome, type CancelSignal, type QueryJob, type QueryOutcome, type QueryPoolOptions } from './jobs';
import type { EvictMessage, LimitMessage, ReadyMessage, Reply, Task, WorkerInit } from './protocol';

export type { ContextSpec, DocumentSourceSpec, ItemPage } from './protocol';
export type { CancelSignal, QueryJob, QueryOutcome, QueryPoolOptions } from './jobs';

interface Pending {
  readonly task: Task;
  readonly timeoutMs: number;
  readonly signal?: CancelSignal;
  /** The view answering the worker's store requests while it runs this task. */
  readonly view?: ReadView;
  resolve(reply: Reply): void;
  reject(error: Error): void;
  /** Stops listening to `signal`; called once the task is settled. */
  detach(): void;
}

interface Slot {
  worker: Worker;
  /** The worker has loaded (its first message): time limits run from then on. */
  ready: boolean;
  current: Pending | null;
  timer: NodeJS.Timeout | null;
  /** When the current task's own time limit passes (Date.now() scale). */
  deadline: number;
  /** Compile keys whose stylesheet this worker has been sent (it may have evicted some since). */
  readonly primed: Set<string>;
  /** Where the worker asks for stored data (answered with its task's view). */
  readonly store: StoreChannelHost;
}

/** What a worker may take to load (saxon-js and the engine's modules), beyond a task's limit. */
const STARTUP_MS = 60_000;

/** Delay before replacing a worker that failed at start-up: doubles per failure in a row. */
const BACKOFF_FIRST_MS = 100;
const BACKOFF_MAX_MS = 30_000;
/** Start-up failures in a row after which waiting tasks fail instead of waiting for the next try. */
const BACKOFF_GIVE_UP = 3;

export class QueryPool {
  private readonly size: number;
  private readonly timeoutMs: number;
  private readonly init: WorkerInit;
  private readonly output?: WorkerOutput;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly shared: SharedCompilations;
  private readonly maxQueued: number;
  private readonly heapMb: number | undefined;
  private readonly cancelGraceMs: number;
  private readonly budget: DocumentBudget<Slot>;
  private nextId = 1;
  private closed = false;
  /** Workers in a row that died before they loaded; reset by one that loads. */
  private startFailures = 0;
  private lastStartError: Error | undefined;
  /** Set while a replacement waits out its backoff delay: nothing is spawned meanwhile. */
  private backoff: NodeJS.Timeout | null = null;
  /** Workers replaced after a timeout or a crash. */
  restarts = 0;

  constructor(options: QueryPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? os.availableParallelism?.() ?? os.cpus().length);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    const cacheMax = options.cacheMax ?? 256;
    this.maxQueued = options.maxQueued ?? Math.max(32, 16 * this.size);
    this.heapMb = options.heapMb;
    this.cancelGraceMs = options.cancelGraceMs ?? CANCEL_GRACE_MS;
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

  /** Compiles (once per key across the pool) and runs a query; rejects with a QueryError. */
  async run(job: QueryJob): Promise<QueryOutcome> {
    const options = job.compile ?? {};
    const timeoutMs = job.timeoutMs ?? this.timeoutMs;
    if (job.xpath !== undefined) {
      const task = { kind: 'run', id: 0, xpath: job.xpath, baseUri: options.baseUri ?? DEFAULT_BASE_URI, ...runTaskParts(job) } as const;
      return toOutcome(await this.submit(task, timeoutMs, job.signal, job.view), false);
    }
    const { key, compiled, cached } = await this.shared.compile(job.xslt, options, job.compileTimeoutMs ?? timeoutMs);
    const task = { kind: 'run', id: 0, key, sefText: compiled.sefText, baseUri: compiled.baseUri ?? options.baseUri ?? DEFAULT_BASE_URI, ...runTaskParts(job) } as const;
    return toOutcome(await this.submit(task, timeoutMs, job.signal, job.view), cached);
  }

  /** Compilations sent to workers. */
  get compilations(): number {
    return this.shared.compilations;
  }

  /** Stops all workers; queued and running tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.backoff) clearTimeout(this.backoff);
    this.backoff = null;
    for (const p of this.queue.splice(0)) p.reject(new Error('query pool closed'));
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.current?.reject(new Error('query pool closed'));
        slot.store.close();
        return slot.worker.terminate();
      }),
    );
  }

  /** Workers started so far. */
  get workers(): number {
    return this.slots.length;
  }

  /** Tasks waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  private submit(task: Task, timeoutMs: number, signal?: CancelSignal, view?: ReadView): Promise<Reply> {
    if (this.closed) return Promise.reject(new Error('query pool closed'));
    if (signal?.aborted) return Promise.reject(cancelledError());
    // Refused at once when every worker is busy and the queue is full (spec: bounded work).
    if (this.queue.length >= this.maxQueued && !this.slots.some((s) => s.current === null)) return Promise.reject(busyError(this.retryAfterSeconds()));
    return new Promise<Reply>((resolve, reject) => {
      const pending: Pending = {
        task: { ...task, id: this.nextId++ },
        timeoutMs,
        signal,
        view,
        resolve: (reply) => {
          pending.detach();
          resolve(reply);
        },
        reject: (error) => {
          pending.detach();
          reject(error);
        },
        detach: () => {
          clearTimeout(waitLimit);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      const onAbort = () => this.cancel(pending);
      signal?.addEventListener('abort', onAbort, { once: true });
      // A task waits for a worker at most half its own time limit, then hears 503 like a full
      // queue: with the run's own limit, a client hears back within 1.5 time limits. A task a
      // worker takes at once needs no such timer.
      let waitLimit: NodeJS.Timeout | undefined;
      const limitWait = () => {
        waitLimit = setTimeout(() => this.giveUp(pending) || limitWait(), timeoutMs / 2);
        waitLimit.unref();
      };
      this.queue.push(pending);
      this.dispatch();
      if (this.queue.includes(pending)) limitWait();
    });
  }

  /** Seconds a refused client should wait: about one query's time limit per round of the pool. */
  private retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.timeoutMs / 1000 / Math.max(1, this.size)));
  }

  /** A task that waited half its time limit in the queue: refused as busy (a started task runs on). */
  private giveUp(pending: Pending): boolean {
    const i = this.queue.indexOf(pending);
    if (i < 0) return true;
    // Workers still loading are not busy with queries: a task waiting for them waits on.
    if (this.slots.some((s) => !s.ready)) return false;
    this.queue.splice(i, 1);
    pending.reject(busyError(this.retryAfterSeconds()));
    return true;
  }

  /** The client of a task went away: drop it from the queue, or stop the worker running it. */
  private cancel(pending: Pending): void {
    const i = this.queue.indexOf(pending);
    if (i >= 0) {
      this.queue.splice(i, 1);
      pending.reject(cancelledError());
      return;
    }
    const slot = this.slots.find((s) => s.current === pending);
    if (!slot) return;
    pending.reject(cancelledError());
    setTimeout(() => slot.current === pending && this.expire(slot), this.cancelGraceMs).unref();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let idle = this.slots.filter((s) => s.current === null);
      if (idle.length === 0 && this.slots.length < this.size && this.backoff === null) idle = [this.spawn()];
      const next = choose(this.budget, this.queue, idle);
      if (!next) return;
      const { slot } = next;
      slot.current = this.queue.splice(next.index, 1)[0];
      slot.worker.ref();
      this.startTimer(slot);
      this.post(slot, slot.current.task);
    }
  }

  /** Sends a task; a run task carries its stylesheet only to a worker that has not seen it. */
  private post(slot: Slot, task: Task, withStylesheet = false): void {
    if (task.kind !== 'run' || task.key === undefined) {
      slot.worker.postMessage(task);
      return;
    }
    const send = withStylesheet || !slot.primed.has(task.key);
    if (send) {
      if (slot.primed.size >= this.init.cacheMax) slot.primed.clear();
      slot.primed.add(task.key);
    }
    slot.worker.postMessage(send ? task : { ...task, sefText: undefined });
  }

  private spawn(): Slot {
    const limits = workerLimits(this.heapMb);
    const store = openStoreChannel(() => slot.current?.view);
    const init = { ...this.init, storeChannel: store.channel };
    const slot: Slot = {
      worker: startWorker(init, { output: this.output, resourceLimits: limits, transferList: [store.channel.port] }),
      ready: false,
      current: null,
      timer: null,
      deadline: 0,
      primed: new Set(),
      store,
    };
    slot.worker.on('message', (reply: Reply | ReadyMessage | LimitMessage) => {
      if ('limit' in reply) {
        if (slot.current?.task.id === reply.id) this.limitTimer(slot, reply.limit);
        return;
      }
      if ('ready' in reply) {
        slot.ready = true;
        this.startFailures = 0;
        this.startTimer(slot); // the task waiting for it starts its time limit now
        return;
      }
      for (const [holder, db] of this.budget.report(slot, reply.held, databaseOf(slot.current?.task))) holder.worker.postMessage({ evict: [db] } satisfies EvictMessage);
      // The worker evicted the stylesheet: send the same task again, with it.
      if (!reply.ok && 'missing' in reply && slot.current) this.post(slot, slot.current.task, true);
      else this.settle(slot, (p) => p.resolve(reply));
    });
    slot.worker.on('error', (e) => this.replace(slot, isOutOfMemory(e) ? outOfMemoryError(this.heapMb) : e));
    slot.worker.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, new Error(`query worker exited with code ${code}`));
    });
    slot.worker.unref();
    this.slots.push(slot);
    return slot;
  }

  /**
   * (Re)starts the time limit of the slot's task, from now. A task given to a worker that is
   * still loading gets STARTUP_MS more, and its limit starts over when the worker is ready.
   */
  private startTimer(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const pending = slot.current;
    if (!pending) return;
    const ms = pending.timeoutMs + (slot.ready ? 0 : STARTUP_MS);
    slot.deadline = Date.now() + ms;
    slot.timer = setTimeout(() => this.expire(slot), ms);
  }

  /**
   * The running task lowered its time limit to `ms` from now (xquery:eval's `timeout`), or went
   * back to its own (null). A lower limit that passes stops the worker with `[xquery:timeout]`.
   */
  private limitTimer(slot: Slot, ms: number | null): void {
    if (slot.timer) clearTimeout(slot.timer);
    const own = Math.max(0, slot.deadline - Date.now());
    const lowered = ms !== null && ms < own;
    slot.timer = setTimeout(() => this.expire(slot, lowered ? evalTimeoutError() : undefined), lowered ? ms : own);
  }

  private settle(slot: Slot, fn: (p: Pending) => void): void {
    const pending = slot.current;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.current = null;
    slot.worker.unref();
    if (pending) fn(pending);
    this.dispatch();
  }

  /** A worker over its time limit: stop it, start another, fail its task. */
  private expire(slot: Slot, error?: QueryError): void {
    const pending = slot.current;
    this.retire(slot);
    pending?.reject(error ?? timeoutError(pending.timeoutMs));
    this.dispatch();
  }

  /** A worker that crashed or exited: fail its task, start another when needed. */
  private replace(slot: Slot, error: Error): void {
    const pending = slot.current;
    if (!this.slots.includes(slot)) return;
    const failedAtStart = !slot.ready;
    this.retire(slot, !failedAtStart);
    pending?.reject(error);
    if (failedAtStart) this.startFailed(error);
    else this.dispatch();
  }

  /**
   * A worker died before it loaded: try again after a delay that doubles with each failure in a
   * row. After a few, the tasks still waiting fail with the error rather than wait for ever.
   */
  private startFailed(error: Error): void {
    this.startFailures++;
    this.lastStartError = error;
    if (this.startFailures >= BACKOFF_GIVE_UP) for (const p of this.queue.splice(0)) p.reject(this.lastStartError);
    if (this.closed || this.backoff) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.startFailures - 1));
    this.backoff = setTimeout(() => {
      this.backoff = null;
      if (this.closed) return;
      if (this.slots.length < this.size) this.spawn();
      this.dispatch();
    }, delay);
    this.backoff.unref();
  }

  /** Stops a slot's worker; `respawn`: its replacement warms up while the caller hears back. */
  private retire(slot: Slot, respawn = true): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.current = null;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    this.restarts++;
    this.budget.forget(slot);
    slot.store.close();
    slot.worker.removeAllListeners('exit');
    slot.worker.removeAllListeners('error');
    slot.worker.on('error', () => undefined); // a late error of a stopped worker is of no interest
    void slot.worker.terminate();
    if (respawn && !this.closed && this.backoff === null) this.spawn();
  }

  /** Starts all workers now rather than on demand (they load saxon-js, ~0.2 s each). */
  warm(): void {
    while (!this.closed && this.backoff === null && this.slots.length < this.size) this.spawn();
  }
}

/** Node's error for a worker that reached its `resourceLimits`. */
const isOutOfMemory = (e: Error) => (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
