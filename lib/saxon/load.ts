/**
 * The only module that loads saxon-js (the project pins 2.7.0). saxon-js ships no types and
 * several entry points the project relies on are internal (the built-in XSLT compiler,
 * `internalTransform`, `checkOptions`, the iterator helpers, the atomic type table, the
 * platform); they are typed here and nowhere else, so an upgrade of the pinned version has one
 * folder to check. The package is loaded on first use: threads that never parse XML nor run
 * queries (conversion offload threads) never load it.
 */
import { readFileSync } from 'node:fs';
import { publishCodeCache, requireFromCodeCache } from './code-cache';
import { patchSaxonSource } from './patches/source';
import type { SaxonError, SefTree, XdmArray, XdmAtomic, XdmItem, XdmMap, XdmNode } from './types';

export interface AtomicType {
  readonly name: string;
  readonly code: string;
  fromString(value: string): XdmAtomic;
  fromNumber?(value: number): XdmAtomic;
  fromEQName?(eqname: string): XdmAtomic;
  fromParts?(prefix: string, uri: string, local: string): XdmAtomic;
}

export interface Iterator {
  next(): XdmItem | null;
  expand(): XdmItem[];
}

export interface Platform {
  /** What `ixsl:window()` answers, and so every call in the `globalJS` namespace: Node's `global`. */
  globalObject: object;
  resource(name: 'compiler'): SefTree;
  /** Reads a resource as text (guarded in query workers: patches/platform-resources.ts). */
  readFile(uri: string, encoding?: string): string;
  parseXmlFromString(text: string, stripSpace?: boolean): XdmNode & { _saxonBaseUri?: string; _saxonDocUri?: string };
}

export interface SaxonApi {
  transform(options: Record<string, unknown>, mode: 'sync'): { principalResult: unknown };
  serialize(value: unknown, options: Record<string, unknown>): string;
  getPlatform(): Platform;
  checkOptions(options: Record<string, unknown>): Record<string, unknown> & { principalResult?: XdmNode & { firstChild: XdmNode } };
  internalTransform(stylesheet: SefTree, source: XdmNode, options: Record<string, unknown>): void;
  registerExtensionFunctions(def: { namespace: string; signatures: Record<string, { sig: string; arity?: number[]; impl: ExtensionImpl }> }): void;
  XPath: {
    sefToJSON(node: XdmNode): SefTree;
    evaluate(xpath: string, context: unknown, options?: Record<string, unknown>): unknown;
  };
  XS: { QName: { fromParts(prefix: string, uri: string, local: string): XdmAtomic } };
  Atomic: { codes: Record<string, AtomicType> };
  XdmMap: new () => XdmMap;
  XdmArray: abstract new (...args: never[]) => XdmArray;
  XdmAtomicValue: abstract new (...args: never[]) => XdmAtomic;
  XdmAttributeNode: abstract new (...args: never[]) => XdmNode;
  XError: new (message: string, code: string) => SaxonError;
  internals: { Iter: { ForArray(items: XdmItem[]): Iterator } };
}

export type ExtensionImpl = (args: Iterator[], context: unknown, expr: unknown) => Iterator;

let loaded: SaxonApi | undefined;

/**
 * saxon-js, loaded on the first call from the code cache (code-cache.ts): the main thread
 * publishes the cache first, a query worker receives it.
 */
export function loadSaxon(): SaxonApi {
  if (!loaded) {
    const file = require.resolve('saxon-js');
    // read and patched once per process: by the main thread, which publishes the text with the
    // cache; a worker makes it only when none was published
    let text: string | undefined;
    const source = () => (text ??= patchedSource(file));
    publishCodeCache(file, source); // main thread only, once
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = (requireFromCodeCache(file, source) ?? require('saxon-js')) as SaxonApi;
  }
  return loaded;
}

/** Whether this thread has loaded saxon-js (`loadSaxon`): a router's main thread leaves it to the query workers. */
export function saxonLoaded(): boolean {
  return loaded !== undefined;
}

/** Main thread, before starting query workers: publishes saxon-js's code cache for them (code-cache.ts). */
export function publishSaxonCodeCache(): void {
  const file = require.resolve('saxon-js');
  publishCodeCache(file, () => patchedSource(file));
}

/**
 * saxon-js's script with the source patches (patches/source.ts): what runs wherever it is
 * loaded from the code cache. Where it is required as Node loads it (a thread without a published
 * cache), the script runs unpatched: slower, and with its HTTP client, which the resource guard of
 * the query workers keeps from every request (patches/platform-resources.ts). (The test suite's
 * registry applies the patches too: scripts/jest-saxon.js.)
 */
function patchedSource(file: string): string {
  return patchSaxonSource(readFileSync(file, 'utf8'));
}
