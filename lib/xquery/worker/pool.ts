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
 *   `[BASX0003] Timeout exceeded.` (runtime/errors.ts).
 * - Compilation is shared across the pool: the main thread keeps an LRU of compiled SEF text by
 *   compile key; `fetch` makes concurrent requests for one key wait for a single compilation
 *   (done in a worker, under the same time limit). Compile errors are cached like successes.
 *   Each worker also keeps its own primed copies, so a hot query is parsed once per worker.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { compileKey, type CompileOptions, DEFAULT_BASE_URI } from '../compile';
import { QueryError, timeoutError, type QueryErrorData } from '../runtime/errors';
import type { StringBinding } from '../runtime/params';
import type { StoreChange } from '../update/changes';
import { startWorker, type WorkerOutput } from './launch';
import type { RequestedRange } from '../../ranges';
import type { ContextSpec, DatabaseContext, DocumentSourceSpec, ItemPage, ReadyMessage, Reply, Task, WorkerInit } from './protocol';

export type { ContextSpec, DocumentSourceSpec, ItemPage } from './protocol';

export interface QueryPoolOptions {
  /** Number of worker threads; default: the number of cores. */
  readonly size?: number;
  /** Default time limit per query in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Compiled stylesheets kept by the pool and by each worker (default 256). */
  readonly cacheMax?: number;
  /** Root folder of the databases, handed to each worker's DocumentSource. */
  readonly dbPath?: string;
  /** Module that builds each worker's DocumentSource; default: no documents (FODC0002). */
  readonly documentSource?: DocumentSourceSpec;
  /** Where the workers' stdout and stderr lines go (fn:trace); default: the process's own. */
  readonly output?: WorkerOutput;
}

export interface QueryJob {
  /** The XSLT 3.0 text of the translated query. */
  readonly xslt: string;
  /**
   * The query as one XPath expression (translate/index.ts): evaluated without compiling `xslt`,
   * which is then not used. Not for updating queries.
   */
  readonly xpath?: string;
  readonly compile?: CompileOptions;
  readonly initialTemplate?: string;
  readonly params?: Readonly<Record<string, StringBinding>>;
  readonly context?: ContextSpec;
  /** Databases the query may read (the user's permissions); absent: all of them. */
  readonly readable?: readonly string[];
  /** The database of the URL, when `params` name it rather than `context` (the default collection). */
  readonly database?: DatabaseContext;
  /** An updating query: the worker applies its pending updates and answers store changes. */
  readonly update?: boolean;
  /** This run may read the host's files (see RunTask.fileAccess); default false. */
  readonly fileAccess?: boolean;
  /** Serialization parameters (spec §2.3) by name. */
  readonly serialization?: Readonly<Record<string, string>>;
  /** Time limit of this query (compilation and run, each), overriding the pool's. */
  readonly timeoutMs?: number;
  /** Paging: only these items are serialized (see ItemPage). */
  readonly items?: RequestedRange;
}

export interface QueryOutcome {
  /** The serialized result. */
  readonly body: string;
  /** Milliseconds spent running (and serializing) in the worker. */
  readonly runMs: number;
  /** Whether this job's stylesheet came from the cache. */
  readonly cached: boolean;
  /** Store changes of an updating query (update/changes.ts), to apply in one write. */
  readonly changes?: readonly StoreChange[];
  /** A paged job's page. */
  readonly page?: ItemPage;
}

interface Pending {
  readonly task: Task;
  readonly timeoutMs: number;
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  /** The worker has loaded (its first message): time limits run from then on. */
  ready: boolean;
  current: Pending | null;
  timer: NodeJS.Timeout | null;
  /** Compile keys whose stylesheet this worker has been sent (it may have evicted some since). */
  readonly primed: Set<string>;
}

/** What a worker may take to load (saxon-js and the engine's modules), beyond a task's limit. */
const STARTUP_MS = 60_000;

type Compiled = { readonly sefText: string; readonly baseUri: string } | { readonly error: QueryErrorData };

export class QueryPool {
  private readonly size: number;
  private readonly timeoutMs: number;
  private readonly init: WorkerInit;
  private readonly output?: WorkerOutput;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly compiled: LRUCache<string, Compiled, { xslt: string; options: CompileOptions; timeoutMs: number }>;
  private nextId = 1;
  private closed = false;
  /** Workers replaced after a timeout or a crash. */
  restarts = 0;
  /** Compilations sent to workers. */
  compilations = 0;

