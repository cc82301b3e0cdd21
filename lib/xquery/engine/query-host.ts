/**
 * Queries evaluated in a child process of the server, the query host: the server's proxy of the
 * query pool that runs there (host-process.ts), with the pool's own interface (pool.ts).
 *
 * A worker thread's heap limit does not stop every allocation: one huge allocation in a thread
 * aborts the whole process it lives in (V8's "Reached heap limit"), and a native crash takes
 * every thread with it. In the host, such an end costs the host only: the jobs it was running
 * fail (`[XPDY0130] Out of main memory` after a heap abort, an internal error otherwise), a new
 * host is started at once, and the server answers the next query. Inside the host the pool's
 * worker threads still share one process (and may share memory).
 *
 * - The host starts with the first job (or `warm`), under Node's permission model
 *   (host-flags.ts) and with its own heap limit, and with none of the server's environment
 *   (which may hold secrets) but the time zone: its process, its messages and its output lines
 *   are host-connection.ts's.
 * - A job's view stays here: the host asks for each read its workers need (versions, catalog,
 *   document bytes), and it is answered through that view, under the request's locks, for the
 *   job's own databases only. The host reads no stored file itself (whatever reader the store
 *   offers), so its permissions need not include the data folder, which holds `users.json` and
 *   the admin password. The bytes cross one more process boundary: a first read of a 10 MB
 *   document took about 0.1 s more than reading the file in the worker (of 0.3-0.4 s); a
 *   repeated query reads nothing (the workers keep parsed documents by version).
 * - A job's cancel signal becomes a message; the workers' output lines come back to `output`.
 * - A host that ends before it is ready is started again after a delay that doubles with each
 *   failure in a row (up to 30 s); after a few, waiting jobs fail with the error.
 * - A stylesheet's text crosses until the host holds its compilation (a job of it was answered,
 *   or it was compiled ahead); later jobs name it by compile key only. A host that has dropped
 *   it since (its cache is bounded) answers `needsText` and gets the job again with the text; a
 *   host started anew holds nothing. The runtime library (28 KB) thus crosses once, not with
 *   every query that runs on it.
 * - Messages in both directions go once per turn of the event loop (message-batch.ts), but for
 *   a job sent while no other is in flight, and the answer of the host's last running job: those
 *   go at once, as a batch would hold them for nothing. An idle host does not keep the server's
 *   event loop alive.
 * - Several engines of the process may share one host (shared-hosts.ts): each job names its
 *   owner, and an owner that goes away ends its own jobs only (`release`).
 * - Test harnesses may keep a closed host's process (`kept`, a KeptHosts): a process that is
 *   ready and idle when its host closes is handed over rather than killed, and a later host with
 *   equal settings (the `settings` key) takes it up, ready, its workers warm, and adjusts its
 *   pool's size, time limit and queue bound to its own (pool.ts `adjust`). A process's pool and
 *   flags are its settings alone, so the two cannot be told apart (the engines' versions are told
 *   apart by shared-hosts.ts).
 */
import type { Readable } from 'node:stream';
import { HeldStylesheets } from './held-stylesheets';
import { connectHost, hostReady, sendNow, type HostConnection } from './host-connection';
import { cancelledError, outOfMemoryError } from '../query-error';
import { hostFlags } from './host-flags';
import { adjustable, errorData, fromData, type FromHost, type HostPoolOptions, type HostStatus, type ToHost, type ViewRead } from '../protocol/host-protocol';
import type { WorkerOutput } from '../host/launch';
import type { QueryJob, QueryOutcome, QueryPoolOptions } from '../host/jobs';
import { StartBackoff } from '../start-backoff';
import type { ChannelView } from '../protocol/store-channel';
import type { KeptHosts } from './kept-hosts';
import { viewRead } from './view-reads';
import { partsView, sendBytesInParts } from '../protocol/bytes-in-parts';

export interface QueryHostOptions extends QueryPoolOptions {
  /** Queries may read the host's files (the router option `allowFileAccess`): the host may read every file. */
  readonly fileAccess?: boolean;
  /** Where the host's process goes when the host closes while it is ready and idle (see the file comment). */
  readonly kept?: KeptHosts;
}

