/**
 * The one typed door to saxon-js 2.7.0. saxon-js ships no types and several entry points we
 * rely on are internal (the built-in XSLT compiler, `internalTransform`, `checkOptions`, the
 * iterator helpers, the atomic type table); they are named here and nowhere else, so an
 * upgrade of the pinned version has exactly one file to check.
 */
const SaxonJS = require('saxon-js') as SaxonApi;

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

interface AtomicType {
  readonly name: string;
  readonly code: string;
  fromString(value: string): XdmAtomic;
  fromNumber?(value: number): XdmAtomic;
  fromEQName?(eqname: string): XdmAtomic;
  fromParts?(prefix: string, uri: string, local: string): XdmAtomic;
}

interface Iterator {
  next(): XdmItem | null;
  expand(): XdmItem[];
}

interface Platform {
  /** What `ixsl:window()` answers, and so every call in the `globalJS` namespace: Node's `global`. */
  globalObject: object;
  resource(name: 'compiler'): SefTree;
  /** Reads a resource as text (guarded per run in query workers: modules/resource-guard.ts). */
  readFile(uri: string, encoding?: string): string;
  parseXmlFromString(text: string, stripSpace?: boolean): XdmNode & { _saxonBaseUri?: string; _saxonDocUri?: string };
}

interface SaxonApi {
  transform(options: Record<string, unknown>, mode: 'sync'): { principalResult: unknown };
  serialize(value: unknown, options: Record<string, unknown>): string;
  getPlatform(): Platform;
  checkOptions(options: Record<string, unknown>): Record<string, unknown> & { principalResult?: XdmNode & { firstChild: XdmNode } };
  internalTransform(stylesheet: SefTree, source: XdmNode, options: Record<string, unknown>): void;
  registerExtensionFunctions(def: { namespace: string; signatures: Record<string, { sig: string; arity?: number[]; impl: ExtensionImpl }> }): void;
  XPath: { sefToJSON(node: XdmNode): SefTree };
  XS: { QName: { fromParts(prefix: string, uri: string, local: string): XdmAtomic } };
  Atomic: { codes: Record<string, AtomicType> };
  XdmMap: new () => XdmMap;
  XdmArray: abstract new (...args: never[]) => XdmArray;
  XdmAtomicValue: abstract new (...args: never[]) => XdmAtomic;
  XdmAttributeNode: abstract new (...args: never[]) => XdmNode;
  XError: new (message: string, code: string) => SaxonError;
  internals: { Iter: { ForArray(items: XdmItem[]): Iterator } };
}

type ExtensionImpl = (args: Iterator[], context: unknown, expr: unknown) => Iterator;

export const saxon = SaxonJS;

// ---------------------------------------------------------------------------------------------
// xs:float canonical form
// ---------------------------------------------------------------------------------------------

/**
 * The canonical string of an xs:float (F&O 3.1 §19.1.2.2): the shortest decimal that maps back
 * to the same float32 value, in decimal notation for 1e-6 <= |x| < 1e6 (no trailing zeros, no
 * point for integral values), otherwise as mantissa `E` exponent with at least one fractional
 * digit (`1.0E11`, `1.2345E-7`).
 */
export function floatCanonical(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'INF' : '-INF';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const f = Math.fround(value);
  let shortest = f;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(f.toPrecision(digits));
    if (Math.fround(candidate) === f) {
      shortest = candidate;
      break;
    }
  }
  const abs = Math.abs(shortest);
  if (abs >= 1e-6 && abs < 1e6) return String(shortest);
  const [mantissa, exponent] = shortest.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/**
 * Runtime patch (saxon-js 2.7.0): its xs:double/xs:float class (`Va` in SaxonJS2N.js) writes an
 * xs:float by rounding the double expansion to 7 significant digits, so `xs:float(1e11)` comes
 * out as `9.9999998E10` and `xs:float('1.2345e-2')` as `0.01234`. That `toString` is what string(),
 * casts and element/attribute content use, so we replace it, for xs:float values only, with
 * `floatCanonical`. Applied by `applyQueryPatches` in threads that evaluate queries. If the
 * class no longer looks as expected (another saxon-js version), we throw instead of silently
 * keeping or breaking float output.
 */
