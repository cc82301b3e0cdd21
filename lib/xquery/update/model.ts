/**
 * The tree that pending updates are applied to.
 *
 * saxon-js's DOM cannot rename nodes nor set namespaced attributes, its serializer does no
 * namespace fix-up, and stored documents are shared by every query of a worker (never to be
 * modified). So updates are never applied to saxon nodes: the affected tree is converted into
 * this small mutable model (`toModel`, which also maps every saxon node to its model node), the
 * primitives change the model, and `serializeModel` writes XML text with namespace fix-up. The
 * text becomes a stored document (normalised by convert/xml.ts `parseToStoredXml`) or, for
 * copy-modify, fresh saxon nodes again (`toSaxon`).
 */
import { escapeAttribute, escapeText } from '../../xml';
import { NodeKind, saxon, type XdmNode } from '../../saxon';

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

export interface MAttribute {
  uri: string;
  prefix: string;
  local: string;
  value: string;
}

export interface MElement {
  readonly kind: 'element';
  uri: string;
  prefix: string;
  local: string;
  attributes: MAttribute[];
  /** Namespace declarations written on this element: prefix ('' = default) → URI. */
  namespaces: Map<string, string>;
  children: MChild[];
  parent: MParent | null;
}

export interface MDocument {
  readonly kind: 'document';
  children: MChild[];
  parent: null;
}

export interface MLeaf {
  readonly kind: 'text' | 'comment' | 'pi';
  /** Processing-instruction target. */
  target?: string;
  value: string;
  parent: MParent | null;
}

export type MChild = MElement | MLeaf;
export type MParent = MElement | MDocument;
export type MNode = MChild | MDocument;

// ---------------------------------------------------------------------------------------------
// saxon-js nodes (its own small DOM, plus attribute objects with `parent`)

interface DomList<T> {
  readonly length: number;
  readonly [index: number]: T;
}

export interface DomNode extends XdmNode {
  readonly nodeName?: string;
  readonly namespaceURI?: string | null;
  readonly localName?: string | null;
  readonly prefix?: string | null;
  readonly parentNode?: DomNode | null;
  readonly childNodes?: DomList<DomNode>;
  readonly attributes?: DomList<DomAttr>;
  readonly data?: string;
  readonly target?: string;
  readonly nodeValue?: string | null;
  readonly ownerDocument?: DomNode | null;
}

interface DomAttr {
  readonly name: string;
  readonly value: string;
  readonly namespaceURI?: string | null;
  readonly localName?: string | null;
  readonly prefix?: string | null;
}

/** An XDM attribute node as saxon-js hands it out: its element is `parent`. */
export interface XdmAttr extends XdmNode {
  readonly name: string;
  readonly value: string;
  readonly namespaceURI?: string | null;
  readonly localName?: string | null;
  readonly prefix?: string | null;
  readonly parent?: DomNode | null;
}

/** The parent of a node in XDM terms (attributes: their element; none: null). */
export function parentOf(n: XdmNode): DomNode | null {
  if (n.nodeType === NodeKind.attribute) return (n as XdmAttr).parent ?? null;
  return (n as DomNode).parentNode ?? null;
}

/** The root of a node's tree. */
export function rootOf(n: XdmNode): XdmNode {
  let cur: XdmNode = n;
  for (let p = parentOf(cur); p; p = parentOf(cur)) cur = p;
  return cur;
}

function splitName(name: string): { prefix: string; local: string } {
  const i = name.indexOf(':');
  return i < 0 ? { prefix: '', local: name } : { prefix: name.slice(0, i), local: name.slice(i + 1) };
}

/** The name of an attribute node (XDM or DOM form). */
export function attributeName(a: DomAttr): { uri: string; prefix: string; local: string } {
  const split = splitName(a.name);
  return { uri: a.namespaceURI ?? '', prefix: a.prefix ?? split.prefix, local: a.localName ?? split.local };
}

/** The name of an element node. */
export function elementName(e: DomNode): { uri: string; prefix: string; local: string } {
  const split = splitName(e.nodeName ?? '');
  return { uri: e.namespaceURI ?? '', prefix: split.prefix, local: e.localName ?? split.local };
}

/** Namespaces in scope on a saxon element: prefix ('' = default) → URI ('' = undeclared). */
export function inScopeNamespaces(e: DomNode | null): Map<string, string> {
  const chain: DomNode[] = [];
  for (let n: DomNode | null | undefined = e; n && n.nodeType === NodeKind.element; n = n.parentNode) chain.push(n);
  const out = new Map<string, string>();
  for (const el of chain.reverse()) {
    for (const [p, u] of declarations(el)) out.set(p, u);
    const name = elementName(el);
    if (name.prefix !== '' || name.uri !== '') out.set(name.prefix, name.uri);
  }
  return out;
}

