/**
 * The door to saxon-js 2.7.0 for the query engine: the typed package object, XDM item kinds and
 * atomic types, parsing into saxon's documents and extension functions. Loading the package is
 * load.ts's job; its runtime patches live in patches/ and are applied in query workers only.
 * lib/xml and lib/convert parse through xpath-parse.ts, which loads saxon-js only when used.
 */
import { loadSaxon, type AtomicType, type ExtensionImpl, type SaxonApi } from './load';
import type { SaxonError, XdmArray, XdmAtomic, XdmItem, XdmMap, XdmNode, XdmValue } from './types';

/**
 * saxon-js's API, loaded on the first call (load.ts): the server's main thread imports this
 * module's names with the translator and never loads saxon-js unless it runs it.
 */
export const saxon: () => SaxonApi = loadSaxon;

// ---------------------------------------------------------------------------------------------
// Item kinds
// ---------------------------------------------------------------------------------------------

/** saxon-js's class of atomic values, once it is loaded (tested for every item of a result). */
let atomicClass: SaxonApi['XdmAtomicValue'] | undefined;

export function isAtomic(item: XdmItem): item is XdmAtomic {
  return item instanceof (atomicClass ??= saxon().XdmAtomicValue);
}

export function isMap(item: XdmItem): item is XdmMap {
  return item instanceof saxon().XdmMap;
}

export function isArray(item: XdmItem): item is XdmArray {
  return item instanceof saxon().XdmArray;
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

/**
 * Whether `node` is a document node: a parsed or stored document, or a tree saxon-js builds
 * (`document {}`, temporary trees), which is a DOM document fragment (node type 11).
 */
export function isDocumentNode(node: XdmNode): boolean {
  return node.nodeType === NodeKind.document || node.nodeType === 11;
}

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

let types: Map<string, AtomicType> | undefined;

/** The built-in atomic types by local name. */
function typesByName(): Map<string, AtomicType> {
  if (!types) {
    types = new Map();
    for (const t of Object.values(saxon().Atomic.codes)) types.set(t.name, t);
  }
  return types;
}

/** The local name of an atomic value's type (`integer`, `string`, `dayTimeDuration`, …). */
export function atomicTypeName(value: XdmAtomic): string {
  return saxon().Atomic.codes[value.code]?.name ?? 'anyAtomicType';
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

/** Whether `local` names a built-in atomic type in the xs namespace. */
export function isAtomicTypeName(local: string): boolean {
  return typesByName().has(local);
}

/**
 * Casts a string to the built-in atomic type `local` (an xs: local name), as `$s cast as xs:T`.
 * Throws saxon's FORG0001 error for an invalid lexical form.
 */
export function castString(value: string, local: string): XdmAtomic {
  const type = typesByName().get(local);
  if (!type || local === 'anyAtomicType' || local === 'numeric' || local === 'notation') {
    throw new (saxon().XError)(`Cannot cast to xs:${local}`, 'XPST0080');
  }
  if (local === 'QName') {
    const m = /^Q\{([^}]*)\}(.+)$/.exec(value.trim());
    if (m) return type.fromEQName!(value.trim());
    if (/^[^:\s]+$/.test(value.trim())) return type.fromParts!('', '', value.trim());
    throw new (saxon().XError)(`No namespace is known for the prefix of "${value}"`, 'FONS0004');
  }
  return type.fromString(value);
}

/** An xs:double of value `value` (its string is saxon-js's canonical form: `1.0E6`, `0.5`, `NaN`). */
export function doubleValue(value: number): XdmAtomic {
  return typesByName().get('double')!.fromNumber!(value);
}

/** An xs:integer of value `value` (a safe integer). */
export function integerValue(value: number): XdmAtomic {
  return typesByName().get('integer')!.fromNumber!(value);
}

export function stringValue(value: string): XdmAtomic {
  return typesByName().get('string')!.fromString(value);
}

/** A new XDM array with these members. */
export function arrayValue(members: XdmValue[]): XdmArray {
  return new (saxon().XdmArray as unknown as new (members: XdmValue[]) => XdmArray)(members);
}

// ---------------------------------------------------------------------------------------------
// Documents and extension functions
// ---------------------------------------------------------------------------------------------

/** Parses XML text into a saxon-js document node (throws on malformed input). */
export function parseToSaxonDocument(text: string, baseUri?: string): XdmNode {
  const doc = saxon().getPlatform().parseXmlFromString(text);
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
        ? (args) => saxon().internals.Iter.ForArray(f.impl(args.map((a) => () => a.expand())))
        : (args) => saxon().internals.Iter.ForArray(f.impl(args.map((a) => a.expand()))),
    };
  }
  saxon().registerExtensionFunctions({ namespace, signatures });
}

export function xpathError(message: string, code: string): SaxonError {
  return new (saxon().XError)(message, code);
}

// ---------------------------------------------------------------------------------------------
// Attribute nodes
// ---------------------------------------------------------------------------------------------

/** An attribute of saxon-js's DOM as an element holds it. */
export interface DomAttribute {
  readonly name: string;
  readonly value: string;
  readonly namespaceURI?: string | null;
  readonly localName?: string | null;
}

/**
 * The attribute nodes of a parsed element as saxon-js's attribute axis answers them: its DOM
 * attributes, namespace declarations left out, each as an attribute node whose parent is the
 * element (saxon-js makes these objects afresh on each step and compares them by parent and name).
 */
export function attributeNodes(element: XdmNode): XdmNode[] {
  const Attr = saxon().XdmAttributeNode as unknown as new (name: unknown, value: string, parent: XdmNode) => XdmNode;
  return domAttributes(element).map((a) => {
    const colon = a.name.indexOf(':');
    const prefix = colon < 0 ? '' : a.name.slice(0, colon);
    return new Attr(saxon().XS.QName.fromParts(prefix, a.namespaceURI ?? '', a.localName ?? a.name.slice(colon + 1)), a.value, element);
  });
}

/** Whether an attribute of the DOM saxon-js reads, by its lexical name, is a namespace declaration (and so no attribute of XDM). */
export function isNamespaceDeclaration(name: string): boolean {
  return name === 'xmlns' || name.startsWith('xmlns:');
}

/** The DOM attributes of a parsed element in their order, namespace declarations left out. */
export function domAttributes(element: XdmNode): DomAttribute[] {
  const list = (element as unknown as { attributes?: ArrayLike<DomAttribute> }).attributes;
  const out: DomAttribute[] = [];
  for (let i = 0; list && i < list.length; i++) if (!isNamespaceDeclaration(list[i].name)) out.push(list[i]);
  return out;
}

/**
 * saxon-js's comparison of two nodes in document order, the one its steps sort by (in query
 * workers patched to compare nodes of compact trees by row: patches/document-order.ts).
 */
export function documentOrder(): (a: unknown, b: unknown) => number {
  const compare = (saxon().internals as unknown as { DomUtils?: { fb?: (a: unknown, b: unknown) => number } }).DomUtils?.fb;
  if (typeof compare !== 'function') throw new Error('saxon-js document order: DomUtils.fb not found');
  return compare;
}
