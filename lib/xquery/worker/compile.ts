/**
 * XSLT 3.0 source → SEF, in-process, with saxon-js's built-in compiler (the XX compiler that
 * fn:transform uses: `platform.resource("compiler")` run by `internalTransform` in mode
 * `compile-complete`, the result turned into a SEF tree by `XPath.sefToJSON`). No child process,
 * no xslt3 CLI.
 *
 * Compiled stylesheets live in a bounded LRU cache keyed by a digest of every static input (the
 * XSLT text and the static base URI), so a repeated query never compiles twice. Compilation is
 * synchronous, so within one thread concurrent requests for a key cannot race: the first one
 * fills the cache and the others find it. Compile errors are cached too (they are as
 * deterministic as successes). Across worker threads the pool shares compilations (see
 * host/pool.ts).
 */
import { LRUCache } from 'lru-cache';
import { DEFAULT_BASE_URI } from '../constants';
import { QueryError, toQueryError } from '../query-error';
import { dropOrderedSorts, markConstantGlobals, saxon, type SefTree } from '../../saxon';
import { compileKey, type CompileOptions } from '../compile-key';

export { compileKey, type CompileOptions } from '../compile-key';

export interface CompiledQuery {
  /** Digest of every static input; equal keys mean interchangeable compilations. */
  readonly key: string;
  /** The SEF tree, primed for `SaxonJS.transform` (shared: never modify it). */
  readonly sef: SefTree;
  /** The SEF as JSON text, for handing to another thread. */
  readonly sefText: string;
  readonly baseUri: string;
  /** Milliseconds the compilation took (0 when the SEF came from text). */
  readonly compileMs: number;
}

let compilerPackage: SefTree | undefined;

function linkParents(node: SefTree): void {
  if (!node.C) return;
  for (const child of node.C) {
    child.parentNode = node;
    linkParents(child);
  }
}

/**
 * The built-in compiler's own SEF, linked once per thread (~15 ms), its constant tables marked to
 * be computed once rather than in every compilation (patches/constant-globals.ts).
 */
function compiler(): SefTree {
  if (!compilerPackage) {
    compilerPackage = saxon().getPlatform().resource('compiler');
    linkParents(compilerPackage);
    markConstantGlobals(compilerPackage);
  }
  return compilerPackage;
}

const withoutParents = (k: string, v: unknown): unknown => (k === 'parentNode' ? undefined : v);

/**
 * Makes a SEF tree runnable: links parents and marks it primed, which is what
 * `SaxonJS.transform` does to a SEF file after verifying its checksum. Compiler output has no
 * checksum (fn:transform runs it directly); we produced it ourselves, so there is nothing to verify.
 */
function prime(sef: SefTree): SefTree {
  linkParents(sef);
  stampElementBaseUris(sef, undefined);
  sef.PRIMED = true;
  return sef;
}

/** SEF instructions that construct an element (literal result element, `xsl:element`). */
const ELEMENT_CONSTRUCTORS = new Set(['elem', 'compElem']);

/**
 * Gives every element constructor in the SEF the static base URI of its component (the
 * `baseUri` the compiler puts on components and on instructions with their own `xml:base`).
 * saxon-js gives a constructed element a base URI only from its instruction's own `baseUri`, so
 * a parentless `<e/>` or `element e {}` would have none; XQuery 3.1 §3.9.1.1 and §3.9.3.1 make it
 * the static base URI (an `xml:base` attribute on the element is resolved against it).
 */
function stampElementBaseUris(node: SefTree, inherited: string | undefined): void {
  const own = typeof node.baseUri === 'string' && node.baseUri !== '' ? node.baseUri : undefined;
  const base = own ?? inherited;
  if (!own && base && ELEMENT_CONSTRUCTORS.has(node.N)) node.baseUri = base;
  for (const child of node.C ?? []) stampElementBaseUris(child, base);
}

/**
 * Compiles without caching; throws a QueryError (phase `compile`) for an invalid stylesheet.
 * `key`: the compile key, when the caller has computed it.
 */
