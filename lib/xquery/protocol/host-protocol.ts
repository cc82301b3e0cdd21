/**
 * Messages between the server and its query host process (engine/query-host.ts, host-process.ts), over
 * Node's IPC channel with `serialization: 'advanced'` (structured clone: Maps and Buffers cross
 * as they are). Each side sends the messages of one turn of its event loop as one array
 * (message-batch.ts). Errors cross as data and are rebuilt on arrival (`errorData`, `fromData`).
 */
import { XmldbError } from '../../xmldb-error';
import { QueryError, type QueryErrorData } from '../query-error';
import type { FullTextLookup, LockSet } from '../../store/types';
import type { QueryJob, QueryOutcome, QueryPoolOptions } from '../host/jobs';
import type { ReadPart } from './bytes-in-parts';

/** A job as it crosses: without its view and signal (the server keeps them), with whether it has a view. */
export type HostJob = Omit<QueryJob, 'view' | 'signal'> & { readonly hasView: boolean };

/** The pool options the host starts its pool with (the output goes back to the server). */
export type HostPoolOptions = Omit<QueryPoolOptions, 'output'>;

/**
 * The pool options a running pool takes again (pool.ts `adjust`): they bound what it does next,
 * not what its workers were started with.
 */
const ADJUSTABLE = ['size', 'timeoutMs', 'maxQueued', 'cancelGraceMs', 'batchWindowMs'] as const;

export type PoolAdjustment = Pick<QueryPoolOptions, (typeof ADJUSTABLE)[number]>;

/** `options` split into what a running pool can take again and the rest, which its workers were started with. */
export function adjustable(options: HostPoolOptions): { readonly adjustment: PoolAdjustment; readonly fixed: HostPoolOptions } {
  const adjustment: Record<string, unknown> = {};
  const fixed: Record<string, unknown> = { ...options };
  for (const name of ADJUSTABLE) {
    if (fixed[name] !== undefined) adjustment[name] = fixed[name];
    delete fixed[name];
  }
  return { adjustment: adjustment as PoolAdjustment, fixed: fixed as HostPoolOptions };
}

/** A read of a job's view, asked by the host for a worker's store request (store-channel.ts `ChannelView`). */
export type ViewRead =
  | { readonly op: 'versions'; readonly dbs: LockSet }
  | { readonly op: 'listResources'; readonly db: string }
  | { readonly op: 'database'; readonly db: string }
  | { readonly op: 'readBytes'; readonly db: string; readonly path: string }
  | { readonly op: 'readMany'; readonly db: string; readonly paths: readonly string[]; readonly maxBytes: number }
  | { readonly op: 'fullText'; readonly db: string; readonly lookup: FullTextLookup }
  | { readonly op: 'summaries'; readonly db: string; readonly etags: readonly string[] };

/** An error as it crosses. */
export type ErrorData =
  | { readonly query: QueryErrorData }
  | { readonly status: number; readonly message: string; readonly code?: string; readonly headers?: Readonly<Record<string, string>> }
  | { readonly message: string };

export type ToHost =
  | { readonly init: HostPoolOptions }
  /** A kept process taken up by a host whose pool differs in `PoolAdjustment` only (query-host.ts). */
  | { readonly adjust: PoolAdjustment }
  | { readonly run: number; readonly job: HostJob }
  | { readonly cancel: number }
  /** Start compiling `xslt` ahead if it is not compiled (pool.ts `compiledOrAhead`); `key` names it in the answer. */
  | { readonly ahead: readonly [key: string, xslt: string] }
  /** Answer `settled` once no compilation ahead runs (pool.ts `compiledAhead`). */
  | { readonly settle: number }
  | { readonly warm: true }
  | { readonly read: number; readonly value: unknown }
  /** A large file read in parts (bytes-in-parts.ts). */
  | ({ readonly read: number } & ReadPart)
  | { readonly read: number; readonly error: ErrorData };

export type FromHost =
  | { readonly ready: true }
  | { readonly done: number; readonly outcome: QueryOutcome }
  | { readonly done: number; readonly error: ErrorData }
  /** Job `needsText` named its stylesheet by a key the host does not hold: send it again with the text. */
  | { readonly needsText: number }
  /** The compilation ahead of `aheadDone` (a compile key) ended, or was not started; `compiled`: the stylesheet is ready. */
  | { readonly aheadDone: string; readonly compiled: boolean }
  | { readonly settled: number }
  /** A worker's output line (fn:trace, saxon's messages). */
  | { readonly output: string; readonly stream: 'stdout' | 'stderr' }
  | ({ readonly read: number; readonly job: number } & ViewRead)
  /** The host's pool as it is now: sent last in each batch. */
  | { readonly status: HostStatus };

/** The counters of the host's pool that the server's proxy answers with. */
export interface HostStatus {
  readonly compilations: number;
  readonly workers: number;
  readonly queued: number;
}

export function errorData(e: unknown): ErrorData {
  if (e instanceof QueryError) return { query: e.toData() };
  if (e instanceof XmldbError) return { status: e.status, message: e.message, ...(e.code ? { code: e.code } : {}), ...(e.headers ? { headers: e.headers } : {}) };
  return { message: e instanceof Error ? e.message : String(e) };
}

export function fromData(data: ErrorData): Error {
  if ('query' in data) return new QueryError(data.query);
  if ('status' in data) return new XmldbError(data.status, data.message, data.code, data.headers);
  return new Error(data.message);
}
