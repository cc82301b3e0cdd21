/**
 * What running commands share: the caller's environment, the session state that commands change
 * (opened database, options), and the store view taken for the whole script.
 */
import { raise } from '../../xmldb-error';
import type { OptionValue } from '../../store/database-options';
import { STORE_ERRORS } from '../../store/store-errors';
import type { LockSet, ReadView, Store, WriteView } from '../../store/types';
import type { User, UserStore } from '../../users/user-store';
import type { UpdateAnalysis } from '../../xquery/language/analysis/updating';
import { commandError } from '../messages';
import { mixesUpdates } from './session-options';

/** Context handed to `query`: the opened database and path, and the view the script holds. */
export interface QueryScope {
  readonly db?: string;
  readonly path?: string;
  /**
   * The view of the script's locks (a WriteView when the script writes). Store locks are not
   * reentrant: a query runs while they are held, so it must read (and update) through this view,
   * never call `store.read`/`store.write` itself.
   */
  readonly view: ReadView | WriteView;
  /** The databases the script locked ('*': all): the query sees no others. */
  readonly locks: LockSet;
  /** The session's MIXUPDATES (session-options.ts), as planning analysed the query with it. */
  readonly mixUpdates: boolean;
}

export interface CommandEnvironment {
  store: Store;
  users: UserStore;
  /** The authenticated user. */
  user: User;
  /** Whether commands may read and write files of the server (input paths, EXPORT). */
  allowFileAccess: boolean;
  /** Folder of server-side files for RUN (spec §10). */
  restPath: string;
  /** Runs an XQuery for XQUERY/FIND. */
  query?: (query: string, context: QueryScope) => Promise<string>;
  /**
   * The engine's static analysis of a query (query-access.ts decides from it). Without it, or for
   * a query that does not parse (it fails when it runs), a query reads every database.
   */
  analyzeQuery?: (query: string, mixUpdates: boolean) => UpdateAnalysis;
  /**
   * Runs a server-side query file for RUN: the absolute file, already resolved against `restPath`
   * (spec §10), and its text as planning read it. `.bxs` scripts are run by the executor itself.
   * The third argument carries the same context as `query` (the callee may ignore it).
   */
  runFile?: (file: string, text: string, context: QueryScope) => Promise<string>;
}

export interface CommandState {
  currentDb?: string;
  currentPath?: string;
  /** Options set with SET, by canonical (upper-case) name. */
  options: Map<string, OptionValue>;
}

/** One running script: environment, state, and the view its locks were taken with. */
export interface RunContext {
  readonly env: CommandEnvironment;
  readonly state: CommandState;
  readonly view: ReadView;
  /** Present when the script writes (its locks were taken with `store.write`). */
  readonly writer?: WriteView;
  /** The databases the script locked. */
  readonly locks: LockSet;
}

/** The opened database, or NO_DB_OPENED. */
export function openedDb(ctx: RunContext): string {
  const db = ctx.state.currentDb;
  if (db === undefined) throw commandError('NO_DB_OPENED');
  return db;
}

/** The opened database, which must (still) exist: a script may have dropped it. */
export async function existingDb(ctx: RunContext): Promise<string> {
  const db = openedDb(ctx);
  if ((await ctx.view.database(db)) === undefined) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
  return db;
}

/** The write view. Planning takes write locks for every writing command, so it is present. */
export function writer(ctx: RunContext): WriteView {
  if (ctx.writer === undefined) throw new Error('A writing command ran without write locks.');
  return ctx.writer;
}

/** The context handed to a query of the script: the opened database and path, and the view. */
export function queryScope(ctx: RunContext): QueryScope {
  const { currentDb, currentPath } = ctx.state;
  return {
    ...(currentDb !== undefined ? { db: currentDb } : {}),
    ...(currentDb !== undefined && currentPath !== undefined ? { path: currentPath } : {}),
    view: ctx.writer ?? ctx.view,
    locks: ctx.locks,
    mixUpdates: mixesUpdates(ctx.state),
  };
}
