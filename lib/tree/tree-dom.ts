/**
 * A compact tree (compact-tree.ts) presented as the DOM saxon-js walks, one node object made on
 * first touch and kept (so a node is the same object every time a query meets it).
 *
 * saxon-js 2.7 on Node reads documents through a small part of its bundled DOM: `nodeType`,
 * names (`localName`, `namespaceURI`, `prefix`, `nodeName`), the links (`parentNode`,
 * `firstChild`, `lastChild`, `nextSibling`, `previousSibling`, `childNodes`, `ownerDocument`,
 * `documentElement`), `attributes` (a list it reads by index, `length` and `getNamedItem`, with
 * namespace declarations among them), `getAttribute`, text (`data`, `nodeValue`, `textContent`,
 * `target`) and `cloneNode` (to copy a text, comment or PI node into a result). Those are
 * answered here from the tree's rows. The node objects inherit from saxon-js's own DOM classes
 * (so its type checks hold), with every property it reads defined over them; the DOM's writers
 * throw, since a stored document is never modified (XQuery Update copies).
 *
 * Element names and namespace URIs are the DOM's: `namespaceURI` is `''` for no namespace,
 * `prefix` is null without one. The namespace map saxon-js's DOM keeps per element (`ae`: prefix,
 * '' for the default namespace, to URI) holds the element's own declarations, made from its
 * `xmlns` attributes when read, and is null when it declares none, as in a compacted DOM
 * (convert/compact-dom.ts): `fn:namespace-uri-for-prefix` reads these maps up the ancestors and
 * nothing else.
 */
import { parseToSaxonDocument, type XdmNode } from '../saxon';
import { NodeKind, firstChild, nameIdAt, nextSibling, stringValue, type CompactTree, type TreeName } from './compact-tree';
import { XMLNS_NS } from '../convert/xml-parser';
import { copyToDom } from './dom-copy';

/** A node object: the view of its tree, its row, and what it made on demand. */
interface TreeNode {
  readonly v: TreeView;
  readonly p: number;
  /** The child list, once asked for. */
  c: ArrayLike<TreeNode> | undefined;
  /** The attribute list, once asked for. */
  a: ArrayLike<object> | undefined;
}

interface Prototypes {
  readonly document: object;
  readonly element: object;
  readonly text: object;
  readonly comment: object;
  readonly pi: object;
  readonly attr: object;
  readonly attributes: object;
  readonly list: object;
}

/** Rows per page of a view's node table (TreeView): 2^12. */
const PAGE_BITS = 12;
const PAGE_ROWS = 1 << PAGE_BITS;

/** Node objects made by some views together (TreeView's `tally`). */
export interface NodeTally {
  count: number;
}

/** One document's node objects. */
export class TreeView {
  /**
   * The node objects made so far, by row, in pages of PAGE_ROWS rows made when a node of theirs
   * is first asked for. One table of a slot per row took 8 bytes a row from the start: 21 MB for
   * XMark factor 1 (2.7 million rows), which a query answered from the indexes never fills.
   */
  private readonly pages: (TreeNode | undefined)[][];
  /** Node objects this view has made. */
  made = 0;

  /**
   * `tally`: counts the node objects this view makes, together with the views that share it (a
   * worker's stored documents: parsed-documents.ts lets go of them when they are many).
   */
  constructor(
    readonly tree: CompactTree,
    private readonly tally?: NodeTally,
  ) {
    this.pages = new Array<(TreeNode | undefined)[]>(Math.ceil(tree.size / PAGE_ROWS));
  }

  /** The document node. */
  get document(): XdmNode {
    return this.node(0) as unknown as XdmNode;
  }

  node(pre: number): TreeNode {
    const p = pre >> PAGE_BITS;
    // the last page only as long as the rows it has: a small document's table is its own size
    const page = (this.pages[p] ??= new Array<TreeNode | undefined>(Math.min(PAGE_ROWS, this.tree.size - p * PAGE_ROWS)));
    const i = pre & (PAGE_ROWS - 1);
    const known = page[i];
    if (known !== undefined) return known;
    const made = makeNode(this, pre);
    page[i] = made;
    this.made++;
    if (this.tally) this.tally.count++;
    return made;
  }

