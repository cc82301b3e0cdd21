/**
 * The XDM values of saxon-js 2.7.0 as the project sees them (saxon-js ships no types): nodes are
 * DOM nodes, atomic values carry saxon's type code, maps and arrays are saxon's own classes.
 */
/** An XDM node: saxon-js uses DOM nodes (plus its own attribute and namespace objects). */
export interface XdmNode {
  readonly nodeType: number;
  readonly nodeName?: string;
}

/** An XDM atomic value: `code` is saxon's type code (`AS` string, `ADI` integer, …). */
export interface XdmAtomic {
  readonly code: string;
  readonly value: unknown;
  toString(): string;
}

/** An XDM map (saxon's HashTrie). */
export interface XdmMap {
  keys(): XdmAtomic[];
  get(key: XdmAtomic): XdmItem[];
  inSituPut(key: XdmAtomic, value: XdmItem[]): void;
}

/** An XDM array: `value` holds one sequence per member. */
export interface XdmArray {
  readonly value: XdmItem[][];
}

/** A function item other than a map or an array. */
export interface XdmFunction {
  readonly arity: number;
  /** The function's name as a QName value; absent for anonymous functions. */
  readonly name?: { readonly q: string; readonly local: string; readonly prefix: string } | null;
}

export type XdmItem = XdmNode | XdmAtomic | XdmMap | XdmArray | XdmFunction;
/** A sequence, always as an array. */
export type XdmValue = XdmItem[];

/** A compiled stylesheet (SEF tree) ready for `SaxonJS.transform`. Opaque outside this folder. */
export interface SefTree {
  readonly N: string;
  PRIMED?: boolean;
  C?: SefTree[];
  parentNode?: SefTree;
  [field: string]: unknown;
}

/** saxon-js's error class (`XError`): code, message and, for run-time errors, the line. */
export interface SaxonError extends Error {
  code?: string;
  xsltLineNr?: string | number;
  xsltModule?: string;
  errorObject?: unknown;
}
