/**
 * What the pool's callers give (QueryJob, QueryPoolOptions) and get (QueryOutcome), and how a
 * job becomes a run task for a worker and a worker's reply its outcome (pool.ts).
 */
import type { QueryAccount } from '../update/user-changes';
import type { RequestedRange } from '../../range-requests';
import type { CompileOptions } from '../worker/compile';
import type { StringBinding } from '../worker/external-variables';
import { QueryError } from '../query-error';
import type { StoreChange } from '../update/store-changes';
import type { WorkerOutput } from './launch';
import type { ContextSpec, DatabaseContext, DocumentSourceSpec, FirstCall, ItemPage, Reply } from '../protocol/protocol';
import type { ChannelView } from '../protocol/store-channel';

/**
 * What a job's `signal` must offer: an AbortSignal has it, and so has the router's lighter signal
 * of a closed connection (http/disconnect-signal.ts).
 */
import type { CancelSignal } from '../../cancel-switch';
export type { CancelSignal };

/**
 * How long a running task whose client went away may still take before its worker is stopped
 * (pool.ts). Stopping costs a new worker's start-up (loading saxon-js, about 0.2 s of CPU) and
 * the documents the old one had parsed, so a task that ends within a fraction of that (most do:
 * a client that closes its connection after its own timeout, or a load test's last requests)
 * finishes, and only its reply is dropped. Updates are applied by the caller, never by a
 * cancelled task.
 */
export const CANCEL_GRACE_MS = 100;

export interface QueryPoolOptions {
  /** Number of worker threads; default: the number of cores. */
  readonly size?: number;
  /** Default time limit per query in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Compiled stylesheets kept by the pool and by each worker (default 256). */
  readonly cacheMax?: number;
  /** A file store's folder, for workers whose DocumentSource spec names no reader. */
  readonly dbPath?: string;
  /** The store source of the workers (documents/store-source.ts `storeSourceSpec`); default: no documents (FODC0002). */
  readonly documentSource?: DocumentSourceSpec;
  /** Where the workers' stdout and stderr lines go (fn:trace); default: the process's own. */
  readonly output?: WorkerOutput;
  /** Tasks that may wait for a worker; one more is refused with 503 (default 16 per worker, at least 32). */
  readonly maxQueued?: number;
  /** Old-generation heap of each worker in MiB (`resourceLimits`); default: V8's. */
  readonly heapMb?: number;
  /** Largest serialized result a worker hands back, in bytes (default: unbounded). */
  readonly maxResultBytes?: number;
  /** How long a cancelled task may still run before its worker is stopped (default CANCEL_GRACE_MS). */
  readonly cancelGraceMs?: number;
  /**
   * Short tasks are handed to a worker several in one message; once the task it runs has run this
   * long, those behind it are handed out again (default 2 ms, pool.ts; 0: one task per message).
   */
  readonly batchWindowMs?: number;
  /** A task whose query last ran under this many milliseconds may go in a batch (default 0.5, task-costs.ts). */
  readonly shortTaskMs?: number;
}