function patchFloatToString(): void {
  const sample = SaxonJS.Atomic.codes[TypeCode.float]?.fromNumber?.(1) as XdmAtomic | undefined;
  const proto = sample ? (Object.getPrototypeOf(sample) as { toString: (this: XdmAtomic) => string; __floatPatched?: boolean }) : null;
  if (proto?.__floatPatched) return;
  const original = proto && Object.prototype.hasOwnProperty.call(proto, 'toString') ? proto.toString : null;
  if (!proto || !original || sample!.code !== TypeCode.float || !/"AF"===this\.code/.test(String(original)) || !/5E-8/.test(String(original))) {
    throw new Error('saxon-js float patch: the xs:float toString of saxon-js 2.7.0 was not found; review floatCanonical in lib/saxon/index.ts for this saxon-js version');
  }
  proto.toString = function floatAwareToString(this: XdmAtomic): string {
    return this.code === TypeCode.float ? floatCanonical(this.value as number) : original.call(this);
  };
  proto.__floatPatched = true;
}

// ---------------------------------------------------------------------------------------------
// Item kinds
// ---------------------------------------------------------------------------------------------

export function isAtomic(item: XdmItem): item is XdmAtomic {
  return item instanceof SaxonJS.XdmAtomicValue;
}

export function isMap(item: XdmItem): item is XdmMap {
  return item instanceof SaxonJS.XdmMap;
}

export function isArray(item: XdmItem): item is XdmArray {
  return item instanceof SaxonJS.XdmArray;
}

export function isNode(item: XdmItem): item is XdmNode {
  return !isAtomic(item) && typeof (item as XdmNode).nodeType === 'number';
}

/** Node kinds as saxon-js numbers them (13 is its own namespace-node object). */
export const NodeKind = {
  element: 1,
  attribute: 2,
  text: 3,
  processingInstruction: 7,
  comment: 8,
  document: 9,
  namespace: 13,
} as const;

/** An attribute node as saxon-js represents it. */
export interface XdmAttribute extends XdmNode {
  readonly name: string;
  readonly value: string;
}

/** A namespace node as saxon-js represents it (`q` is the namespace URI). */
export interface XdmNamespace extends XdmNode {
  readonly prefix: string;
  readonly q: string;
}

// ---------------------------------------------------------------------------------------------
// Atomic types
// ---------------------------------------------------------------------------------------------

const typesByName = new Map<string, AtomicType>();
for (const t of Object.values(SaxonJS.Atomic.codes)) typesByName.set(t.name, t);

/** The local name of an atomic value's type (`integer`, `string`, `dayTimeDuration`, …). */
export function atomicTypeName(value: XdmAtomic): string {
  return SaxonJS.Atomic.codes[value.code]?.name ?? 'anyAtomicType';
}

/** Whether `value` is an instance of the type with saxon code `code` (codes are prefix-coded). */
export function atomicDerivesFrom(value: XdmAtomic, code: string): boolean {
  return value.code.startsWith(code);
}

/** Saxon type codes of the primitive families we dispatch on. */
export const TypeCode = {
  string: 'AS',
  untypedAtomic: 'AZ',
  anyURI: 'AU',
  boolean: 'AB',
  decimal: 'AD',
  double: 'AO',
  float: 'AF',
  QName: 'AQ',
} as const;


/**
 * Runtime patch (saxon-js 2.7.0): its XML serializer (the emitter class behind
 * `Serializer.gi({method: 'xml'})`) declares, on each start tag, the in-scope namespaces that
 * differ from the parent's (`$i(inScope, parentInScope)` in SaxonJS2N.js) but never undeclares
 * the default namespace, so `<e xmlns="u"><a xmlns=""/></e>` is written as `<e xmlns="u"><a/></e>`
 * and `a` would read back in namespace `u`. We add the `xmlns=""` undeclaration (Serialization
 * 3.1 §5.1.6 namespace fixup) when the parent has a default namespace and the element has none.
 * Guarded like the float patch: a different emitter fails when the patch is applied.
 */