/** The namespace declarations (xmlns attributes) of a saxon element. */
function declarations(e: DomNode): [string, string][] {
  const out: [string, string][] = [];
  const attrs = e.attributes;
  if (!attrs) return out;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i];
    if (a.namespaceURI !== XMLNS_NS && a.name !== 'xmlns' && !a.name.startsWith('xmlns:')) continue;
    const prefix = a.name === 'xmlns' ? '' : a.name.slice(6);
    if (prefix !== 'xml') out.push([prefix, a.value]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// saxon → model

/**
 * Converts a saxon node and its subtree into a model tree. `index`, if given, receives every
 * converted node (elements, documents, text, comments, PIs) keyed by its saxon node; attributes
 * are found through their element. `inherit`: declare the namespaces in scope from the node's
 * ancestors on the new root (a copy keeps its in-scope namespaces).
 */
export function toModel(node: XdmNode, index?: Map<object, MNode>, inherit = true): MNode {
  if (node.nodeType === NodeKind.attribute) throw new Error('toModel: attributes are converted with attributeToModel');
  const root = convert(node as DomNode, null, index);
  if (inherit && root.kind === 'element') {
    const parent = (node as DomNode).parentNode;
    if (parent && parent.nodeType === NodeKind.element) {
      for (const [p, u] of inScopeNamespaces(parent)) if (!root.namespaces.has(p) && u !== '') root.namespaces.set(p, u);
    }
  }
  return root;
}

export function attributeToModel(a: XdmAttr): MAttribute {
  const n = attributeName(a);
  return { uri: n.uri, prefix: n.prefix, local: n.local, value: a.value };
}

function convert(n: DomNode, parent: MParent | null, index?: Map<object, MNode>): MNode {
  let out: MNode;
  switch (n.nodeType) {
    case NodeKind.document:
    case 11: {
      const doc: MDocument = { kind: 'document', children: [], parent: null };
      doc.children = children(n, doc, index);
      out = doc;
      break;
    }
    case NodeKind.element: {
      const name = elementName(n);
      const el: MElement = { kind: 'element', uri: name.uri, prefix: name.prefix, local: name.local, attributes: [], namespaces: new Map(declarations(n)), children: [], parent };
      const attrs = n.attributes;
      if (attrs) {
        for (let i = 0; i < attrs.length; i++) {
          const a = attrs[i];
          if (a.namespaceURI === XMLNS_NS || a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
          const an = attributeName(a);
          el.attributes.push({ uri: an.uri, prefix: an.prefix, local: an.local, value: a.value });
        }
      }
      el.children = children(n, el, index);
      out = el;
      break;
    }
    case NodeKind.text:
    case 4:
      out = { kind: 'text', value: n.data ?? n.nodeValue ?? '', parent };
      break;
    case NodeKind.comment:
      out = { kind: 'comment', value: n.data ?? n.nodeValue ?? '', parent };
      break;
    case NodeKind.processingInstruction:
      out = { kind: 'pi', target: n.target ?? n.nodeName ?? '', value: n.data ?? n.nodeValue ?? '', parent };
      break;
    default:
      throw new Error(`toModel: unexpected node type ${n.nodeType}`);
  }
  index?.set(n, out);
  return out;
}

function children(n: DomNode, parent: MParent, index?: Map<object, MNode>): MChild[] {
  const list = n.childNodes;
  const out: MChild[] = [];
  if (!list) return out;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c.nodeType === 10) continue; // a doctype
    out.push(convert(c, parent, index) as MChild);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// model → XML text, with namespace fix-up

/**
 * Serializes a model node as XML text (no declaration). Namespace fix-up: every element and
 * attribute name gets a binding in scope (declared where missing, a fresh prefix where its own
 * is taken on the same element), `xmlns=""` undeclares a default namespace where a
 * no-namespace element needs it, and declarations already in scope are not repeated.
 */
export function serializeModel(node: MNode, inScope: ReadonlyMap<string, string> = new Map()): string {
  const out: string[] = [];
  write(node, new Map(inScope), out);
  return out.join('');
}

function write(node: MNode, scope: Map<string, string>, out: string[]): void {
  switch (node.kind) {
    case 'document':
      for (const c of node.children) write(c, scope, out);
      return;
    case 'text':
      out.push(escapeText(node.value));
      return;
    case 'comment':
      out.push(`<!--${node.value}-->`);
      return;
    case 'pi':
      out.push(`<?${node.target}${node.value ? ` ${node.value}` : ''}?>`);
      return;
    case 'element':
      writeElement(node, scope, out);
  }
}

function writeElement(el: MElement, outer: Map<string, string>, out: string[]): void {
  const scope = new Map(outer);
  const decls = new Map<string, string>();
  const declare = (p: string, u: string): void => {
    decls.set(p, u);
    scope.set(p, u);
  };
  for (const [p, u] of el.namespaces) {
    if (p === 'xml') continue;
    if (p !== '' && u === '') continue; // prefix undeclarations are XML 1.1 only
    if ((scope.get(p) ?? '') !== u) declare(p, u);
  }
  // the element's name
  let prefix = el.prefix;
  if (el.uri === '') {
    prefix = '';
    if ((scope.get('') ?? '') !== '') declare('', '');
  } else if (el.uri === XML_NS) {
    prefix = 'xml';
  } else if ((scope.get(prefix) ?? '') !== el.uri) {
    if (decls.has(prefix) && decls.get(prefix) !== el.uri) prefix = freshPrefix(scope);
    declare(prefix, el.uri);
  }
  // attribute names: keep the prefix where it is bound (or can be bound here) to the URI
  const used = new Set<string>([prefix]);
  const attrs: string[] = [];
  for (const a of el.attributes) {
    let p = a.prefix;
    if (a.uri === '') p = '';
    else if (a.uri === XML_NS) p = 'xml';
    else if (p === '' || scope.get(p) !== a.uri) {
      if (p !== '' && !decls.has(p) && !used.has(p)) declare(p, a.uri);
      else {
        p = boundPrefix(scope, a.uri) ?? freshPrefix(scope);
        if (scope.get(p) !== a.uri) declare(p, a.uri);
      }
    }
    used.add(p);
    attrs.push(` ${p ? `${p}:` : ''}${a.local}="${escapeAttribute(a.value)}"`);
  }
  const qname = prefix ? `${prefix}:${el.local}` : el.local;
  let tag = `<${qname}`;
  for (const [p, u] of decls) tag += `${p === '' ? ' xmlns' : ` xmlns:${p}`}="${escapeAttribute(u)}"`;
  tag += attrs.join('');
  if (el.children.length === 0) {
    out.push(`${tag}/>`);
    return;
  }
  out.push(`${tag}>`);
  for (const c of el.children) write(c, scope, out);
  out.push(`</${qname}>`);
}

/** A non-empty prefix bound to `uri` in scope. */
function boundPrefix(scope: Map<string, string>, uri: string): string | undefined {
  for (const [p, u] of scope) if (p !== '' && u === uri) return p;
  return undefined;
}

function freshPrefix(scope: Map<string, string>): string {
  for (let i = 1; ; i++) {
    const p = `ns${i}`;
    if (!scope.has(p)) return p;
  }
}

// ---------------------------------------------------------------------------------------------
// model → saxon nodes (copy-modify results, copies)

interface DomFactory extends DomNode {
  readonly documentElement?: DomNode;
  importNode(node: DomNode, deep: boolean): DomNode;
  createTextNode(text: string): DomNode;
  createComment(text: string): DomNode;
  createProcessingInstruction(target: string, data: string): DomNode;
}

let scratch: DomFactory | undefined;

/** A document that owns parentless nodes made here (never given children). */
function scratchDocument(): DomFactory {
  scratch ??= saxon().getPlatform().parseXmlFromString('<x/>') as unknown as DomFactory;
  return scratch;
}

function parse(text: string): DomFactory {
  return saxon().getPlatform().parseXmlFromString(text) as unknown as DomFactory;
}

/**
 * Fresh saxon nodes for a model node: a document, or a parentless element, text, comment or
 * processing instruction. `baseUri` is kept on documents.
 */
export function toSaxon(node: MNode, baseUri?: string): XdmNode {
  switch (node.kind) {
    case 'document': {
      const doc = parse(serializeModel(node)) as DomFactory & { _saxonBaseUri?: string; _saxonDocUri?: string };
      if (baseUri) doc._saxonBaseUri = baseUri;
      return doc;
    }
    case 'element': {
      const doc = parse(serializeModel(node));
      return scratchDocument().importNode(doc.documentElement!, true);
    }
    case 'text':
      return scratchDocument().createTextNode(node.value);
    case 'comment':
      return scratchDocument().createComment(node.value);
    case 'pi':
      return scratchDocument().createProcessingInstruction(node.target ?? '', node.value);
  }
}

/** An attribute node without parent. */
export function attributeToSaxon(a: MAttribute): XdmNode {
  const Attr = saxon().XdmAttributeNode as unknown as new (name: unknown, value: string, parent: null) => XdmNode;
  return new Attr(saxon().XS.QName.fromParts(a.uri === '' ? '' : a.prefix, a.uri, a.local), a.value, null);
}

