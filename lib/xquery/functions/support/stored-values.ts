/**
 * The stored form of `value` resources (db:put-value writes it, db:get-value reads it).
 *
 * A value resource is UTF-8 JSON text:
 *
 *   { "format": "xmldb-rest/value", "version": 1, "items": [ ITEM, ... ] }
 *
 * where ITEM is one of
 *   { "t": "<xs type local name>", "v": "<canonical lexical form>" }       atomic value (string,
 *        integer, double, date, untypedAtomic, anyURI, ... any built-in type; for xs:QName
 *        "v" is the EQName `Q{uri}local` and "p" the prefix, "" for none)
 *   { "t": "document", "xml": "<serialized XML>" }                        document node
 *   { "t": "element",  "xml": "<serialized XML>" }                        element (with its subtree)
 *   { "t": "attribute", "name": "Q{uri}local", "p": "prefix", "v": "value" }
 *   { "t": "text", "v": "..." } | { "t": "comment", "v": "..." }
 *   { "t": "processing-instruction", "name": "target", "v": "..." }
 *   { "t": "map", "entries": [ [ ITEM (the key), [ ITEM, ... ] (the value) ], ... ] }
 *   { "t": "array", "members": [ [ ITEM, ... ], ... ] }
 *
 * Function items (other than maps and arrays) and namespace nodes cannot be stored:
 * `encodeValue` raises FOTY0013 (BaseX refuses them too: "Function items cannot be cached").
 *
 * Decoded nodes are new nodes (node identity is not preserved across storage, as in BaseX).
 * An element comes back as the only child of a fresh document, an attribute on a fresh
 * element (saxon-js has no public way to build parentless elements or attributes); text,
 * comment and processing-instruction nodes come back parentless.
 *
 * `encodeValue` is what db:put-value must store (with resource type `value`); `decodeValue`
 * is what db:get-value returns.
 */
import { parseToCompactDom } from '../../../convert/xml';
import { serializeNode } from '../../serialization/node-output';
import {
  NodeKind,
  atomicTypeName,
  castString,
  isArray,
  isAtomic,
  isMap,
  isNode,
  saxon,
  xpathError,
  type XdmAtomic,
  type XdmAttribute,
  type XdmItem,
  type XdmNode,
  type XdmValue,
} from '../../../saxon';

export const VALUE_FORMAT = 'xmldb-rest/value';
export const VALUE_FORMAT_VERSION = 1;

export type StoredItem =
  | { readonly t: 'document' | 'element'; readonly xml: string }
  | { readonly t: 'attribute'; readonly name: string; readonly p: string; readonly v: string }
  | { readonly t: 'text' | 'comment'; readonly v: string }
  | { readonly t: 'processing-instruction'; readonly name: string; readonly v: string }
  | { readonly t: 'map'; readonly entries: readonly (readonly [StoredItem, readonly StoredItem[]])[] }
  | { readonly t: 'array'; readonly members: readonly (readonly StoredItem[])[] }
  | { readonly t: string; readonly v: string; readonly p?: string };

export interface StoredValue {
  readonly format: typeof VALUE_FORMAT;
  readonly version: number;
  readonly items: readonly StoredItem[];
}

/** saxon-js's xs:QName value: the URI is in `q`. */
interface QNameParts {
  readonly prefix?: string;
  readonly q?: string;
  readonly local: string;
}

interface DomLike extends XdmNode {
  readonly nodeValue?: string | null;
  readonly target?: string;
  readonly data?: string;
  readonly documentElement?: DomLike;
  readonly firstChild?: DomLike | null;
  readonly ownerDocument?: DomDocument | null;
  removeChild?(node: DomLike): DomLike;
}

interface DomDocument extends DomLike {
  createTextNode(text: string): DomLike;
  createComment(text: string): DomLike;
  createProcessingInstruction(target: string, data: string): DomLike;
}

/** Serializes a value to the stored form (the text of a `value` resource). */
export function encodeValue(value: XdmValue): string {
  const stored: StoredValue = { format: VALUE_FORMAT, version: VALUE_FORMAT_VERSION, items: value.map(encodeItem) };
  return JSON.stringify(stored);
}

/** Reads the stored form back into a value. Throws FODC0002 for text that is not a stored value. */
export function decodeValue(text: string, name = 'value'): XdmValue {
  let stored: StoredValue;
  try {
    stored = JSON.parse(text) as StoredValue;
  } catch {
    throw corrupt(name);
  }
  if (!stored || stored.format !== VALUE_FORMAT || !Array.isArray(stored.items)) throw corrupt(name);
  if (stored.version !== VALUE_FORMAT_VERSION) throw corrupt(name);
  return stored.items.map((item) => decodeItem(item, name));
}

function corrupt(name: string): Error {
  return xpathError(`Resource '${name}' does not contain a stored value.`, 'FODC0002');
}

/** A node as XML text, declaring the namespaces it uses (a tree built by a function may not: node-output.ts). */
function nodeText(node: XdmNode): string {
  return serializeNode(node, { method: 'xml', 'omit-xml-declaration': true });
}

