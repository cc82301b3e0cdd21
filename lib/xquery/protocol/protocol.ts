/**
 * Messages between the pool (main thread) and its workers. Everything here is structured-clone
 * data: text in, text out. Nodes never cross threads: the worker parses context documents and
 * reads stored ones through its own DocumentSource, which reads the store directly or asks the
 * main thread over the worker's store channel (store-channel.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import type { RequestedRange, ResolvedRange } from '../../range-requests';
import type { CatalogSnapshot, FullTextFound, FullTextLookup, LockSet } from '../../store/types';
import type { CompileOptions } from '../worker/compile';
import type { StoreSourceSpec } from '../worker/documents/store-source';
import type { QueryErrorData } from '../query-error';
import type { StringBinding } from '../worker/external-variables';
import type { StoreChange } from '../update/store-changes';
import type { QueryAccount } from '../update/user-changes';

/** The worker's DocumentSource: the store source with these options; absent: no documents. */
export type DocumentSourceSpec = StoreSourceSpec;

/** workerData of every worker in a pool. */
export interface WorkerInit {
  /** A file store's folder, read by the worker's DocumentSource unless its spec names a reader. */
  readonly dbPath?: string;
  readonly documentSource?: DocumentSourceSpec;
  /** Size of the worker's own cache of primed stylesheets. */
  readonly cacheMax: number;
  /** Largest serialized result the worker posts back, in bytes; larger ones are an error. */
  readonly maxResultBytes?: number;
  /** Where the worker asks the main thread for stored data (the `channel` worker reader). */
  readonly storeChannel?: StoreChannel;
  /** The cells deciding who takes a task of a batch: the worker or the pool (task-claim.ts). */
  readonly claim?: SharedArrayBuffer;
}

/**
 * A worker's synchronous line to the main thread: the worker posts a StoreRequest on `port` and
 * blocks (Atomics.wait) until the main thread has posted the StoreAnswer and counted it in `signal`.
 */
export interface StoreChannel {
  /** The worker's end of a MessageChannel (transferred to the worker). */
  readonly port: MessagePort;
  /** One Int32: the number of answers posted so far (store-channel.ts). */
  readonly signal: SharedArrayBuffer;
}

/**
 * What a worker asks the main thread (store/types.ts `SyncStoreReader`, one method each), for
 * the task `task` it runs.
 */
export type StoreRequest = { readonly task: number; /** Numbers the worker's requests; the answer names it. */ readonly seq: number } & (
  | { readonly op: 'versions'; readonly dbs: LockSet }
  | { readonly op: 'catalog'; readonly db: string }
  | { readonly op: 'read'; readonly db: string; readonly paths: readonly string[] }
  | { readonly op: 'fullText'; readonly db: string; readonly lookup: FullTextLookup }
  | { readonly op: 'summaries'; readonly db: string; readonly etags: readonly string[] }
);

/** The answer to a StoreRequest; a failure carries the store's error (status, message, code). */
export type StoreAnswer =
  | { readonly ok: true; readonly versions: readonly (readonly [string, string])[] }
  | { readonly ok: true; readonly catalog: CatalogSnapshot }
  | { readonly ok: true; readonly bytes: readonly Uint8Array[] }
  /** null: the store keeps no full-text index for the database. */
  | { readonly ok: true; readonly fullText: FullTextFound | null }
  /** null: no summary kept for that version. */
  | { readonly ok: true; readonly summaries: readonly (Uint8Array | null)[] }
  | { readonly ok: false; readonly status: number; readonly message: string; readonly code?: string };

/**
 * The context of a query (spec §9.2): XML texts to parse, documents to read from the source, or
 * (spec §6.1) the database in the URL: the documents of `db` at or below `path` ('' or absent:
 * all of them), in path order. With a database context, that database is also the default
 * collection.
 */
export type ContextSpec =
  | { readonly xml: readonly string[] }
  | { readonly documents: readonly string[] }
  | { readonly kind: 'database'; readonly db: string; readonly path?: string };

/** An XPath expression evaluated before a query, with its own parameters (jobs.ts `QueryJob.first`). */
export interface FirstCall {
  readonly expression: string;
  readonly params: Readonly<Record<string, StringBinding>>;
}

/** A database and a path in it ('' for all of it). */
export interface DatabaseContext {
  readonly db: string;
  readonly path: string;
}