  constructor(options: QueryPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? os.availableParallelism?.() ?? os.cpus().length);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    const cacheMax = options.cacheMax ?? 256;
    this.init = { cacheMax, dbPath: options.dbPath, documentSource: options.documentSource };
    this.output = options.output;
    this.compiled = new LRUCache({
      max: cacheMax,
      fetchMethod: async (_key, _stale, { context }) => {
        this.compilations++;
        const reply = await this.submit({ kind: 'compile', id: 0, xslt: context.xslt, options: context.options }, context.timeoutMs);
        if (!reply.ok && 'error' in reply) return { error: reply.error };
        if (!('sefText' in reply)) throw new Error('unexpected reply to a compile task');
        return { sefText: reply.sefText, baseUri: reply.baseUri };
      },
    });
  }

  /** Compiles (once per key across the pool) and runs a query; rejects with a QueryError. */
  async run(job: QueryJob): Promise<QueryOutcome> {
    const options = job.compile ?? {};
    const timeoutMs = job.timeoutMs ?? this.timeoutMs;
    if (job.xpath !== undefined) {
      const task = { kind: 'run', id: 0, xpath: job.xpath, baseUri: options.baseUri ?? DEFAULT_BASE_URI, ...this.runParts(job) } as const;
      return this.outcome(await this.submit(task, timeoutMs), false);
    }
    const key = compileKey(job.xslt, options);
    const cached = this.compiled.has(key);
    const compiled = await this.compiled.fetch(key, { context: { xslt: job.xslt, options, timeoutMs } });
    if (!compiled) throw new Error('compilation produced nothing');
    if ('error' in compiled) throw new QueryError(compiled.error);
    const task = { kind: 'run', id: 0, key, sefText: compiled.sefText, baseUri: compiled.baseUri ?? options.baseUri ?? DEFAULT_BASE_URI, ...this.runParts(job) } as const;
    return this.outcome(await this.submit(task, timeoutMs), cached);
  }

  /** What a run task carries besides its query. */
  private runParts(job: QueryJob) {
    return {
      initialTemplate: job.initialTemplate,
      params: job.params,
      context: job.context,
      serialization: job.serialization,
      readable: job.readable,
      ...(job.database ? { database: job.database } : {}),
      ...(job.update ? { update: true } : {}),
      ...(job.items ? { items: job.items } : {}),
      ...(job.fileAccess ? { fileAccess: true } : {}),
    };
  }

  private outcome(reply: Reply, cached: boolean): QueryOutcome {
    if (!reply.ok) throw new QueryError('error' in reply ? reply.error : { code: 'SXJS0004', message: 'The query worker lost its stylesheet.', status: 500, phase: 'evaluate' });
    if (!('body' in reply)) throw new Error('unexpected reply to a run task');
    return { body: reply.body, runMs: reply.ms, cached, ...(reply.changes ? { changes: reply.changes } : {}), ...(reply.page ? { page: reply.page } : {}) };
  }

  /** Stops all workers; queued and running tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('query pool closed'));
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.current?.reject(new Error('query pool closed'));
        return slot.worker.terminate();
      }),
    );
  }

  /** Workers started so far. */
  get workers(): number {
    return this.slots.length;
  }

  private submit(task: Task, timeoutMs: number): Promise<Reply> {
    if (this.closed) return Promise.reject(new Error('query pool closed'));
    return new Promise<Reply>((resolve, reject) => {
      this.queue.push({ task: { ...task, id: this.nextId++ }, timeoutMs, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.current === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const pending = this.queue.shift()!;
      slot.current = pending;
      slot.worker.ref();
      this.startTimer(slot);
      this.post(slot, pending.task);
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
    const slot: Slot = { worker: startWorker(this.init, this.output), ready: false, current: null, timer: null, primed: new Set() };
    slot.worker.on('message', (reply: Reply | ReadyMessage) => {
      if ('ready' in reply) {
        slot.ready = true;
        this.startTimer(slot); // the task waiting for it starts its time limit now
        return;
      }
      // The worker evicted the stylesheet: send the same task again, with it.
      if (!reply.ok && 'missing' in reply && slot.current) this.post(slot, slot.current.task, true);
      else this.settle(slot, (p) => p.resolve(reply));
    });
    slot.worker.on('error', (e) => this.replace(slot, e));
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
    if (pending) slot.timer = setTimeout(() => this.expire(slot), pending.timeoutMs + (slot.ready ? 0 : STARTUP_MS));
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
  private expire(slot: Slot): void {
    const pending = slot.current;
    this.retire(slot);
    pending?.reject(timeoutError(pending.timeoutMs));
    this.dispatch();
  }

  /** A worker that crashed or exited: fail its task, start another when needed. */
  private replace(slot: Slot, error: Error): void {
    const pending = slot.current;
    if (!this.slots.includes(slot)) return;
    this.retire(slot);
    pending?.reject(error);
    this.dispatch();
  }

  private retire(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.current = null;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    this.restarts++;
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    if (!this.closed) this.spawn(); // the replacement warms up while the caller hears back
  }

  /** Starts all workers now rather than on demand (they load saxon-js, ~0.2 s each). */
  warm(): void {
    while (!this.closed && this.slots.length < this.size) this.spawn();
  }
}