function encodeItem(item: XdmItem): StoredItem {
  if (isAtomic(item)) return encodeAtomic(item);
  if (isNode(item)) return encodeNode(item);
  if (isMap(item)) {
    return { t: 'map', entries: item.keys().map((k) => [encodeAtomic(k), item.get(k).map(encodeItem)] as const) };
  }
  if (isArray(item)) return { t: 'array', members: item.value.map((member) => member.map(encodeItem)) };
  throw xpathError('Function items cannot be stored.', 'FOTY0013');
}

function encodeAtomic(item: XdmAtomic): StoredItem {
  const t = atomicTypeName(item);
  if (t === 'QName' || t === 'NOTATION') {
    const q = item as unknown as QNameParts;
    return { t, v: `Q{${q.q ?? ''}}${q.local}`, p: q.prefix ?? '' };
  }
  return { t, v: item.toString() };
}

function encodeNode(node: XdmNode): StoredItem {
  const dom = node as DomLike;
  switch (node.nodeType) {
    case NodeKind.document:
      return { t: 'document', xml: nodeText(node) };
    case NodeKind.element:
      return { t: 'element', xml: nodeText(node) };
    case NodeKind.attribute: {
      const a = node as XdmAttribute & { namespaceURI?: string | null; localName?: string; prefix?: string | null };
      return { t: 'attribute', name: `Q{${a.namespaceURI ?? ''}}${a.localName ?? a.name}`, p: a.prefix ?? '', v: a.value };
    }
    case NodeKind.text:
      return { t: 'text', v: dom.nodeValue ?? '' };
    case NodeKind.comment:
      return { t: 'comment', v: dom.nodeValue ?? '' };
    case NodeKind.processingInstruction:
      return { t: 'processing-instruction', name: dom.target ?? dom.nodeName ?? '', v: dom.data ?? dom.nodeValue ?? '' };
    default:
      throw xpathError('Namespace nodes cannot be stored.', 'FOTY0013');
  }
}

function decodeItem(item: StoredItem, name: string): XdmItem {
  if (!item || typeof item !== 'object' || typeof item.t !== 'string') throw corrupt(name);
  switch (item.t) {
    case 'document':
      return parseToCompactDom((item as { xml: string }).xml) as XdmNode;
    case 'element': {
      const doc = parseToCompactDom((item as { xml: string }).xml) as DomLike;
      return doc.documentElement as XdmNode;
    }
    case 'attribute': {
      const a = item as { name: string; p: string; v: string };
      const m = /^Q\{([^}]*)\}(.+)$/.exec(a.name);
      if (!m) throw corrupt(name);
      const [, uri, local] = m;
      const qname = a.p && uri ? `${a.p}:${local}` : uri ? `ns0:${local}` : local;
      const decl = uri ? ` xmlns:${a.p || 'ns0'}="${escapeAttr(uri)}"` : '';
      const doc = parseToCompactDom(`<x${decl} ${qname}="${escapeAttr(a.v)}"/>`) as DomLike;
      const xpath = saxon().XPath as unknown as { evaluate(expr: string, ctx: unknown, options: Record<string, unknown>): unknown };
      const attrs = xpath.evaluate('$e/@*', null, { params: { e: doc.documentElement }, resultForm: 'xdm' });
      return (Array.isArray(attrs) ? attrs[0] : attrs) as XdmItem;
    }
    case 'text':
      return scratchDocument().createTextNode((item as { v: string }).v);
    case 'comment':
      return scratchDocument().createComment((item as { v: string }).v);
    case 'processing-instruction': {
      const pi = item as { name: string; v: string };
      return scratchDocument().createProcessingInstruction(pi.name, pi.v);
    }
    case 'map': {
      const map = new (saxon().XdmMap)();
      for (const [key, value] of (item as unknown as { entries: [StoredItem, StoredItem[]][] }).entries) {
        map.inSituPut(decodeItem(key, name) as XdmAtomic, value.map((v) => decodeItem(v, name)));
      }
      return map;
    }
    case 'array': {
      const members = (item as unknown as { members: StoredItem[][] }).members.map((m) => m.map((v) => decodeItem(v, name)));
      const ArrayClass = saxon().XdmArray as unknown as new (members: XdmItem[][]) => XdmItem;
      return new ArrayClass(members);
    }
    default: {
      const a = item as { t: string; v: string; p?: string };
      if (typeof a.v !== 'string') throw corrupt(name);
      if (a.t === 'QName' && a.p) {
        const m = /^Q\{([^}]*)\}(.+)$/.exec(a.v);
        if (m) return saxon().XS.QName.fromParts(a.p, m[1], m[2]);
      }
      return castString(a.v, a.t);
    }
  }
}

let scratch: DomDocument | undefined;

function scratchDocument(): DomDocument {
  scratch ??= parseToCompactDom('<x/>') as DomDocument;
  return scratch;
}

function escapeAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}
