/**
 * The XQuery engine facade the REST layer calls.
 *
 *   const engine = createEngine({ dbPath, workers, timeoutMs, compiledCacheSize });
 *   const { body, contentType } = await engine.evaluate({ query, context, variables, serialization });
 *   await engine.close();
 *
 * Pipeline: prepare (parse, analyse, translate to XSLT per context mode: prepared.ts, one cache
 * keyed by the text) → run on the worker pool of the query host process (which compiles in a
 * worker, cached by XSLT + base URI) → serialized body. The result of a pure query (one that
 * reads nothing but its text and external variables: analysis/pure.ts) is kept and answered
 * again without a run (result-memo.ts). A
 * query that translates to one expression (translation.ts `Translation.xpath`: declared functions
 * as function items, declared and external variables as `let` bindings around the body) skips a
 * compilation of its own: the worker evaluates it with saxon-js's XPath evaluator, or on the
 * precompiled runtime library when it calls the library (see `runnable`).
 * Serialization parameters: the request's, overridden by the prolog's `declare option
 * output:*` (spec §11.1); the content type follows from them (serialization/response-encoding.ts).
 *
 * Errors are `LocatedQueryError`s (xquery/static-errors.ts): the code, the message, and the position in the
 * XQuery source; `errorBody(e)` gives the spec §12 text.
 */
import { LRUCache } from 'lru-cache';
import { compileKey } from '../compile-key';
import { DEFAULT_BASE_URI } from '../constants';
import { LocatedQueryError, locate, staticError } from '../static-errors';
import { QueryError, type QueryPhase } from '../query-error';
import type { StringBinding } from '../worker/external-variables';
import { encodeBody } from '../serialization/response-encoding';
import { PreparedQueries, type PreparedQuery } from './prepared';
import { keptResultKey, ResultMemo } from './result-memo';
import { lineColumn } from '../language/syntax';
import { CONTEXT_URI_PARAM, EXPRESSION_PARAM, FIRST_DATA_PARAM, firstToRun, libraryExpression, libraryStylesheet, type ContextMode, type Translation, type TriedFirst } from '../language/translate';
import { bindForExpression, literalBindings, runExpression, runSerialization } from './run-parts';
import { sourcePosition } from '../language/translate/unit';
import type { ContextSpec, QueryJob } from '../host/pool';
import type { QueryOutcome } from '../host/jobs';
import type { FirstCall } from '../protocol/protocol';
import { openQueryHost, type QueryRunner } from './shared-hosts';
import { encodingName } from '../serialization/params';
import type { Engine, EngineOptions, QueryContext, QueryRequest, QueryResponse, RunTimings } from './engine-api';

export function createEngine(options: EngineOptions = {}): Engine {
  return new XQueryEngine(options);
}

/** The versions of a run that may read no database. */
const NO_VERSIONS: ReadonlyMap<string, string> = new Map();

/**
 * Runs of a query shape on the runtime library before its own stylesheet is compiled (`runnable`).
 * A compilation costs tens to hundreds of milliseconds of a worker; a run on the library costs
 * the parse of its expression, well under a millisecond more than a run of the compiled
 * stylesheet. As when renting before buying, the compilation waits until the shape has shown
 * that it comes back: a shape run twice, as a console user runs a query again, or a test checks
 * an answer twice, never pays for one. Of the 67 compilations that a run of the test suite
 * started ahead on a shape's second run, 52 were of shapes that never ran a third time.
 */
const LIBRARY_RUNS_BEFORE_COMPILING = 2;

/** Time the compilation of the runtime library (translate/library.ts) may take. */
const LIBRARY_COMPILE_TIMEOUT_MS = 120_000;

class XQueryEngine implements Engine {
  /**
   * Queries run in a child process (engine/query-host.ts), in its pool of worker threads, shared
   * with the engines of this process that have the same settings (engine/shared-hosts.ts).
   */
  private readonly pool: QueryRunner;
  private readonly prepared: PreparedQueries;
  /** Compile keys of the expressions of queries run on the runtime library, and how often each ran there (see `runnable`). */
  private readonly libraryShapes = new LRUCache<string, number>({ max: 4096 });
  /** Results of pure queries (result-memo.ts). */
  private readonly results = new ResultMemo();

  constructor(options: EngineOptions) {
    const max = options.compiledCacheSize ?? 256;
    this.pool = openQueryHost({
      size: options.workers,
      timeoutMs: options.timeoutMs,
      cacheMax: max,
      documentSource: options.documentSource,
      output: options.output,
      maxQueued: options.maxQueued,
      heapMb: options.workerHeapMb,
      maxResultBytes: options.maxResultBytes,
      fileAccess: options.fileAccess,
      own: options.ownHost,
    });
    this.prepared = new PreparedQueries(max, { literalParams: options.literalParams ?? true });
  }

