/**
 * Every node the serializer writes as markup reaches saxon-js here.
 *
 * saxon-js writes the namespace declarations a tree holds as `xmlns` attributes (those of the
 * node's ancestors included), but the trees it builds itself with `createElementNS`, such as
 * fn:analyze-string's result, hold none: written as they are, their elements would lose their
 * namespace (`<analyze-string-result>` instead of `<analyze-string-result
 * xmlns="http://www.w3.org/2005/xpath-functions">`). Serialization 3.1 §2 (sequence
 * normalization, then namespace fixup) asks that every namespace used by an element or an
 * attribute be declared, so a node whose tree lacks a declaration is written from a copy that
 * declares it, on the highest element that uses it.
 */
import { NodeKind, saxon, type XdmNode } from '../../saxon';
import { isDocumentNode } from '../update/model';

const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

interface DomAttr {
  readonly name: string;
  readonly prefix: string | null;
  readonly namespaceURI: string | null;
  readonly value: string;
}

interface DomNode extends XdmNode {
  readonly prefix: string | null;
  readonly namespaceURI: string | null;
  readonly parentNode: DomNode | null;
  readonly childNodes: ArrayLike<DomNode>;
  readonly attributes?: ArrayLike<DomAttr>;
  readonly ownerDocument: { createAttributeNS(ns: string, name: string): DomAttr & { value: string } } | null;
  cloneNode(deep: boolean): DomNode;
  setAttributeNode(a: DomAttr): void;
}

/** Prefix ('' for the default namespace) → URI ('' for none), innermost declaration last. */
type Scope = Map<string, string>;

/** Serializes one node with saxon-js, after the namespace fixup described above. */
export function serializeNode(node: XdmNode, props: Record<string, unknown>): string {
  return saxon.serialize(withNamespaceDeclarations(node), props);
}

/** `node`, or a copy of it that declares every namespace its elements and attributes use. */
export function withNamespaceDeclarations(node: XdmNode): XdmNode {
  const n = node as DomNode;
  if (n.nodeType !== NodeKind.element && !isDocumentNode(n)) return node;
  if (!lacksDeclaration(n, inheritedScope(n))) return node;
  const copy = n.cloneNode(true);
  declare(copy, new Map());
  return copy;
}

/** The declarations in scope at `node` from its ancestors' `xmlns` attributes. */
function inheritedScope(node: DomNode): Scope {
  const chain: DomNode[] = [];
  for (let p = node.parentNode; p !== null && p.nodeType === NodeKind.element; p = p.parentNode) chain.unshift(p);
  const scope: Scope = new Map();
  for (const e of chain) addDeclarations(e, scope);
  return scope;
}

function addDeclarations(e: DomNode, scope: Scope): void {
  for (const a of Array.from(e.attributes ?? [])) {
    if (a.name === 'xmlns') scope.set('', a.value);
    else if (a.name.startsWith('xmlns:')) scope.set(a.name.slice(6), a.value);
  }
}

/** The namespaces an element's name and attribute names use, as prefix → URI. */
function used(e: DomNode): [string, string][] {
  const uses: [string, string][] = [[e.prefix ?? '', e.namespaceURI ?? '']];
  for (const a of Array.from(e.attributes ?? [])) {
    if (a.prefix && a.namespaceURI && a.namespaceURI !== XMLNS_NS && a.namespaceURI !== XML_NS) uses.push([a.prefix, a.namespaceURI]);
  }
  return uses;
}

const declared = (scope: Scope, prefix: string, uri: string): boolean => (scope.get(prefix) ?? '') === uri;

function lacksDeclaration(node: DomNode, scope: Scope): boolean {
  if (node.nodeType === NodeKind.element) {
    const inner = new Map(scope);
    addDeclarations(node, inner);
    if (used(node).some(([prefix, uri]) => !declared(inner, prefix, uri))) return true;
    scope = inner;
  }
  for (const c of Array.from(node.childNodes)) {
    if (c.nodeType === NodeKind.element && lacksDeclaration(c, scope)) return true;
  }
  return false;
}

/** Adds the missing declarations to a copied tree (which has no ancestors). */
function declare(node: DomNode, scope: Scope): void {
  if (node.nodeType === NodeKind.element) {
    scope = new Map(scope);
    addDeclarations(node, scope);
    for (const [prefix, uri] of used(node)) {
      if (declared(scope, prefix, uri)) continue;
      const attr = node.ownerDocument!.createAttributeNS(XMLNS_NS, prefix === '' ? 'xmlns' : `xmlns:${prefix}`);
      attr.value = uri;
      node.setAttributeNode(attr);
      scope.set(prefix, uri);
    }
  }
  for (const c of Array.from(node.childNodes)) if (c.nodeType === NodeKind.element) declare(c, scope);
}
