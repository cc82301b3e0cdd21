/**
 * The results of pure queries (analysis/pure.ts), kept by the engine: the answer of a query whose
 * result is a function of its text, its external variables' values, its serialization parameters
 * and, over a database, the database's state is computed by the query host once and then answered
 * from here, without a round trip to the host. Bounded by entries and by bytes; a large result is
 * not kept.
 */
import { LRUCache } from 'lru-cache';
import type { QueryRequest, QueryResponse } from './engine';
import type { StringBinding } from '../worker/external-variables';
import type { PreparedQuery } from './prepared';

/** A result larger than this is evaluated every time. */
const MAX_RESULT_BYTES = 64 * 1024;
/** All kept results together. */
const MAX_TOTAL_BYTES = 8 * 1024 * 1024;

/** The timings of a kept answer: no compilation, evaluation or serialization of the run that gets it. */
const NO_TIME = { compileMs: 0, evaluateMs: 0, serializeMs: 0 } as const;

const bytes = (body: string | Buffer): number => (typeof body === 'string' ? 2 * body.length : body.byteLength);

/**
 * The key under which the result of a run is kept, or undefined when it may not be: the query is
 * not pure or updates, or the run has what a pure query's key does not hold — documents as its
 * context, a page of the result, a base URI of its own. The key holds the text, the bindings of
 * the external variables (in the translation's order) and the serialization parameters, and for a
 * database context the database, the path and the database's version (`versions`, as the run's
 * view reports them): a pure query reads nothing but its context, and a write to the database gives
 * it a new version (never one it had before: store/types.ts `ReadView.versions`), so a kept result
 * is never answered for another state of the database.
 */
export function keptResultKey(
  prepared: PreparedQuery,
  request: Pick<QueryRequest, 'context' | 'items' | 'baseUri' | 'serialization' | 'readable'>,
  externals: readonly (StringBinding | undefined)[],
  updating: boolean,
  versions?: ReadonlyMap<string, string>,
): string | undefined {
  if (updating || request.items || request.baseUri || !prepared.pure()) return undefined;
  const { context } = request;
  let state: readonly string[] = [];
  if (context.kind === 'database') {
    const version = versions?.get(context.db);
    // a result is shared by every user who may read the database: never kept from a run by one who may not
    if (version === undefined || (request.readable !== undefined && !request.readable.includes(context.db))) return undefined;
    state = [context.db, context.path, version];
  } else if (context.kind !== 'none') return undefined;
  const serialization = request.serialization;
  const params = Object.keys(serialization)
    .sort()
    .map((k) => [k, serialization[k]]);
  return JSON.stringify([prepared.text, externals.map((b) => (b ? [b.values, b.type ?? null] : null)), params, state]);
}

export class ResultMemo {
  private readonly results = new LRUCache<string, QueryResponse>({
    max: 4096,
    maxSize: MAX_TOTAL_BYTES,
    sizeCalculation: (r) => Math.max(1, bytes(r.body)),
  });

  get(key: string): QueryResponse | undefined {
    return this.results.get(key);
  }

  set(key: string, body: string | Buffer, contentType: string): void {
    if (bytes(body) <= MAX_RESULT_BYTES) this.results.set(key, { body, contentType, timings: NO_TIME });
  }
}