  prepare(query: string): PreparedQuery {
    return this.prepared.prepare(query);
  }

  async evaluate(request: QueryRequest): Promise<QueryResponse> {
    const started = performance.now();
    const prepared = typeof request.query === 'string' ? this.prepare(request.query) : request.query;
    const query = prepared.text;
    const { updating } = prepared.analysis(request.mixUpdates);
    const mode = contextMode(request.context);
    // A body that one call answers unless it declines (Translation.xpath.first) runs that call
    // alone first, translated without the body's plain form (translation.ts `translateFirstCall`):
    // the query is translated and run in full only when the call declines.
    const alone = updating ? undefined : prepared.firstTranslation(mode);
    let translation = alone ?? prepared.translation(mode);
    const params = boundParams(translation, request, query);
    let context: ContextSpec | undefined;
    let database: { db: string; path: string } | undefined;
    switch (request.context.kind) {
      case 'none':
        break;
      case 'documents':
        context = { xml: request.context.xml };
        break;
      case 'database': {
        const path = request.context.path.replace(/^\/+/, '');
        params[CONTEXT_URI_PARAM] = { values: [path ? `${request.context.db}/${path}` : request.context.db] };
        database = { db: request.context.db, path };
        break;
      }
    }
    const { serialization, contentType } = runSerialization(translation, request.serialization);
    // A run that may read no database sees no versions: without a view, it asks its reader for none.
    const readVersions = async () => (request.view ? await request.view.versions(request.readable ?? '*') : request.readable?.length === 0 ? NO_VERSIONS : undefined);
    // a result kept for a database context is kept for the database's version: read it first
    // (its wait is no part of the translation's time, as it was not when read after it)
    const waitStarted = performance.now();
    const early = database ? await readVersions() : undefined;
    const versionsMs = performance.now() - waitStarted;
    const memoKey = keptResultKey(prepared, request, translation.externals.map((ext) => params[ext.param]), updating, early);
    const kept = memoKey === undefined ? undefined : this.results.get(memoKey);
    if (kept) return kept;
    const compile = request.baseUri || translation.baseUri ? { baseUri: resolveBase(translation.baseUri, request.baseUri) } : undefined;
    let translateMs = performance.now() - started - versionsMs;
    const versions = database ? early : await readVersions();
    // One shape for every job, a property the run does not use left undefined (the pool reads an
    // undefined property as an absent one), rather than an object spread per optional part.
    const jobOf = (run: Runnable, xslt: string, bound: Record<string, StringBinding>): QueryJob => ({
      xslt,
      xpath: run.xpath,
      xpathShape: run.xpathShape,
      first: run.first,
      firstOnly: run.on === 'first' ? true : undefined,
      compile,
      // the library is compiled once for every query after it: its compilation is not bounded by one query's time limit
      compileTimeoutMs: run.on === 'library' ? LIBRARY_COMPILE_TIMEOUT_MS : undefined,
      // the call tried first alone has its parameters with it
      params: run.on === 'first' ? undefined : bound,
      context,
      serialization,
      timeoutMs: request.timeoutMs,
      readable: request.readable,
      view: request.view,
      versions,
      signal: request.signal,
      database,
      update: updating || undefined,
      items: request.items,
      fileAccess: request.fileAccess || undefined,
      account: request.account && prepared.usesAccount() ? request.account() : undefined,
    });
    const runOf = async (t: Translation, run: Runnable, xslt: string, bound: Record<string, StringBinding>): Promise<QueryOutcome> => {
      try {
        return await this.pool.run(jobOf(run, xslt, bound));
      } catch (e) {
        if (e instanceof QueryError) throw this.remap(e, query, t, run.on !== 'stylesheet');
        throw e;
      }
    };
    let outcome: QueryOutcome | undefined;
    if (alone) {
      const run: Runnable = { on: 'first', first: firstCall(firstToRun(alone, database !== undefined)!, params) };
      outcome = await runOf(alone, run, '', params);
      if (outcome.declined) outcome = undefined;
    }
    if (outcome === undefined) {
      // the query as a whole (the call tried first alone, if any, declined: it is not tried again)
      const fullStarted = performance.now();
      const full = alone ? prepared.translation(mode) : translation;
      // the full translation's literals beside what is bound above (its externals are the same)
      const bound = alone ? { ...params } : params;
      if (alone) bindLiterals(bound, full);
      const ownXslt = () => prepared.stylesheetTranslation(mode).xslt;
      const run = this.runnable(full, bound, updating, database !== undefined, compile !== undefined, ownXslt, alone === undefined);
      translation = full;
      if (run.on === 'stylesheet' && full.copiesConstructedElements) {
        // the query's own stylesheet: the translation that builds nested elements in place (the
        // same literals and externals, bound above; its literals again in case one differs)
        translation = prepared.stylesheetTranslation(mode);
        bindLiterals(bound, translation);
      }
      // an XPath run has no stylesheet (the pool does not read it): its text is never assembled
      const xslt = run.on === 'stylesheet' ? translation.xslt : run.on === 'library' ? libraryStylesheet() : '';
      translateMs += performance.now() - fullStarted;
      outcome = await runOf(translation, run, xslt, bound);
    }
    const encoding = serialization.encoding;
    const body = encoding && encodingName(encoding) !== 'utf8' ? encodeBody(outcome.body, encoding) : outcome.body;
    const timings: RunTimings = { compileMs: translateMs + outcome.compileMs, evaluateMs: outcome.evaluateMs, serializeMs: outcome.serializeMs };
    if (updating) return outcome.page ? { body, contentType, changes: outcome.changes ?? [], page: outcome.page, timings } : { body, contentType, changes: outcome.changes ?? [], timings };
    if (outcome.page) return { body, contentType, page: outcome.page, timings };
    if (memoKey !== undefined) this.results.set(memoKey, body, contentType);
    return { body, contentType, timings };
  }

