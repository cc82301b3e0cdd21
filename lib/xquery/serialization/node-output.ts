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
import { NodeKind, isDocumentNode, saxon, type XdmNode } from '../../saxon';

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
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly attributes?: ArrayLike<DomAttr>;
  readonly ownerDocument: { createAttributeNS(ns: string, name: string): DomAttr & { value: string } } | null;
  cloneNode(deep: boolean): DomNode;
  setAttributeNode(a: DomAttr): void;
}

/** Prefix ('' for the default namespace) → URI ('' for none), innermost declaration last. */
type Scope = Map<string, string>;

/**
 * Trees known to declare every namespace they use: documents saxon-js parsed from text (every
 * namespace-well-formed document does). Their nodes skip the check, which otherwise walks the
 * whole tree (about a twentieth of the time saxon-js takes to write it).
 */
const declaredTrees = new WeakSet<object>();

/** Records that `document` was parsed from text, so it declares its namespaces. */
export function markNamespacesDeclared(document: XdmNode): void {
  declaredTrees.add(document);
}

function rootOf(node: DomNode): DomNode {
  let n = node;
  while (n.parentNode !== null) n = n.parentNode;
  return n;
}

/** Serializes one node with saxon-js, after the namespace fixup described above. */
export function serializeNode(node: XdmNode, props: Record<string, unknown>): string {
  return saxon().serialize(withNamespaceDeclarations(node), props);
}

/** `node`, or a copy of it that declares every namespace its elements and attributes use. */
export function withNamespaceDeclarations(node: XdmNode): XdmNode {
  const n = node as DomNode;
  if (n.nodeType !== NodeKind.element && !isDocumentNode(n)) return node;
  if (declaredTrees.has(rootOf(n)) || !lacksDeclaration(n, inheritedScope(n))) return node;
  const copy = n.cloneNode(true);
  declare(copy, new Map());
  return copy;
}

/** The declarations in scope at `node` from its ancestors' `xmlns` attributes. */
function inheritedScope(node: DomNode): Scope {
  const chain: DomNode[] = [];
  for (let p = node.parentNode; p !== null && p.nodeType === NodeKind.element; p = p.parentNode) chain.unshift(p);
  return chain.reduce((scope, e) => scopeOf(e, scope), new Map() as Scope);
}

/** The scope inside element `e`: `scope` itself when `e` declares nothing (most elements). */
function scopeOf(e: DomNode, scope: Scope): Scope {
  let inner = scope;
  const attributes = e.attributes;
  for (let i = 0, n = attributes?.length ?? 0; i < n; i++) {
    const name = attributes![i].name;
    const prefix = name === 'xmlns' ? '' : name.startsWith('xmlns:') ? name.slice(6) : undefined;
    if (prefix === undefined) continue;
    if (inner === scope) inner = new Map(scope);
    inner.set(prefix, attributes![i].value);
  }
  return inner;
}

/** An attribute's namespace that needs a declaration, as [prefix, URI]; undefined for none. */
function attributeNamespace(a: DomAttr): [string, string] | undefined {
  return a.prefix && a.namespaceURI && a.namespaceURI !== XMLNS_NS && a.namespaceURI !== XML_NS ? [a.prefix, a.namespaceURI] : undefined;
}

const declared = (scope: Scope, prefix: string, uri: string): boolean => (scope.get(prefix) ?? '') === uri;

/** Whether element `e` uses a namespace (for its name or an attribute's) not declared in `scope`. */
function usesUndeclared(e: DomNode, scope: Scope): boolean {
  if (!declared(scope, e.prefix ?? '', e.namespaceURI ?? '')) return true;
  const attributes = e.attributes;
  for (let i = 0, n = attributes?.length ?? 0; i < n; i++) {
    const ns = attributeNamespace(attributes![i]);
    if (ns !== undefined && !declared(scope, ns[0], ns[1])) return true;
  }
  return false;
}

/**
 * Whether an element of the tree at `node` uses a namespace not declared in scope. A walk
 * without recursion (documents can be deep) that costs little next to writing the tree.
 */
function lacksDeclaration(node: DomNode, inherited: Scope): boolean {
  const stack: [DomNode, Scope][] = [[node, inherited]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [n, outer] = top;
    let scope = outer;
    if (n.nodeType === NodeKind.element) {
      scope = scopeOf(n, outer);
      if (usesUndeclared(n, scope)) return true;
    }
    for (let c = n.firstChild; c !== null; c = c.nextSibling) if (c.nodeType === NodeKind.element) stack.push([c, scope]);
  }
  return false;
}

/** Adds the missing declarations to a copied tree (which has no ancestors). */
function declare(node: DomNode, scope: Scope): void {
  if (node.nodeType === NodeKind.element) {
    scope = new Map(scopeOf(node, scope));
    const uses: [string, string][] = [[node.prefix ?? '', node.namespaceURI ?? '']];
    for (const a of Array.from(node.attributes ?? [])) uses.push(...(attributeNamespace(a) === undefined ? [] : [attributeNamespace(a)!]));
    for (const [prefix, uri] of uses) {
      if (declared(scope, prefix, uri)) continue;
      const attr = node.ownerDocument!.createAttributeNS(XMLNS_NS, prefix === '' ? 'xmlns' : `xmlns:${prefix}`);
      attr.value = uri;
      node.setAttributeNode(attr);
      scope.set(prefix, uri);
    }
  }
  for (let c = node.firstChild; c !== null; c = c.nextSibling) if (c.nodeType === NodeKind.element) declare(c, scope);
}