export interface QueryJob {
  /** The XSLT 3.0 text of the translated query; '' with `xsltKey` when the pool holds its compilation. */
  readonly xslt: string;
  /**
   * The compile key (compile-key.ts) of a stylesheet the pool has compiled, sent instead of its
   * text (`xslt` is then ''): the server leaves out the text of a stylesheet its query host holds
   * (engine/query-host.ts), a 28 KB library or a query's own stylesheet on every run.
   */
  readonly xsltKey?: string;
  /**
   * The query as one XPath expression (translate/translation.ts): evaluated without compiling `xslt`,
   * which is then not used. Not for updating queries.
   */
  readonly xpath?: string;
  /**
   * `xpath` with the literals of its predicates left as parameters (translate/literals.ts), when
   * they differ: one plan of it serves every literal, where each new literal in `xpath` is a new
   * compilation; the worker chooses (worker/xpath-plans.ts).
   */
  readonly xpathShape?: string;
  /**
   * An XPath expression to evaluate first, with its own parameters: its value is the empty
   * sequence when it declines, else a one-member array holding the query's value, which is then
   * the answer (translate/unit.ts `TriedFirst`). Not for updating queries.
   */
  readonly first?: FirstCall;
  /**
   * Run `first` alone: the job has no query of its own (`xslt` is '' and `xpath` absent), and its
   * outcome is `declined` when the call declines; the caller then runs the query in full.
   */
  readonly firstOnly?: true;
  readonly compile?: CompileOptions;
  /** Time the compilation of `xslt` may take (default: the run's timeout). */
  readonly compileTimeoutMs?: number;
  readonly initialTemplate?: string;
  readonly params?: Readonly<Record<string, StringBinding>>;
  readonly context?: ContextSpec;
  /** Databases the query may read (the user's permissions); absent: all of them. */
  readonly readable?: readonly string[];
  /**
   * The view holding the request's locks: it answers the worker's store requests (the `channel`
   * reader), and `versions` are taken from it (see RunTask.versions).
   */
  readonly view?: ChannelView;
  readonly versions?: ReadonlyMap<string, string>;
  /** The database of the URL, when `params` name it rather than `context` (the default collection). */
  readonly database?: DatabaseContext;
  /** An updating query: the worker applies its pending updates and answers store changes. */
  readonly update?: boolean;
  /** This run may read the host's files (see RunTask.fileAccess); default false. */
  readonly fileAccess?: boolean;
  /** The run's account (see RunTask.account). */
  readonly account?: QueryAccount;
  /** Serialization parameters (spec §2.3) by name. */
  readonly serialization?: Readonly<Record<string, string>>;
  /** Time limit of this query (compilation and run, each), overriding the pool's. */
  readonly timeoutMs?: number;
  /** Paging: only these items are serialized (see ItemPage). */
  readonly items?: RequestedRange;
  /** Aborted when the answer is no longer wanted (the client disconnected): the run stops. */
  readonly signal?: CancelSignal;
}

export interface QueryOutcome {
  /** The serialized result. */
  readonly body: string;
  /** Milliseconds the run waited for its stylesheet's compilation (0 when it was compiled, or for an XPath run). */
  readonly compileMs: number;
  /** Milliseconds spent evaluating in the worker, serialization not included. */
  readonly evaluateMs: number;
  /** Milliseconds spent serializing in the worker. */
  readonly serializeMs: number;
  /** Whether this job's stylesheet came from the cache. */
  readonly cached: boolean;
  /** Store changes of an updating query (update/store-changes.ts), to apply in one write. */
  readonly changes?: readonly StoreChange[];
  /** A paged job's page. */
  readonly page?: ItemPage;
  /** A `firstOnly` job whose call declined: nothing was serialized (`body` is ''). */
  readonly declined?: true;
}

/** What a run task carries besides its query. */
export function runTaskParts(job: QueryJob) {
  // only what is there: every property, even an undefined one, is copied to the worker
  return {
    ...(job.initialTemplate !== undefined ? { initialTemplate: job.initialTemplate } : {}),
    ...(job.params ? { params: job.params } : {}),
    ...(job.first ? { first: job.first } : {}),
    ...(job.firstOnly ? { firstOnly: true as const } : {}),
    ...(job.context ? { context: job.context } : {}),
    ...(job.serialization ? { serialization: job.serialization } : {}),
    ...(job.readable ? { readable: job.readable } : {}),
    ...(job.versions ? { versions: [...job.versions] } : {}),
    ...(job.database ? { database: job.database } : {}),
    ...(job.update ? { update: true } : {}),
    ...(job.items ? { items: job.items } : {}),
    ...(job.fileAccess ? { fileAccess: true } : {}),
    ...(job.account ? { account: job.account } : {}),
  };
}

/** The outcome of a run task's reply; a failed run rejects with its QueryError. */
export function toOutcome(reply: Reply, cached: boolean, compileMs = 0): QueryOutcome {
  if (!reply.ok) throw new QueryError('error' in reply ? reply.error : { code: 'SXJS0004', message: 'The query worker lost its stylesheet.', status: 500, phase: 'evaluate' });
  if ('declined' in reply) return { body: '', compileMs, evaluateMs: reply.ms, serializeMs: 0, cached, declined: true };
  if (!('body' in reply)) throw new Error('unexpected reply to a run task');
  const times = { compileMs, evaluateMs: Math.max(0, reply.ms - reply.serializeMs), serializeMs: reply.serializeMs };
  return { body: reply.body, ...times, cached, ...(reply.changes ? { changes: reply.changes } : {}), ...(reply.page ? { page: reply.page } : {}) };
}