  /**
   * How a query runs (translate/translation.ts `Translation.xpath`): its own stylesheet; one XPath
   * expression on saxon-js's evaluator (the literals of its predicates written in,
   * literals.ts `inlinePredicateLiterals`, with the expression as translated beside it as its
   * shape when that differs: the worker may run the shape, worker/xpath-plans.ts); or one expression on the runtime library, whose
   * expression parameter, and the library's parameters that carry the external variables, are then added to `params`. For either
   * expression, `params` also says which external variables with a default were given a value (run-parts.ts `bindForExpression`). The library has the default static base
   * URI, so a query with its own base URI (`ownBase`) runs its stylesheet. The library parses
   * the expression on every run, a compiled stylesheet is cached and shared by queries that
   * differ only in literals. A query shape seen a third time (LIBRARY_RUNS_BEFORE_COMPILING) has
   * its own stylesheet (`ownXslt`) compiled in the background, and runs on it once that is done: until then the library answers
   * it, so no run waits for a compilation (hundreds of milliseconds) it could do without. An
   * updating query runs where any other would (its pending updates are applied from the result,
   * whichever ran it). A query that is a FLWOR engine:leaf-tuples evaluates tries that call first
   * (`first`, translation.ts `Translation.xpath.first`), on whichever of these it runs: its
   * answer spares the worker the parse of the library's expression and the run of a stylesheet.
   * `tryFirst` is false once that call ran alone and declined (`evaluate`).
   */
  private runnable(
    t: Translation,
    params: Record<string, StringBinding>,
    updating: boolean,
    databaseContext: boolean,
    ownBase: boolean,
    ownXslt: () => string,
    tryFirst: boolean,
  ): Runnable {
    const { expression, inlined, first } = runExpression(t, databaseContext);
    if (expression === undefined) return OWN_STYLESHEET;
    const call = first && tryFirst && !updating ? firstCall(first, params) : undefined;
    if (inlined !== undefined) {
      bindForExpression(params, t);
      return { on: 'xpath', xpath: inlined, xpathShape: inlined === expression ? undefined : expression, first: call };
    }
    if (ownBase) return OWN_STYLESHEET;
    // the shape by its expression, which is its stylesheet's body: the stylesheet's text is made
    // only for a shape seen a third time
    const shape = compileKey(expression);
    const runs = this.libraryShapes.get(shape) ?? 0;
    if (runs < LIBRARY_RUNS_BEFORE_COMPILING) this.libraryShapes.set(shape, runs + 1);
    else if (this.pool.compiledOrAhead(ownXslt())) return { on: 'stylesheet', first: call };
    bindForExpression(params, t, true);
    params[EXPRESSION_PARAM] = { values: [libraryExpression(expression, t.literals, t.externals)] };
    return { on: 'library', first: call };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** A saxon-js error on a generated XSLT line → the XQuery position; XSLT codes → XQuery ones. */
  private remap(e: QueryError, query: string, t: Translation, asExpression: boolean): QueryError {
    // time, memory and size limits are about the whole run: no position to give
    if (e.phase === 'serialize' || e.code === 'BASX0003' || e.code === 'XPDY0130') return e;
    // a run as one expression has no lines of its own (an XPath run reports none, a line of the
    // library is not one of the query): the error is in the body, where the XSLT line would point too
    const whole = t.xpath && (asExpression || e.line === undefined);
    // nor for a request's value that does not fit its variable's type: it is not in the query
    const position = e.phase === 'bind' ? undefined : whole ? lineColumn(query, t.xpath!.offset) : sourcePosition(query, t.lineOffsets, e.line);
    const data = e.toData();
    const code = XSLT_CODES[data.code] ?? data.code;
    return locate(new QueryError({ ...data, code, message: variableMessage(data.message, t, data.phase) }), position);
  }
}

/** Where a query runs (Engine `runnable`; 'first': the call tried first alone), and the expressions of a run as XPath. */
interface Runnable {
  readonly on: 'first' | 'stylesheet' | 'xpath' | 'library';
  readonly xpath?: string;
  readonly xpathShape?: string;
  readonly first?: FirstCall;
}

const OWN_STYLESHEET: Runnable = { on: 'stylesheet' };

/**
 * The call tried first with the run's parameters (literals, the database context; a query that
 * has one binds no external variable, translation.ts) and its data, before the expression's own
 * parameters are added.
 */
function firstCall(first: TriedFirst, params: Readonly<Record<string, StringBinding>>): FirstCall {
  return { expression: first.expression, params: { ...params, [FIRST_DATA_PARAM]: { values: [first.data] } } };
}

/**
 * saxon-js names an external variable by its stylesheet parameter (`… in stylesheet parameter
 * Q{}a`), and so does the cast of a request's values (`$Q{}a: 2 values supplied …`,
 * worker/external-variables.ts); the client knows it as `$a` (spec §9.1).
 */
function variableMessage(message: string, t: Translation, phase: QueryPhase): string {
  const name = (param: string): string => {
    const ext = t.externals.find((x) => x.param === param || `Q{${x.uri}}${x.local}` === param);
    return ext ? (ext.uri === '' ? ext.local : `Q{${ext.uri}}${ext.local}`) : param.replace(/^Q\{\}/, '');
  };
  if (phase === 'bind') return message.replace(/^\$(Q\{[^}]*\}[^\s:]+):/, (_all, param: string) => `$${name(param)}:`);
  return message.replace(/ in stylesheet parameter (Q\{[^}]*\}[^\s.,;]+)/, (_all, param: string) => ` for $${name(param)}`);
}