  /**
   * The previous sibling of `pre`, or -1: the child of its parent that holds the row before it
   * (a walk as long as the tree is deep, and no column kept for it).
   */
  previousOf(pre: number): number {
    const p = this.tree.parent.at(pre);
    // the top-level elements of a forest (build-tree.ts) have no parent, and no siblings
    if (p < 0 || pre === p + 1) return -1;
    return childHolding(this.tree, p, pre - 1);
  }
}

let protos: Prototypes | undefined;
let constructors: Record<number, new (v: TreeView, p: number) => TreeNode> | undefined;

function makeNode(view: TreeView, pre: number): TreeNode {
  constructors ??= defineClasses();
  return new constructors[view.tree.kind[pre]](view, pre);
}

function readOnly(): never {
  throw new Error('A stored document cannot be modified.');
}

/** The namespaces element `node` declares, prefix ('' for the default) to URI; null when it declares none. */
function declaredNamespaces(node: TreeNode): Record<string, string> | null {
  const { attrStart, attrName, attrValue, names, strings } = node.v.tree;
  let map: Record<string, string> | null = null;
  for (let i = attrStart.at(node.p); i < attrStart.at(node.p + 1); i++) {
    const name = names[attrName[i]];
    // declarations come first among the attributes (compact-tree.ts)
    if (name.uri !== XMLNS_NS) break;
    // a plain object, as saxon-js's own DOM makes: its readers call hasOwnProperty on it
    map ??= {};
    map[name.prefix === null ? '' : name.local] = strings.at(attrValue[i]);
  }
  return map;
}

function getter<T>(get: (this: TreeNode) => T): PropertyDescriptor {
  return { get, configurable: true, enumerable: false };
}

function value(v: unknown): PropertyDescriptor {
  return { value: v, configurable: true, writable: true, enumerable: false };
}

function nodeOrNull(view: TreeView, pre: number): TreeNode | null {
  return pre < 0 ? null : view.node(pre);
}

function lastChildOf(tree: CompactTree, pre: number): number {
  const end = tree.end.at(pre);
  return end === pre + 1 ? -1 : childHolding(tree, pre, end - 1);
}

/** The child of `parent` that is `row` or an ancestor of it (`row` lies below `parent`): a walk up from `row`. */
function childHolding(tree: CompactTree, parent: number, row: number): number {
  let child = row;
  for (let up = tree.parent.at(child); up !== parent; up = tree.parent.at(child)) child = up;
  return child;
}

