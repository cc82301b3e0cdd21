/**
 * Query evaluation (spec §6.1, §6.2, §7, §9): GET `?query=`, the QUERY method, POST `<query>`,
 * and `.xq` files of `run`. The context is the database (and path) of the URL unless documents
 * are given explicitly.
 */
import type { ReadView } from '../store/types';
import type { QueryContext, QueryResponse } from '../xquery/engine';
import { applyStoreChanges } from '../xquery/update/changes';
import { readableDatabases, requirePermission } from './permission';
import type { Result, Session, Variable } from './types';

export interface QueryInput {
  readonly query: string;
  readonly baseUri?: string;
  readonly db?: string;
  readonly path?: string;
  /** Context documents given with the request (XML texts); they replace the database context. */
  readonly context: readonly string[];
  readonly variables: ReadonlyMap<string, Variable>;
  readonly serialization: Readonly<Record<string, string>>;
}

export function queryContext(input: Pick<QueryInput, 'db' | 'path' | 'context'>): QueryContext {
  if (input.context.length > 0) return { kind: 'documents', xml: input.context };
  if (input.db !== undefined) return { kind: 'database', db: input.db, path: input.path ?? '' };
  return { kind: 'none' };
}

/**
 * Evaluates a query under shared locks of every database (a query may open any of them), so
 * that no write lands while it reads. An updating query (XQuery Update, db: write functions)
 * needs the write permission (create for db:create/drop/copy/alter) and runs under exclusive
 * locks of every database; its store changes are applied in the same write, all or nothing.
 */
export async function evaluateQuery(session: Session, input: QueryInput): Promise<Result> {
  const { engine, store } = session.runtime;
  const run = async (view: ReadView) =>
    engine.evaluate({
      query: input.query,
      baseUri: input.baseUri,
      context: queryContext(input),
      variables: input.variables,
      serialization: input.serialization,
      readable: await readableDatabases(session, view),
    });
  const analysis = engine.analyze(input.query);
  let response: QueryResponse;
  if (analysis.updating) {
    requirePermission(session, analysis.permission === 'create' ? 'create' : 'write');
    response = await store.write('*', async (view) => {
      const r = await run(view);
      await applyStoreChanges(view, r.changes ?? []);
      return r;
    });
  } else {
    response = await store.read('*', run);
  }
  return { status: 200, contentType: response.contentType, body: response.body };
}
