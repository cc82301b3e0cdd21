/**
 * The engine's interface to the layers above it (engine.ts implements it): what a query run is
 * asked with, and what it answers.
 */
import type { QueryAccount } from '../update/user-changes';
import type { RequestedRange } from '../../range-requests';
import type { ReadView } from '../../store/types';
import type { WorkerOutput } from '../host/launch';
import type { CancelSignal, DocumentSourceSpec, ItemPage } from '../host/pool';
import type { StoreChange } from '../update/store-changes';
import type { PreparedQuery } from './prepared';

export interface EngineOptions {
  /** Worker threads of the query host process (default: the number of cores). */
  readonly workers?: number;
  /** Time limit per query in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Compiled stylesheets kept (default 256); prepared queries are kept to the same bound. */
  readonly compiledCacheSize?: number;
  /** The store source of the workers (database contexts, doc(), collection()); default: no documents. */
  readonly documentSource?: DocumentSourceSpec;
  /** Where the workers' output lines go (fn:trace); default: the process's stdout and stderr. */
  readonly output?: WorkerOutput;
  /** Queries that may wait for a worker; more are refused with 503 (host/pool.ts). */
  readonly maxQueued?: number;
  /** Heap of each worker, and of the query host process, in MiB. */
  readonly workerHeapMb?: number;
  /**
   * Some queries may read the host's files (the router option `allowFileAccess`): the query host
   * process is then allowed to read every file (engine/host-flags.ts). Default false.
   */
  readonly fileAccess?: boolean;
  /** Largest serialized result, in bytes. */
  readonly maxResultBytes?: number;
  /** A query host of this engine's own, not shared with engines of equal settings (engine/shared-hosts.ts); default false. */
  readonly ownHost?: boolean;
  /**
   * Literals become stylesheet parameters, so queries differing only in literals share one
   * compilation (translate/literals.ts); default true. False compiles every literal in.
   */
  readonly literalParams?: boolean;
}

/** The context of a query (spec §6.1, §9.2). */
export type QueryContext =
  | { readonly kind: 'none' }
  | { readonly kind: 'documents'; readonly xml: readonly string[] }
  | { readonly kind: 'database'; readonly db: string; readonly path: string };

export interface QueryRequest {
  /** The query: its text, or its prepared form (`Engine.prepare`). */
  readonly query: string | PreparedQuery;
  /** Static base URI (the `run` file); default: compile.ts DEFAULT_BASE_URI. */
  readonly baseUri?: string;
  readonly context: QueryContext;
  /** External variable bindings by name (`x`, `Q{uri}x` or `prefix:x` with a prolog prefix). */
  readonly variables: ReadonlyMap<string, { readonly values: readonly string[]; readonly type?: string }>;
  readonly serialization: Readonly<Record<string, string>>;
  /** Time limit of this query, overriding the engine's. */
  readonly timeoutMs?: number;
  /** Databases the query may read (the user's permissions); absent: all of them. */
  readonly readable?: readonly string[];
  /**
   * The view holding the request's locks. The versions of the databases the query may see are
   * taken from it once (the workers' caches are keyed by them, store/types.ts), and it answers
   * the workers' reads: the query host process reads the store through it only. Absent: the
   * query reads no stored data.
   */
  readonly view?: ReadView;
  /** Paging: serialize only these items of the result (`page` of the response tells which). */
  readonly items?: RequestedRange;
  /** BaseX's MIXUPDATES option: updating and non-updating expressions may be mixed (analysis/updating.ts). */
  readonly mixUpdates?: boolean;
  /**
   * The query may read the host's files (operations/permission.ts `mayReadHostFiles`: the
   * router option `allowFileAccess` and an admin); default false.
   */
  readonly fileAccess?: boolean;
  /** Aborted when the client went away: the query is stopped. */
  readonly signal?: CancelSignal;
  /**
   * The user the query runs for and the users it may see (the user: module); absent: nobody.
   * Asked for only when the query may call a user: function (analysis/account-use.ts).
   */
  readonly account?: () => QueryAccount;
}

export interface QueryResponse {
  readonly body: string | Buffer;
  readonly contentType: string;
  /**
   * An updating query's store changes (update/store-changes.ts), computed but NOT applied: the caller
   * holds write locks and applies them with `applyStoreChanges` in one write. Absent for
   * non-updating queries.
   */
  readonly changes?: readonly StoreChange[];
  /** A paged request's page: the items in the body and the length of the whole result. */
  readonly page?: ItemPage;
  /** Where the run's time went, in milliseconds. */
  readonly timings: RunTimings;
}

/**
 * Where a run's time went, in milliseconds: `compile` is the translation to XSLT and saxon-js's
 * compilation the run waited for (near 0 when both were cached), `evaluate` the run in the
 * worker, `serialize` the serialization of its result there.
 */
export interface RunTimings {
  readonly compileMs: number;
  readonly evaluateMs: number;
  readonly serializeMs: number;
}

export interface Engine {
  evaluate(request: QueryRequest): Promise<QueryResponse>;
  /**
   * A query parsed, analysed and translated once (prepared.ts), cached by its text: the caller
   * reads its analysis for locks and permission, then evaluates it.
   */
  prepare(query: string): PreparedQuery;
  close(): Promise<void>;
}