/** The DOM classes, made once from the prototypes of saxon-js's DOM. */
function defineClasses(): Record<number, new (v: TreeView, p: number) => TreeNode> {
  const p = (protos ??= domPrototypes());
  const links: PropertyDescriptorMap = {
    parentNode: getter(function () {
      return nodeOrNull(this.v, this.v.tree.parent.at(this.p));
    }),
    ownerDocument: getter(function () {
      return this.p === 0 ? null : this.v.node(0);
    }),
    nextSibling: getter(function () {
      return nodeOrNull(this.v, nextSibling(this.v.tree, this.p));
    }),
    previousSibling: getter(function () {
      return nodeOrNull(this.v, this.p === 0 ? -1 : this.v.previousOf(this.p));
    }),
    firstChild: getter(function () {
      return nodeOrNull(this.v, firstChild(this.v.tree, this.p));
    }),
    lastChild: getter(function () {
      return nodeOrNull(this.v, lastChildOf(this.v.tree, this.p));
    }),
    childNodes: getter(function () {
      return (this.c ??= childList(this, p.list));
    }),
    textContent: getter(function () {
      return stringValue(this.v.tree, this.p);
    }),
    hasChildNodes: value(function (this: TreeNode) {
      return firstChild(this.v.tree, this.p) >= 0;
    }),
    cloneNode: value(function (this: TreeNode, deep?: unknown) {
      return copyToDom(this.v.tree, this.p, Boolean(deep));
    }),
    appendChild: value(readOnly),
    insertBefore: value(readOnly),
    removeChild: value(readOnly),
    replaceChild: value(readOnly),
    normalize: value(readOnly),
  };
  const data: PropertyDescriptorMap = {
    data: getter(function () {
      return this.v.tree.strings.at(this.v.tree.ref[this.p]);
    }),
    nodeValue: getter(function () {
      return this.v.tree.strings.at(this.v.tree.ref[this.p]);
    }),
    length: getter(function () {
      return this.v.tree.strings.at(this.v.tree.ref[this.p]).length;
    }),
    childNodes: getter(function () {
      return (this.c ??= childList(this, p.list));
    }),
  };
  type NameRead = (n: { prefix: string | null; local: string; uri: string; qname: string }) => unknown;
  // an element's `ref` is its name id (read on every name test, so read directly); a PI's target is beside it
  const name = (get: NameRead) =>
    getter(function () {
      return get(this.v.tree.names[this.v.tree.ref[this.p]]);
    });
  const target = (get: NameRead) =>
    getter(function () {
      return get(this.v.tree.names[nameIdAt(this.v.tree, this.p)]);
    });
  const element: PropertyDescriptorMap = {
    nodeName: name((n) => n.qname),
    tagName: name((n) => n.qname),
    localName: name((n) => n.local),
    prefix: name((n) => n.prefix),
    namespaceURI: name((n) => n.uri),
    ae: getter(function () {
      return declaredNamespaces(this);
    }),
    nodeValue: value(null),
    attributes: getter(function () {
      return (this.a ??= attributeList(this, p));
    }),
    getAttribute: value(function (this: TreeNode, qname: string) {
      const { attrStart, attrName, attrValue, names, strings } = this.v.tree;
      for (let i = attrStart.at(this.p); i < attrStart.at(this.p + 1); i++) if (names[attrName[i]].qname === qname) return strings.at(attrValue[i]);
      return '';
    }),
    hasAttribute: value(function (this: TreeNode, qname: string) {
      const { attrStart, attrName, names } = this.v.tree;
      for (let i = attrStart.at(this.p); i < attrStart.at(this.p + 1); i++) if (names[attrName[i]].qname === qname) return true;
      return false;
    }),
    setAttribute: value(readOnly),
    setAttributeNode: value(readOnly),
    removeAttribute: value(readOnly),
  };
  const pi: PropertyDescriptorMap = {
    target: target((n) => n.qname),
    nodeName: target((n) => n.qname),
    tagName: target((n) => n.qname),
  };
  const documentProps: PropertyDescriptorMap = {
    documentElement: getter(function () {
      const { kind, end } = this.v.tree;
      for (let c = 1; c < end.at(0); c = end.at(c)) if (kind[c] === NodeKind.element) return this.v.node(c);
      return null;
    }),
    doctype: value(null),
    nodeValue: value(null),
    textContent: value(null),
    pc: value(1),
  };
  const make = (proto: object, ...maps: PropertyDescriptorMap[]) => {
    const own = Object.create(proto) as object;
    for (const m of maps) Object.defineProperties(own, m);
    const ctor = function (this: TreeNode, v: TreeView, pre: number) {
      (this as { v: TreeView }).v = v;
      (this as { p: number }).p = pre;
      this.c = undefined;
      this.a = undefined;
    } as unknown as new (v: TreeView, p: number) => TreeNode;
    ctor.prototype = own;
    Object.defineProperty(own, 'constructor', value(ctor));
    return ctor;
  };
  return {
    [NodeKind.document]: make(p.document, links, documentProps),
    [NodeKind.element]: make(p.element, links, element),
    [NodeKind.text]: make(p.text, links, data),
    [NodeKind.comment]: make(p.comment, links, data),
    [NodeKind.pi]: make(p.pi, links, data, pi),
  };
}

/**
 * Lists kept as long as their node are made at their exact length: an array grown by `push`
 * keeps room for 17 items (a child list took 163 bytes on average at XMark factor 1, 49 so).
 */