interface Job {
  /** The run as sent: its stylesheet named by compile key only when the host holds it. */
  readonly message: ToHost;
  /** The run with its stylesheet's text, when `message` names it by key only: sent if the host asks (`needsText`). */
  readonly withText?: ToHost;
  /** The compile key of the job's stylesheet, if it has one: the host holds it once the job is done. */
  readonly key?: string;
  /** Whose job it is (shared-hosts.ts: the engines sharing this host); closing an owner ends its jobs only. */
  readonly owner?: object;
  readonly view?: ChannelView;
  /** The databases the job may read (absent: all). */
  readonly readable?: readonly string[];
  resolve(outcome: QueryOutcome): void;
  reject(error: Error): void;
}

export class QueryHost {
  private readonly pool: HostPoolOptions;
  private readonly output: WorkerOutput;
  private readonly flags: string[];
  private readonly kept: KeptHosts | undefined;
  /**
   * The settings as a KeptHosts key: the flags and the pool options a running pool cannot take
   * again. A kept process with an equal key is taken up, its pool adjusted to the rest.
   */
  private readonly settings: string;
  private host: HostConnection | null = null;
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;
  /** `compiledAhead` calls waiting for the host's answer. */
  private readonly settling = new Map<number, () => void>();
  /** The stylesheets the host said it compiled (it may have dropped some since). */
  private readonly held: HeldStylesheets;
  /** The compile key of the compilation ahead that the host runs (one at a time, as the pool does). */
  private ahead: string | null = null;
  private status: HostStatus = { compilations: 0, workers: 0, queued: 0 };
  private closed = false;
  /** Hosts in a row that ended before they were ready (reset by one that is), and the restart that waits out its delay. */
  private readonly starts = new StartBackoff();
  /** Hosts started after one ended. */
  restarts = 0;

  constructor(options: QueryHostOptions = {}) {
    ({ pool: this.pool, flags: this.flags } = hostSettings(options));
    this.kept = options.kept;
    this.settings = JSON.stringify([this.flags, adjustable(this.pool).fixed]);
    this.output = options.output ?? ((line, stream) => process[stream].write(`${line}\n`));
    this.held = new HeldStylesheets(options.cacheMax ?? 256);
  }

  /**
   * Runs a job in the host (pool.ts `run`); rejects with a QueryError or the host's end. `owner`:
   * whose job it is (see `release`).
   */
  run(job: QueryJob, owner?: object): Promise<QueryOutcome> {
    if (this.closed) return Promise.reject(new Error('query pool closed'));
    const { view, signal, ...rest } = job;
    if (signal?.aborted) return Promise.reject(cancelledError());
    const id = this.nextId++;
    return new Promise<QueryOutcome>((resolve, reject) => {
      const cancel = () => this.host?.out.push({ cancel: id });
      const detach = () => signal?.removeEventListener('abort', cancel);
      const hasView = view !== undefined;
      const message: ToHost = { run: id, job: { ...rest, hasView } };
      // the text of a stylesheet the host holds stays here (the runtime library is 28 KB, and the
      // host would hash it again to find its compilation)
      const key = rest.xpath === undefined && rest.xslt !== '' ? this.held.keyOf(rest.xslt, rest.compile) : undefined;
      const byKey: ToHost | undefined = key !== undefined && this.held.has(key) ? { run: id, job: { ...rest, xslt: '', xsltKey: key, hasView } } : undefined;
      this.jobs.set(id, {
        message: byKey ?? message,
        ...(byKey ? { withText: message } : {}),
        key,
        owner,
        view,
        readable: job.readable,
        resolve: (outcome) => {
          detach();
          resolve(outcome);
        },
        reject: (error) => {
          detach();
          reject(error);
        },
      });
      signal?.addEventListener('abort', cancel, { once: true });
      this.send(byKey ?? message);
      // The only job in flight goes at once: there is no burst to share its write with, and
      // waiting for the end of this turn of the event loop only delays it.
      if (this.jobs.size === 1) this.host?.out.flush();
    });
  }

