/**
 * Messages between the pool (main thread) and its workers. Everything here is structured-clone
 * data: text in, text out. Nodes never cross threads: the worker parses context documents and
 * reads stored ones through its own DocumentSource.
 */
import type { RequestedRange, ResolvedRange } from '../../ranges';
import type { CompileOptions } from '../compile';
import type { QueryErrorData } from '../runtime/errors';
import type { StringBinding } from '../runtime/params';
import type { StoreChange } from '../update/changes';

/** Where a worker's DocumentSource comes from (see DocumentSourceFactory). */
export interface DocumentSourceSpec {
  /** Absolute path of a module exporting `createDocumentSource(init: WorkerInit)`. */
  readonly module: string;
  /** Options for that module (structured-clone data), e.g. the store source's `cacheBytes`. */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** workerData of every worker in a pool. */
export interface WorkerInit {
  /** Root folder of the databases, for the worker's DocumentSource. */
  readonly dbPath?: string;
  readonly documentSource?: DocumentSourceSpec;
  /** Size of the worker's own cache of primed stylesheets. */
  readonly cacheMax: number;
  /** Largest serialized result the worker posts back, in bytes; larger ones are an error. */
  readonly maxResultBytes?: number;
}

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
   * The database (and path) of the URL when the query reads its context through
   * CONTEXT_URI_PARAM instead of `context`: the default collection (fn:collection()).
   */
  readonly database?: DatabaseContext;
  /**
   * An updating query (update/analysis.ts): its result is a pending update list; the worker
   * applies it to copies of the stored documents and answers the store changes.
   */
  readonly update?: boolean;
  /** Paging (`Range: items=...`): serialize only these items of the result, and count them all. */
  readonly items?: RequestedRange;
  /**
   * This run may read the host's files (fn:doc, fn:unparsed-text, ... with file: URIs): the
   * router option `allowFileAccess` is on and the user is an admin. Otherwise saxon's resource
   * loading is refused (modules/resource-guard.ts).
   */
  readonly fileAccess?: boolean;
}

/** The page of a paged run: the items served (none when the range is unsatisfiable) of `total`. */
export interface ItemPage {
  readonly range?: ResolvedRange;
  readonly total: number;
}

export type Task = CompileTask | RunTask;

/** What a worker posts once, when it has loaded and can take tasks. */
export interface ReadyMessage {
  readonly ready: true;
}

/**
 * What a worker posts while it runs task `id` to lower its time limit to `limit` ms from now, or
 * (null) to return to the task's own limit (runtime/run-limit.ts).
 */
export interface LimitMessage {
  readonly id: number;
  readonly limit: number | null;
}

export type Reply =
  | { readonly id: number; readonly ok: true; readonly sefText: string; readonly baseUri: string; readonly key: string; readonly ms: number }
  | { readonly id: number; readonly ok: true; readonly body: string; readonly ms: number; readonly changes?: readonly StoreChange[]; readonly page?: ItemPage }
  | { readonly id: number; readonly ok: false; readonly error: QueryErrorData }
  | { readonly id: number; readonly ok: false; readonly missing: true };