/** XSLT error codes that surface for XQuery constructs, and the XQuery code they stand for. */
export const XSLT_CODES: Readonly<Record<string, string>> = {
  XTTE0570: 'XPTY0004', // variable value does not match its type
  XTTE0590: 'XPTY0004', // parameter value does not match its type
  XTTE0780: 'XPTY0004', // function result does not match its type
  XTTE0790: 'XPTY0004', // function argument does not match its type
  XTDE0640: 'XQDY0054', // circular variable definition
  XTDE0700: 'XPDY0002',
};

/** The parameters of a run of `t`: its literals and the request's values of its external variables (XPDY0002 for a required one without). */
function boundParams(t: Translation, request: QueryRequest, query: string): Record<string, StringBinding> {
  const params: Record<string, StringBinding> = {};
  bindLiterals(params, t);
  for (const ext of t.externals) {
    const binding = findBinding(request.variables, ext.uri, ext.local, t);
    if (binding) params[ext.param] = { values: binding.values, type: binding.type ?? ext.type };
    else if (ext.required) {
      throw new LocatedQueryError(
        { code: 'XPDY0002', message: `No value assigned to $${ext.local}.`, status: 500, phase: 'evaluate' },
        sourcePosition(query, [undefined, ext.offset], 1),
      );
    }
  }
  return params;
}

/** Binds each literal of `t` to its stylesheet parameter. */
function bindLiterals(params: Record<string, StringBinding>, t: Translation): void {
  for (const [param, binding] of literalBindings(t)) params[param] = binding;
}

function contextMode(context: QueryContext): ContextMode {
  switch (context.kind) {
    case 'none':
      return 'none';
    case 'documents':
      return context.xml.length === 1 ? 'single' : 'multi';
    case 'database':
      return 'multi';
  }
}

function findBinding(
  variables: QueryRequest['variables'],
  uri: string,
  local: string,
  _t: Translation,
): { values: readonly string[]; type?: string } | undefined {
  const direct = variables.get(`Q{${uri}}${local}`) ?? (uri === '' ? variables.get(local) ?? variables.get(`$${local}`) : undefined);
  if (direct) return direct;
  for (const [name, binding] of variables) {
    const m = /^\$?(?:([^:{}]+):)?([^:{}]+)$/.exec(name);
    if (m && m[2] === local && uri !== '' && m[1] !== undefined) return binding;
  }
  return undefined;
}

function resolveBase(declared: string | null, requested: string | undefined): string | undefined {
  if (!declared) return requested;
  // an absolute URI is the base URI as written (WHATWG URL would add a path: `http://h` → `http://h/`)
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(declared)) return declared;
  try {
    return new URL(declared, requested ?? DEFAULT_BASE_URI).href;
  } catch {
    return declared;
  }
}

export { errorBody, LocatedQueryError } from '../static-errors';
export type { CancelSignal } from '../host/pool';
export { staticError };
export type { Engine, EngineOptions, QueryContext, QueryRequest, QueryResponse, RunTimings } from './engine-api';