function patchDefaultNamespaceUndeclaration(): void {
  const serializer = (SaxonJS as unknown as { Serializer?: { gi?: (o: object, w: object) => unknown; StringWriter?: new () => object } }).Serializer;
  type Emitter = { b?: Emitter; $i?: (inScope: Record<string, string>, parent: Record<string, string>) => void; __nsPatched?: boolean };
  let emitter = serializer?.gi && serializer.StringWriter ? (serializer.gi({ method: 'xml' }, new serializer.StringWriter()) as Emitter) : undefined;
  while (emitter && typeof Object.getPrototypeOf(emitter).$i !== 'function') emitter = emitter.b;
  const proto = emitter ? (Object.getPrototypeOf(emitter) as Emitter & { b?: unknown }) : undefined;
  if (proto?.__nsPatched) return;
  const original = proto?.$i;
  if (!proto || !original || !String(original).includes(`' xmlns="'`)) {
    throw new Error('saxon-js namespace patch: the XML emitter of saxon-js 2.7.0 was not found; review lib/saxon/index.ts for this saxon-js version');
  }
  proto.$i = function declareNamespaces(this: { b: { write(s: string): void } }, inScope: Record<string, string>, parent: Record<string, string>): void {
    original.call(this, inScope, parent);
    if (parent[''] && !inScope['']) this.b.write(' xmlns=""');
  };
  proto.__nsPatched = true;
}


/**
 * Runtime patch (saxon-js 2.7.0): `xsl:element` and `xsl:attribute` check their `namespace`
 * value with an internal validator (`Expr.Ek` in SaxonJS2N.js, used by nothing else) that
 * rejects any whitespace, raising XTDE0835/XTDE0865 for `Q{z z}x`. In XQuery 3.1 a namespace URI
 * is any string (§3.9.3.1: no lexical check; only the reserved xml/xmlns bindings are errors,
 * and the translation raises those itself), so the validator accepts every string.
 * Guarded like the other patches: a different validator fails when the patch is applied.
 */
function patchNamespaceUriCheck(): void {
  const expr = (SaxonJS.internals as unknown as { Expr?: { Ek?: ((uri: string) => boolean) & { __nsUriPatched?: boolean } } }).Expr;
  const original = expr?.Ek;
  if (original?.__nsUriPatched) return;
  if (!expr || typeof original !== 'function' || !String(original).includes('/[ \\t\\r\\n]/.test(')) {
    throw new Error('saxon-js namespace-URI patch: the xsl:element namespace check of saxon-js 2.7.0 was not found; review lib/saxon/index.ts for this saxon-js version');
  }
  const anyString = (uri: string): boolean => typeof uri === 'string';
  expr.Ek = Object.assign(anyString, { __nsUriPatched: true });
}


/**
 * Applies the runtime patches above (each checks first that it finds saxon-js 2.7.0's code, and
 * throws otherwise). saxon-js is one module per thread, shared with the host application on the
 * main thread, so the patches are applied only in threads that run queries (worker/thread.ts),
 * never by importing the package.
 */
export function applyQueryPatches(): void {
  patchFloatToString();
  patchDefaultNamespaceUndeclaration();
  patchNamespaceUriCheck();
}

/**
 * Part of the wall in query workers (worker/host-wall.ts): saxon-js's host bindings reach
 * JavaScript through the platform's `globalObject` (`ixsl:window()`, which every call in the
 * `http://saxonica.com/ns/globalJS` namespace goes through, and `ixsl:get`/`call`/`apply` on
 * it). In a query worker it becomes an empty, frozen object, fixed for good. Checked first:
 * a platform whose global object is not Node's `global` is another saxon-js version.
 */
