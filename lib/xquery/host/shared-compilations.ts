/**
 * Compilation shared across a pool's workers: the main thread keeps an LRU of compiled SEF text
 * by compile key (compile.ts `compileKey`); `fetch` makes concurrent requests for one key wait for
 * a single compilation, done in a worker under the requester's time limit. Compile errors are
 * cached like successes (they are as deterministic).
 *
 * A compilation may also be started ahead, with no request waiting for it (`compiledOrAhead`): the
 * engine does so for a query it runs on the runtime library until its own stylesheet is ready.
 * One such compilation runs at a time, so they never hold more than one worker: a stream of
 * queries that each come back once cannot fill the pool with compilations.
 */
import { LRUCache } from 'lru-cache';
import { compileKey, type CompileOptions } from '../compile-key';
import { QueryError, type QueryErrorData } from '../query-error';

/** A compiled stylesheet as SEF text, or the error compiling it raised. */
export type Compiled = { readonly sefText: string; readonly baseUri: string } | { readonly error: QueryErrorData };

/** Compiles in a worker (the pool's compile task). */
export type CompileInWorker = (xslt: string, options: CompileOptions, timeoutMs: number) => Promise<Compiled>;

/** A job named its stylesheet by a compile key that is not kept (SharedCompilations `kept`). */
export class UnknownCompileKey extends Error {
  constructor(readonly key: string) {
    super(`No compilation is kept for key ${key}.`);
    this.name = 'UnknownCompileKey';
  }
}

export class SharedCompilations {
  private readonly cache: LRUCache<string, Compiled, { xslt: string; options: CompileOptions; timeoutMs: number }>;
  /** Compilations sent to workers. */
  compilations = 0;
  /** The compilation started ahead that has not ended yet, if any. */
  private ahead: Promise<void> | undefined;
  /** Keys whose compilation ahead ran out of time (or memory): not started ahead again. */
  private readonly abandoned: LRUCache<string, true>;

  constructor(max: number, compileInWorker: CompileInWorker) {
    this.abandoned = new LRUCache({ max });
    this.cache = new LRUCache({
      max,
      fetchMethod: async (_key, _stale, { context }) => {
        this.compilations++;
        return compileInWorker(context.xslt, context.options, context.timeoutMs);
      },
    });
  }

  /** The compiled stylesheet for `xslt` (compiled now, or from the cache); a compile error rejects. */
  async compile(xslt: string, options: CompileOptions, timeoutMs: number): Promise<{ key: string; compiled: { readonly sefText: string; readonly baseUri: string }; cached: boolean }> {
    const key = compileKey(xslt, options);
    const cached = this.cache.has(key);
    // A compilation is shared by every request for the key, so it is not cancelled with one of them.
    const compiled = await this.cache.fetch(key, { context: { xslt, options, timeoutMs } });
    if (!compiled) throw new Error('compilation produced nothing');
    if ('error' in compiled) throw new QueryError(compiled.error);
    return { key, compiled, cached };
  }

  /**
   * The compilation kept under `key` (a job that names its stylesheet by key only, as the server
   * does once the host holds it: engine/query-host.ts); a kept compile error rejects, and a key
   * not kept (evicted, or compiled by a host process that has since ended) throws
   * `UnknownCompileKey`, for the server to send the text.
   */
  kept(key: string): { key: string; compiled: { readonly sefText: string; readonly baseUri: string }; cached: true } {
    const compiled = this.cache.get(key);
    if (!compiled) throw new UnknownCompileKey(key);
    if ('error' in compiled) throw new QueryError(compiled.error);
    return { key, compiled, cached: true };
  }

  /** Whether `xslt` has been compiled (or failed to); starts nothing. */
  has(xslt: string, options: CompileOptions): boolean {
    return this.cache.has(compileKey(xslt, options));
  }

  /**
   * Whether `xslt` has been compiled (or failed to), so that a run of it would not wait for a
   * compilation; when not, starts compiling it ahead, unless another compilation started ahead is
   * still running (a later call starts it then). A compilation that ends at a time or memory limit
   * is not started ahead again (it would take a worker for as long each time); after other
   * failures (a busy pool, a closed one) a later call tries again. Compile errors are kept as for
   * `compile`.
   */
  compiledOrAhead(xslt: string, options: CompileOptions, timeoutMs: number): boolean {
    const key = compileKey(xslt, options);
    if (this.cache.has(key)) return true;
    if (this.ahead || this.abandoned.has(key)) return false;
    this.ahead = this.cache
      .fetch(key, { context: { xslt, options, timeoutMs } })
      .then(
        () => undefined,
        (e: unknown) => {
          if (e instanceof QueryError) this.abandoned.set(key, true);
        },
      )
      .finally(() => (this.ahead = undefined));
    return false;
  }

  /** Settles once no compilation started ahead is running. */
  async aheadSettled(): Promise<void> {
    while (this.ahead) await this.ahead;
  }
}