export interface CompileTask {
  readonly kind: 'compile';
  readonly id: number;
  readonly xslt: string;
  readonly options: CompileOptions;
}

export interface RunTask {
  readonly kind: 'run';
  readonly id: number;
  /** The compile key of the stylesheet to run (absent for an XPath task). */
  readonly key?: string;
  /** An XPath task: the expression to evaluate instead of a stylesheet (evaluate.ts `evaluateXPath`). */
  readonly xpath?: string;
  /** `xpath` with its predicates' literals as parameters (jobs.ts `QueryJob.xpathShape`). */
  readonly xpathShape?: string;
  /** An expression tried before the query (jobs.ts `QueryJob.first`). */
  readonly first?: FirstCall;
  /** Nothing but `first`: when it declines, the worker answers `declined` (jobs.ts `QueryJob.firstOnly`). */
  readonly firstOnly?: true;
  /**
   * The compiled stylesheet; sent only to a worker that has not primed `key` yet (the pool keeps
   * track). A worker without it answers `{ missing: true }` and gets the task again with it.
   */
  readonly sefText?: string;
  /** The static base URI. */
  readonly baseUri: string;
  readonly initialTemplate?: string;
  readonly params?: Readonly<Record<string, StringBinding>>;
  readonly context?: ContextSpec;
  readonly serialization?: Readonly<Record<string, string>>;
  /** Databases the query may read (the user's permissions); absent: all of them. */
  readonly readable?: readonly string[];
  /**
   * The version of every database the query may see, taken from the view that holds the
   * request's locks (store/types.ts `ReadView.versions`); absent: the worker asks its reader.
   */
  readonly versions?: readonly (readonly [string, string])[];
  /**
   * The database (and path) of the URL when the query reads its context through
   * CONTEXT_URI_PARAM instead of `context`: the default collection (fn:collection()).
   */
  readonly database?: DatabaseContext;
  /**
   * An updating query (analysis/updating.ts): its result is a pending update list; the worker
   * applies it to copies of the stored documents and answers the store changes.
   */
  readonly update?: boolean;
  /** Paging (`Range: items=...`): serialize only these items of the result, and count them all. */
  readonly items?: RequestedRange;
  /**
   * This run may read the host's files (fn:doc, fn:unparsed-text, ... with file: URIs): the
   * router option `allowFileAccess` is on and the user is an admin. Otherwise saxon's resource
   * loading is refused (guards/resource-guard.ts).
   */
  readonly fileAccess?: boolean;
  /** The user the query runs for and the users it may see (functions/user.ts); absent: nobody. */
  readonly account?: QueryAccount;
}

/** The page of a paged run: the items served (none when the range is unsatisfiable) of `total`. */
export interface ItemPage {
  readonly range?: ResolvedRange;
  readonly total: number;
}

export type Task = CompileTask | RunTask;

/** A task as posted to a worker (in a batch, pool.ts): with the number of the post (task-claim.ts). */
export type PostedTask = Task & { readonly seq: number };

/** What a worker posts once, when it has loaded and can take tasks. */
export interface ReadyMessage {
  readonly ready: true;
}

/**
 * What a worker posts while it runs task `id` to lower its time limit to `limit` ms from now, or
 * (null) to return to the task's own limit (run-limit.ts).
 */
export interface LimitMessage {
  readonly id: number;
  readonly limit: number | null;
}

export type Reply = (
  | { readonly id: number; readonly ok: true; readonly sefText: string; readonly baseUri: string; readonly key: string; readonly ms: number }
  | { readonly id: number; readonly ok: true; readonly body: string; readonly ms: number; readonly serializeMs: number; readonly changes?: readonly StoreChange[]; readonly page?: ItemPage }
  | { readonly id: number; readonly ok: false; readonly error: QueryErrorData }
  | { readonly id: number; readonly ok: false; readonly missing: true }
  | { readonly id: number; readonly ok: true; readonly declined: true; readonly ms: number }
) & {
  /**
   * The parsed documents the worker holds now, as summed source bytes per database; sent with a
   * reply when they changed since the worker last said (document-budget.ts).
   */
  readonly held?: readonly (readonly [string, number])[];
};

/** The pool asks a worker to drop its parsed documents of these databases (document-budget.ts). */
export interface EvictMessage {
  readonly evict: readonly string[];
}
