/**
 * Query evaluation (spec §6.1, §6.2, §7, §9): GET `?query=`, the QUERY method, POST `<query>`,
 * `.xq` files of `run`, and the queries of commands (XQUERY, FIND, RUN of a query file), which
 * BaseX runs the same way. The context is the database (and path) of the URL unless documents
 * are given explicitly.
 */
import { queryAccess } from '../commands/exec/query-access';
import { mixesUpdates } from '../commands/exec/session-options';
import { raise, withHeaders } from '../xmldb-error';
import { contentRange, type RequestedRange } from '../range-requests';
import type { LockSet, ReadView, WriteView } from '../store/types';
import { LocatedQueryError, type QueryContext, type QueryRequest, type QueryResponse } from '../xquery/engine/engine';
import { applyStoreChanges, readOnlyScriptError } from '../xquery/update/store-changes';
import { CONDITION_ERRORS } from './operation-errors';
import { serverTiming } from './server-timing';
import { mayReadHostFiles, readableAmong, readableDatabases } from './permission';
import { applyUserChanges, checkUserChanges, queryAccount, splitChanges } from './query-users';
import type { Result, Session, Variable } from './types';
import type { OptionValue } from '../store/database-options';

export interface QueryInput {
  readonly query: string;
  readonly baseUri?: string;
  /** The name of the query's source for error locations (the `run` file as requested). */
  readonly source?: string;
  readonly db?: string;
  readonly path?: string;
  /** Context documents given with the request (XML texts); they replace the database context. */
  readonly context: readonly string[];
  readonly variables: ReadonlyMap<string, Variable>;
  readonly serialization: Readonly<Record<string, string>>;
  /** Paging (`Range: items=START-END`): answer only these items of the result. */
  readonly items?: RequestedRange;
  /** Options of the request (spec §2.4); MIXUPDATES applies to queries. */
  readonly options?: ReadonlyMap<string, OptionValue>;
}

export function queryContext(input: Pick<QueryInput, 'db' | 'path' | 'context'>): QueryContext {
  if (input.context.length > 0) return { kind: 'documents', xml: input.context };
  if (input.db !== undefined) return { kind: 'database', db: input.db, path: input.path ?? '' };
  return { kind: 'none' };
}

function isWriteView(view: ReadView | WriteView): view is WriteView {
  return typeof (view as Partial<WriteView>).putResource === 'function';
}

/** What a query asks of the engine, beside what the session decides (readable databases, files, users). */
export type QueryCall = Omit<QueryRequest, 'readable' | 'fileAccess' | 'signal' | 'account'>;

/**
 * Runs a query of the session inside locks already taken (`view`, on `locks`): the path of
 * command queries and of every REST query that reaches a database (one that reaches none runs
 * unlocked, `runUnlockedQuery`). The query sees only the locked databases its user may read. A paged result whose page cannot be served fails here, under the lock, so an updating
 * query then changes nothing. An updating query's store changes are applied through the view,
 * which must be a write view (XMLR0003 otherwise: a script that planned read locks only); its
 * user changes through the user store (query-users.ts).
 */
export async function runLockedQuery(session: Session, view: ReadView, locks: LockSet, call: QueryCall): Promise<QueryResponse> {
  const readable = locks === '*' ? await readableDatabases(session, view, locks) : readableAmong(session, locks);
  const response = await evaluateChecked(session, call, readable, view);
  if (response.changes !== undefined && response.changes.length > 0) {
    if (!isWriteView(view)) throw readOnlyScriptError();
    // user changes are judged before anything changes, and made after the store's (query-users.ts)
    const changes = splitChanges(response.changes);
    checkUserChanges(session, changes.users);
    await applyStoreChanges(view, changes.store);
    await applyUserChanges(session, changes.users);
  }
  return response;
}

/**
 * Runs a non-updating query that reaches no database (its lock set is empty: the engine's
 * analysis names none, and there is no database in the URL) outside the store: it needs no lock
 * and no view, as BaseX decides from the compiled query which databases it locks. It may read no
 * database (`readable` is empty), so even a database the analysis missed stays out of its reach.
 */
function runUnlockedQuery(session: Session, call: QueryCall): Promise<QueryResponse> {
  return evaluateChecked(session, call, NOTHING_READABLE);
}

const NO_OPTIONS: ReadonlyMap<string, OptionValue> = new Map();

const NOTHING_READABLE: readonly string[] = Object.freeze([]);

/** The engine's run of `call` for this session; a page that cannot be served fails (416). */
function evaluateChecked(session: Session, call: QueryCall, readable: readonly string[] | undefined, view?: ReadView): Promise<QueryResponse> {
  const request: QueryRequest = {
    query: call.query,
    mixUpdates: call.mixUpdates,
    baseUri: call.baseUri,
    context: call.context,
    variables: call.variables,
    serialization: call.serialization,
    timeoutMs: call.timeoutMs,
    items: call.items,
    view,
    readable,
    fileAccess: mayReadHostFiles(session),
    signal: session.signal,
    account: () => queryAccount(session),
  };
  return session.runtime.engine.evaluate(request).then(checkPage);
}

/** A paged response whose page cannot be served: 416 with the length of the whole result. */
function checkPage(response: QueryResponse): QueryResponse {
  if (response.page && response.page.range === undefined) {
    const error = raise(CONDITION_ERRORS, 'ITEMS_NOT_SATISFIABLE_X', response.page.total);
    throw withHeaders(error, { 'Content-Range': contentRange('items', undefined, response.page.total) });
  }
  return response;
}

/**
 * Evaluates a query under the locks query-access.ts decides (the databases it can reach, with the
 * database of the URL), so that no write lands on them while it reads; the query sees only those
 * databases, and of them only the ones its user may read. An updating query's store changes are
 * applied in the same write, all or nothing, each judged by the database it changes
 * (guarded-store.ts).
 */
export function evaluateQuery(session: Session, input: QueryInput): Promise<Result> {
  const { source } = input;
  const result = evaluateLocked(session, input);
  if (source === undefined) return result;
  return result.catch((error: unknown) => {
    throw error instanceof LocatedQueryError ? error.in(source) : error;
  });
}

async function evaluateLocked(session: Session, input: QueryInput): Promise<Result> {
  const started = performance.now();
  const { engine, store } = session.runtime;
  const prepared = engine.prepare(input.query);
  const mixUpdates = mixesUpdates({ options: input.options ?? NO_OPTIONS });
  const analysis = prepared.analysis(mixUpdates);
  const parseMs = performance.now() - started;
  const { locks, write } = queryAccess(session.user, analysis, input.db);
  const call: QueryCall = {
    query: prepared,
    mixUpdates: mixUpdates || undefined,
    baseUri: input.baseUri,
    context: queryContext(input),
    variables: input.variables,
    serialization: input.serialization,
    items: input.items,
  };
  let response: QueryResponse;
  if (write) {
    response = await store.write(locks, (view) => runLockedQuery(session, view, locks, call));
  } else if (locks !== '*' && locks.length === 0) {
    response = await runUnlockedQuery(session, call);
  } else {
    response = await store.read(locks, (view) => runLockedQuery(session, view, locks, call));
  }
  const timing = serverTiming(parseMs, response.timings, performance.now() - started);
  if (response.page?.range) {
    const headers = { 'Content-Range': contentRange('items', response.page.range, response.page.total), 'Server-Timing': timing };
    return { status: 206, contentType: response.contentType, body: response.body, headers };
  }
  return { status: 200, contentType: response.contentType, body: response.body, headers: { 'Server-Timing': timing } };
}