function childList(node: TreeNode, listProto: object): ArrayLike<TreeNode> {
  const tree = node.v.tree;
  let n = 0;
  for (let c = firstChild(tree, node.p); c >= 0; c = nextSibling(tree, c)) n++;
  const out = new Array<TreeNode>(n);
  n = 0;
  for (let c = firstChild(tree, node.p); c >= 0; c = nextSibling(tree, c)) out[n++] = node.v.node(c);
  return Object.setPrototypeOf(out, listProto) as ArrayLike<TreeNode>;
}

let emptyAttributes: ArrayLike<object> | undefined;
let attrClass: (new (owner: TreeNode, name: TreeName, value: string, element: TreeNode) => object) | undefined;

/**
 * Attr objects of saxon-js's DOM with the fields it reads set in a constructor, so that they
 * live in the object (properties added to an `Object.create` result go to a separate store).
 */
function attributeClass(proto: object): new (owner: TreeNode, name: TreeName, value: string, element: TreeNode) => object {
  const ctor = function (this: Record<string, unknown>, owner: TreeNode, n: TreeName, v: string, element: TreeNode) {
    this.ownerDocument = owner;
    this.nodeName = this.name = n.qname;
    this.namespaceURI = n.uri;
    this.specified = true;
    if (n.prefix !== null) this.prefix = n.prefix;
    this.localName = n.local;
    this.nodeValue = this.value = v;
    this.yi = element;
  } as unknown as new (owner: TreeNode, name: TreeName, value: string, element: TreeNode) => object;
  ctor.prototype = proto;
  return ctor;
}

/**
 * The attribute list saxon-js reads: Attr objects of its DOM, the owner in the list's `b` and in
 * each attribute's `yi` (the DOM's minified owner fields). Elements without attributes share
 * one frozen empty list.
 */
function attributeList(node: TreeNode, p: Prototypes): ArrayLike<object> {
  const { attrStart, attrName, attrValue, names, strings } = node.v.tree;
  const from = attrStart.at(node.p);
  const to = attrStart.at(node.p + 1);
  if (from === to) return (emptyAttributes ??= Object.freeze(Object.create(p.attributes) as ArrayLike<object>));
  const list = new Array<object>(to - from);
  const owner = node.v.node(0);
  attrClass ??= attributeClass(p.attr);
  for (let i = from; i < to; i++) list[i - from] = new attrClass(owner, names[attrName[i]], strings.at(attrValue[i]), node);
  const out = Object.setPrototypeOf(list, p.attributes) as ArrayLike<object> & { b?: TreeNode };
  out.b = node;
  return out;
}

/** The prototypes of saxon-js's DOM, from a parsed probe. */
function domPrototypes(): Prototypes {
  const doc = parseToSaxonDocument('<a x="1"><b/>t<!--c--><?p d?></a>') as unknown as Record<string, Record<string, unknown> & { attributes: object; childNodes: object }>;
  const a = doc.documentElement;
  const kids = a.childNodes as unknown as object[];
  const proto = (o: object) => Object.getPrototypeOf(o) as object;
  return {
    document: proto(doc),
    element: proto(a),
    text: proto(kids[1]),
    comment: proto(kids[2]),
    pi: proto(kids[3]),
    attr: proto((a.attributes as unknown as object[])[0]),
    attributes: proto(a.attributes),
    list: proto(a.childNodes),
  };
}

/** `node`, or a shallow copy in saxon-js's DOM when it is a node of a compact tree (for `importNode`). */
export function importable<T>(node: T): T {
  return treeNode(node) !== undefined ? ((node as unknown as { cloneNode(deep: boolean): T }).cloneNode(false)) : node;
}

/** The view and row of a node of a compact tree; undefined for any other node. */
export function treeNode(node: unknown): { readonly v: TreeView; readonly p: number } | undefined {
  const n = node as Partial<TreeNode> | null;
  return n !== null && typeof n === 'object' && n.v instanceof TreeView ? (n as TreeNode) : undefined;
}