export function compileUncached(xslt: string, options: CompileOptions = {}, key = compileKey(xslt, options)): CompiledQuery {
  const baseUri = options.baseUri ?? DEFAULT_BASE_URI;
  const started = performance.now();
  let sefText: string;
  try {
    const pkg = compiler();
    const api = saxon();
    const platform = api.getPlatform();
    const source = platform.parseXmlFromString(xslt, true);
    source._saxonBaseUri = baseUri;
    source._saxonDocUri = baseUri;
    const staticParams = new api.XdmMap();
    staticParams.inSituPut(api.XS.QName.fromParts('', '', 'staticParameters'), [new api.XdmMap()]);
    const options0 = api.checkOptions({
      stylesheetInternal: pkg,
      stylesheetParams: staticParams,
      templateParams: {
        'Q{}options': { noXPath: false, 'enable-assertions': false, relocatable: false, allowSyntaxExtensions: false },
      },
      tunnelParams: {},
      functionParams: {},
      isDynamicStylesheet: true,
      isRelocatableStylesheet: true,
      destination: 'application',
      initialMode: 'compile-complete',
      outputProperties: {},
    });
    api.internalTransform(pkg, source, options0);
    const result = options0.principalResult;
    if (!result) throw new Error('the compiler produced no SEF');
    const tree = api.XPath.sefToJSON(result.firstChild);
    // the compiler sorts let and if expressions whose result has an order of its own (compiled-document-order.ts)
    dropOrderedSorts(tree);
    sefText = JSON.stringify(tree, withoutParents);
  } catch (e) {
    throw toQueryError(e, 'compile', baseUri);
  }
  const sef = prime(JSON.parse(sefText) as SefTree);
  return { key, sef, sefText, baseUri, compileMs: performance.now() - started };
}

/** Rebuilds a compiled query from SEF text made by `compileUncached` (in another thread). */
export function compiledFromText(key: string, sefText: string, baseUri: string): CompiledQuery {
  return { key, sef: prime(JSON.parse(sefText) as SefTree), sefText, baseUri, compileMs: 0 };
}

type Outcome = { readonly compiled: CompiledQuery } | { readonly error: QueryError };

export interface QueryCompilerOptions {
  /** Most compiled stylesheets (and compile errors) kept. */
  readonly max: number;
}

/** An LRU cache of compilations. One per thread is the intended use. */
export class QueryCompiler {
  private readonly cache: LRUCache<string, Outcome>;
  /** Compilations actually performed (cache misses). */
  compilations = 0;

  constructor(options: QueryCompilerOptions) {
    this.cache = new LRUCache<string, Outcome>({ max: options.max });
  }

  compile(xslt: string, options: CompileOptions = {}): CompiledQuery {
    const key = compileKey(xslt, options);
    let outcome = this.cache.get(key);
    if (!outcome) {
      this.compilations++;
      try {
        outcome = { compiled: compileUncached(xslt, options, key) };
      } catch (e) {
        outcome = { error: toQueryError(e, 'compile', options.baseUri ?? DEFAULT_BASE_URI) };
      }
      this.cache.set(key, outcome);
    }
    if ('error' in outcome) throw new QueryError(outcome.error.toData());
    return outcome.compiled;
  }

  /** A compilation made elsewhere (another thread) joins this cache. */
  adopt(compiled: CompiledQuery): void {
    this.cache.set(compiled.key, { compiled });
  }

  lookup(key: string): CompiledQuery | undefined {
    const outcome = this.cache.get(key);
    return outcome && 'compiled' in outcome ? outcome.compiled : undefined;
  }

  get size(): number {
    return this.cache.size;
  }

  clear(): void {
    this.cache.clear();
  }
}

/** The thread's shared compiler (at most 256 stylesheets). */
export const defaultCompiler = new QueryCompiler({ max: 256 });

/** Compiles XSLT 3.0 text, through `compiler`'s cache (the thread's shared one by default). */
export function compileStylesheet(
  xslt: string,
  options: CompileOptions & { readonly compiler?: QueryCompiler } = {},
): CompiledQuery {
  return (options.compiler ?? defaultCompiler).compile(xslt, options);
}