  /** Whether `xslt` is compiled; when not, the host compiles it ahead (pool.ts `compiledOrAhead`). */
  compiledOrAhead(xslt: string): boolean {
    const key = this.held.keyOf(xslt);
    if (this.held.has(key)) return true;
    if (this.ahead === null && !this.closed && this.send({ ahead: [key, xslt] })) this.ahead = key;
    return false;
  }

  /** Settles once no compilation ahead runs in the host. */
  compiledAhead(): Promise<void> {
    if (!this.host || this.closed) return Promise.resolve();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.settling.set(id, resolve);
      this.send({ settle: id });
    });
  }

  /** Compilations the host's pool sent to its workers (as it last said). */
  get compilations(): number {
    return this.status.compilations;
  }

  /** Worker threads the host has started (as it last said). */
  get workers(): number {
    return this.status.workers;
  }

  /** Jobs waiting for a worker: in the host (as it last said), or for the host to start. */
  get queued(): number {
    return this.host?.ready ? this.status.queued : this.jobs.size;
  }

  /** Starts the host and all its workers now rather than on demand. */
  warm(): void {
    if (!this.closed) this.send({ warm: true });
  }

  /**
   * The jobs of `owner` fail (`query pool closed`) and are cancelled in the host; the host and
   * the jobs of others go on (an engine sharing this host closed: shared-hosts.ts).
   */
  release(owner: object): void {
    const error = new Error('query pool closed');
    for (const [id, job] of [...this.jobs]) {
      if (job.owner !== owner) continue;
      this.jobs.delete(id);
      this.host?.out.push({ cancel: id });
      job.reject(error);
    }
    this.keepAlive();
  }

  /** Stops the host; waiting and running jobs fail. */
  async close(): Promise<void> {
    const idle = this.jobs.size === 0 && this.settling.size === 0 && this.ahead === null;
    this.closed = true;
    this.starts.cancel();
    this.failAll(new Error('query pool closed'));
    const host = this.host;
    this.host = null;
    if (!host) return;
    if (this.kept && idle && host.ready && !host.outOfMemory && host.process.connected) {
      host.out.flush();
      host.detach();
      this.kept.keep(this.settings, host.process);
      return;
    }
    // Whoever awaits the close is kept waiting by the event loop: the process and its streams,
    // unref'd while the host was idle, hold it again until they have ended.
    host.process.ref();
    for (const stream of [host.process.stdout, host.process.stderr]) (stream as (Readable & { ref?(): void }) | null)?.ref?.();
    host.process.kill('SIGKILL');
    await host.ended;
  }

  /** Sends a message to the host, starting it if needed; false while a restart waits out its backoff. */
  private send(message: ToHost): boolean {
    const host = this.host ?? this.start();
    if (!host) return false;
    host.out.push(message);
    this.keepAlive();
    return true;
  }

  /** Sends job `id` again with its stylesheet's text: the host no longer holds the compilation its key names. */
  private sendText(id: number): void {
    const job = this.jobs.get(id);
    if (!job?.withText) return;
    if (job.key !== undefined) this.held.dropped(job.key);
    this.jobs.set(id, withItsText(job));
    this.send(job.withText);
  }

  /** Starts a host (or takes up a kept process), unless one waits out its backoff (or the pool is closed). */
  private start(): HostConnection | null {
    if (this.closed || this.starts.waiting) return null;
    const kept = this.kept?.take(this.settings);
    const host = connectHost(kept, this.flags, {
      messages: (messages) => {
        for (const message of messages) this.receive(host, message);
        this.keepAlive();
      },
      ended: (how) => this.ended(host, how),
      output: this.output,
    });
    this.host = host;
    host.out.push(kept ? { adjust: adjustable(this.pool).adjustment } : { init: this.pool });
    return host;
  }

  private receive(host: HostConnection, message: FromHost): void {
    if ('ready' in message) {
      hostReady(host);
      this.starts.succeeded();
    } else if ('done' in message) {
      const job = this.jobs.get(message.done);
      this.jobs.delete(message.done);
      // compiled, or its compile error kept; a key the host drops later is asked for again (`needsText`)
      if (job?.key !== undefined) this.held.held(job.key);
      if ('error' in message) job?.reject(fromData(message.error));
      else job?.resolve(message.outcome);
    } else if ('read' in message) void this.read(host, message.read, message.job, message);
    else if ('output' in message) this.output(message.output, message.stream);
    else if ('needsText' in message) this.sendText(message.needsText);
    else if ('aheadDone' in message) {
      if (message.compiled) this.held.held(message.aheadDone);
      if (this.ahead === message.aheadDone) this.ahead = null;
    } else if ('settled' in message) {
      this.settling.get(message.settled)?.();
      this.settling.delete(message.settled);
    } else if ('status' in message) this.status = message.status;
  }

  /**
   * Answers the host's read `id` for job `job` through the job's view. The host is not trusted
   * with more than the job's own databases: a host that asked for others (it would have to run
   * code of its own) is refused.
   */
  private async read(host: HostConnection, id: number, job: number, read: ViewRead): Promise<void> {
    try {
      const { view, readable } = this.jobs.get(job) ?? {};
      if (!view) throw new Error('The query host asked for a read of a job without a view.');
      if (read.op !== 'versions' && readable && !readable.includes(read.db)) throw new Error('The query host asked for a database its job may not read.');
      if (read.op === 'readBytes') {
        const parts = partsView(view);
        if (parts && (await sendBytesInParts(parts, read.db, read.path, (part) => sendNow(host, { read: id, ...part })))) return;
      }
      const value = await viewRead(view, read);
      host.out.push({ read: id, value });
    } catch (error) {
      host.out.push({ read: id, error: errorData(error) });
    }
  }

  /** The host ended: its jobs fail (or, if it never got ready, wait for the next one). */
  private ended(host: HostConnection, how: string): void {
    if (this.host !== host) return;
    this.host = null;
    this.restarts++;
    this.ahead = null;
    // a new host holds no compilation: the jobs sent to it again carry their texts
    this.held.clear();
    for (const [id, job] of this.jobs) if (job.withText) this.jobs.set(id, withItsText(job));
    for (const settle of this.settling.values()) settle();
    this.settling.clear();
    if (this.closed) return;
    const error = host.outOfMemory ? outOfMemoryError(this.pool.heapMb) : new Error(`The query host process ended (${how}).`);
    if (host.ready) {
      this.failAll(error);
      this.start(); // warms up while the callers hear back
    } else this.startFailed(error);
    this.keepAlive();
  }

  private startFailed(error: Error): void {
    if (this.starts.failed()) this.failAll(error);
    this.starts.retryLater(() => {
      if (this.jobs.size === 0 || this.closed) return;
      // the jobs the host that failed had been sent, and those that came meanwhile
      const host = this.start();
      for (const job of this.jobs.values()) host?.out.push(job.message);
      this.keepAlive();
    });
  }

  private failAll(error: Error): void {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) job.reject(error);
  }

  /** A host with jobs keeps the server's event loop alive; an idle one does not. */
  private keepAlive(): void {
    const child = this.host?.process;
    if (!child) return;
    if (this.jobs.size > 0 || this.settling.size > 0) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }
}

/** `job` sent again with its stylesheet's text. */
function withItsText(job: Job): Job {
  return { ...job, message: job.withText ?? job.message, withText: undefined };
}

/**
 * What a host is started with: its pool's options (the store read through the jobs' views, see
 * above; no data folder, no output function) and its Node flags. Hosts with equal settings are
 * interchangeable (shared-hosts.ts).
 */
export function hostSettings(options: QueryHostOptions): { readonly pool: HostPoolOptions; readonly flags: string[] } {
  const { output: _output, fileAccess, dbPath: _files, kept: _kept, ...pool } = options;
  return {
    pool: { ...pool, ...(pool.documentSource ? { documentSource: { ...pool.documentSource, reader: { kind: 'channel' } } } : {}) },
    flags: hostFlags({ heapMb: options.heapMb, fileAccess }),
  };
}