export function sealHostGlobal(): void {
  const platform = SaxonJS.getPlatform();
  const descriptor = Object.getOwnPropertyDescriptor(platform, 'globalObject');
  if (descriptor && !descriptor.writable && !descriptor.configurable) return;
  if (descriptor?.value !== globalThis) {
    throw new Error("saxon-js host wall: the platform's globalObject of saxon-js 2.7.0 was not found; review lib/saxon/index.ts for this saxon-js version");
  }
  Object.defineProperty(platform, 'globalObject', { value: Object.freeze(Object.create(null)), writable: false, configurable: false, enumerable: true });
}

/** Whether `local` names a built-in atomic type in the xs namespace. */
export function isAtomicTypeName(local: string): boolean {
  return typesByName.has(local);
}

/**
 * Casts a string to the built-in atomic type `local` (an xs: local name), as `$s cast as xs:T`.
 * Throws saxon's FORG0001 error for an invalid lexical form.
 */
export function castString(value: string, local: string): XdmAtomic {
  const type = typesByName.get(local);
  if (!type || local === 'anyAtomicType' || local === 'numeric' || local === 'notation') {
    throw new SaxonJS.XError(`Cannot cast to xs:${local}`, 'XPST0080');
  }
  if (local === 'QName') {
    const m = /^Q\{([^}]*)\}(.+)$/.exec(value.trim());
    if (m) return type.fromEQName!(value.trim());
    if (/^[^:\s]+$/.test(value.trim())) return type.fromParts!('', '', value.trim());
    throw new SaxonJS.XError(`No namespace is known for the prefix of "${value}"`, 'FONS0004');
  }
  return type.fromString(value);
}

export function stringValue(value: string): XdmAtomic {
  return typesByName.get('string')!.fromString(value);
}

/** A new XDM array with these members. */
export function arrayValue(members: XdmValue[]): XdmArray {
  return new (SaxonJS.XdmArray as unknown as new (members: XdmValue[]) => XdmArray)(members);
}

// ---------------------------------------------------------------------------------------------
// Documents and extension functions
// ---------------------------------------------------------------------------------------------

/** Parses XML text into a saxon-js document node (throws on malformed input). */
export function parseXml(text: string, baseUri?: string): XdmNode {
  const doc = SaxonJS.getPlatform().parseXmlFromString(text);
  if (baseUri) {
    doc._saxonBaseUri = baseUri;
    doc._saxonDocUri = baseUri;
  }
  return doc;
}

/**
 * An extension function: `impl` gets the argument values; with `lazy`, functions that evaluate
 * them (saxon-js hands arguments over as iterators, evaluated as they are read), for functions
 * that measure or decide when their arguments are evaluated.
 */
export type ExtensionFunction =
  | { readonly sig: string; readonly arity?: readonly number[]; readonly lazy?: false; readonly impl: (args: XdmValue[]) => XdmValue }
  | { readonly sig: string; readonly arity?: readonly number[]; readonly lazy: true; readonly impl: (args: (() => XdmValue)[]) => XdmValue };

/**
 * Registers JS functions callable from stylesheets as `Q{namespace}name(...)`. `sig` is saxon's
 * compact signature (`1F r[?ND] a[1AS]`: one function returning an optional document node from
 * one string). `arity` lets one name take several arities (trailing arguments omitted). Must run
 * before the stylesheets that call them are compiled.
 */
export function registerFunctions(
  namespace: string,
  functions: Record<string, ExtensionFunction>,
): void {
  const signatures: Record<string, { sig: string; arity?: number[]; impl: ExtensionImpl }> = {};
  for (const [name, f] of Object.entries(functions)) {
    signatures[name] = {
      sig: f.sig,
      ...(f.arity ? { arity: [...f.arity] } : {}),
      impl: f.lazy
        ? (args) => SaxonJS.internals.Iter.ForArray(f.impl(args.map((a) => () => a.expand())))
        : (args) => SaxonJS.internals.Iter.ForArray(f.impl(args.map((a) => a.expand()))),
    };
  }
  SaxonJS.registerExtensionFunctions({ namespace, signatures });
}

export function xpathError(message: string, code: string): SaxonError {
  return new SaxonJS.XError(message, code);
}
