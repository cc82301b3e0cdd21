/** Shared set-up for translator tests: one engine (one worker) per test file. */
import { createEngine, type Engine, type QueryContext } from '../../../../lib/xquery/engine/engine';
import { errorBody, LocatedQueryError } from '../../../../lib/xquery/static-errors';
import { rejection } from '../../../helpers/failure';

export interface RunOptions {
  readonly context?: QueryContext;
  readonly variables?: Record<string, { values: string[]; type?: string }>;
  readonly serialization?: Record<string, string>;
}

export interface EngineFixture {
  /** The result serialized with method=adaptive (items separated by a newline). */
  adaptive(query: string, options?: RunOptions): Promise<string>;
  /** The result with the default (basex) serialization and the request's parameters. */
  run(query: string, options?: RunOptions): Promise<{ body: string; contentType: string }>;
  /**
   * `ok ` and the adaptive result, or `error ` and the code raised: for comparing a rewritten
   * query with the form it must agree with, errors included.
   */
  outcome(query: string, context: QueryContext): Promise<string>;
  /** The error raised: code, XQuery line/column and the spec §12 body. */
  error(query: string, options?: RunOptions): Promise<{ code: string; line?: number; column?: number; body: string }>;
}

export function engineFixture(): EngineFixture {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine({ workers: 1, timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await engine.close();
  });
  const evaluate = (query: string, o: RunOptions = {}, serialization: Record<string, string> = {}) =>
    engine.evaluate({
      query,
      context: o.context ?? { kind: 'none' },
      variables: new Map(Object.entries(o.variables ?? {})),
      serialization: { ...serialization, ...o.serialization },
    });
  return {
    async adaptive(query, options) {
      return String((await evaluate(query, options, { method: 'adaptive' })).body);
    },
    async outcome(query, context) {
      try {
        return `ok ${String((await evaluate(query, { context }, { method: 'adaptive' })).body)}`;
      } catch (e) {
        if (e instanceof LocatedQueryError) return `error ${e.code}`;
        throw e;
      }
    },
    async run(query, options) {
      const r = await evaluate(query, options);
      return { body: String(r.body), contentType: r.contentType };
    },
    async error(query, options) {
      const e = await rejection(() => evaluate(query, options, { method: 'adaptive' }), LocatedQueryError);
      return { code: e.code, line: e.position?.line, column: e.position?.column, body: errorBody(e) };
    },
  };
}

/** One document as the query context. */
export const doc = (xml: string): QueryContext => ({ kind: 'documents', xml: [xml] });

/**
 * `query` with each `//` written out (`/descendant-or-self::node()/`), which the translator keeps
 * as axis steps: what the query answers without the rewrites of `//` (accelerators/name-index).
 */
export const unabbreviated = (query: string): string => query.replaceAll('//', '/descendant-or-self::node()/');
