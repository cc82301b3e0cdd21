/**
 * An element-name index and an element list per document, behind extension functions in the
 * engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}descendants($node as item()*, $name as xs:string) as element()*
 *   Q{urn:xmldb-rest:engine}descendant-elements($node as item()*) as element()*
 *   Q{urn:xmldb-rest:engine}descendant-texts($node as item()*) as text()*
 *   Q{urn:xmldb-rest:engine}count-descendants($nodes as node()*, $name as xs:string) as xs:integer
 *
 * (`$node` is one node; declared item()* so that a non-node raises XPTY0019 as a path would.)
 *
 * The descendant elements of `$node` whose expanded name is `$name` (written `Q{uri}local`, as
 * the translator emits it), in document order, without duplicates: what
 * `$node/descendant-or-self::node()/child::name` selects (accelerators/name-index/paths-index.ts emits it for
 * `E//name`). The answer holds the very node objects of the tree, so node identity holds.
 *
 * - For a document node the answer comes from an index built on first use in one walk (expanded
 *   name → elements in document order) and kept in a WeakMap keyed by the document node, so it
 *   lives exactly as long as the document. saxon-js trees never change once built (stored
 *   documents are cached immutable; updates build new trees, see functions/update-primitives.ts), so an
 *   index never goes stale.
 * - For any other node, its descendants are walked (no index: a walk below an element costs what
 *   the axis step would).
 *
 * descendant-elements: every descendant element of `$node` in document order, what
 * `$node/descendant::*` selects (accelerators/name-index/paths-index.ts emits it for `E//*`). For a document
 * node the list is built on first use in one walk and kept like the name index (a WeakMap keyed
 * by the document node); below any other node its descendants are walked.
 *
 * descendant-texts: every descendant text node of `$node` in document order, what
 * `$node/descendant::text()` selects (paths-index.ts emits it for `E//text()`), from the text rows
 * of a compact tree (a document's listed once per document) without making the nodes of its
 * elements; below any other node its descendants are walked.
 *
 * count-descendants: the summed number of such elements of each node of `$nodes` (a node given
 * twice counts twice), what `count($nodes ! descendants(., $name))` answers without building the
 * sequence (accelerators/leaf-aggregates/paths-aggregate.ts emits it for `count(//name)`).
 *
 * children-named:
 *
 *   Q{urn:xmldb-rest:engine}children-named($node as item()*, $name as xs:string,
 *       $parents as item()*, $child as xs:string) as item()*
 *
 * what `$parents/child::C` selects (`C` the expanded name `$child`) when `$parents` are, in
 * document order, elements named `$name` of the document node `$node` (what `descendants` and the
 * filters on it answer; language/translate/paths/paths.ts emits it for `E//name[…]/C`): their child elements
 * of that name, parent after parent. That is document order without duplicates when no such
 * element contains another (each parent's children then precede the next parent), which is
 * decided once per document and name; otherwise, or for any other `$node`, it answers false()
 * and the caller evaluates the step. The children of every element of that name are listed once
 * per document and name pair (walking a saxon-js tree costs far more than reading a list), and
 * `$parents` are found in that list by one merge.
 *
 * Registered by `registerNameIndexFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../../constants';
import { NodeKind, castString, isNode, registerFunctions, xpathError, type XdmNode, type XdmValue } from '../../../saxon';
import { ANY_ELEMENT, TEXT_NODES, anyElementRowsIn, elementRows, elementRowsIn, firstAtOrAfter } from '../../../tree/name-rows';
import { treeNode, type TreeView } from '../../../tree/tree-dom';

/** The local names of the functions in ENGINE_NS. */
export const DESCENDANTS_FUNCTION = 'descendants';
export const DESCENDANT_ELEMENTS_FUNCTION = 'descendant-elements';
export const COUNT_DESCENDANTS_FUNCTION = 'count-descendants';
export const CHILDREN_NAMED_FUNCTION = 'children-named';
export const DESCENDANT_TEXTS_FUNCTION = 'descendant-texts';

/** What the walk reads of saxon-js's DOM nodes. */
export interface DomNode extends XdmNode {
  readonly firstChild?: DomNode | null;
  readonly nextSibling?: DomNode | null;
  readonly parentNode?: DomNode | null;
  readonly namespaceURI?: string | null;
  readonly localName?: string | null;
  /** A text node's text. */
  readonly data?: string;
}

export type NameIndex = Map<string, DomNode[]>;

const indexes = new WeakMap<object, NameIndex>();
/** Per document: by name, whether some element of that name contains another. */
const nestings = new WeakMap<object, Map<string, boolean>>();
/** The children named C of the elements named E of a document: those of element i are children[offsets[i] .. offsets[i+1]). */
interface ChildList {
  readonly offsets: Int32Array;
  readonly children: readonly DomNode[];
}
/** Per document: child lists by `E SEP C`. */
const childLists = new WeakMap<object, Map<string, ChildList>>();
/** Every element of a document in document order, by document node. */
const elementLists = new WeakMap<object, readonly DomNode[]>();
/** Every text node of a document that is no compact tree in document order, by document node. */
const textLists = new WeakMap<object, readonly DomNode[]>();
const EMPTY: readonly DomNode[] = [];

/** The expanded name `Q{uri}local` of an element or attribute node. */
export function expandedName(node: { readonly namespaceURI?: string | null; readonly localName?: string | null; readonly nodeName?: string | null; readonly name?: string }): string {
  return `Q{${node.namespaceURI ?? ''}}${node.localName ?? node.nodeName ?? node.name ?? ''}`;
}

/** Whether a DOM node is a text node (saxon-js's DOM may hold CDATA sections, which are text in XDM). */
export function isText(node: XdmNode): boolean {
  return node.nodeType === NodeKind.text || node.nodeType === 4;
}

/** Pre-order walk of the descendants of `root`, calling `visit` for each element. */
function walkElements(root: DomNode, visit: (element: DomNode) => void): void {
  walkDescendants(root, (node) => node.nodeType === NodeKind.element && visit(node));
}

/** Pre-order walk of the descendants of `root`, calling `visit` for each text node. */
function walkTexts(root: DomNode, visit: (text: DomNode) => void): void {
  walkDescendants(root, (node) => isText(node) && visit(node));
}

/** Pre-order walk of the descendants of `root`, calling `visit` for each node. */
function walkDescendants(root: DomNode, visit: (node: DomNode) => void): void {
  let node = root.firstChild ?? null;
  while (node) {
    visit(node);
    const first = node.nodeType === NodeKind.element ? (node.firstChild ?? null) : null;
    if (first) {
      node = first;
      continue;
    }
    // next in document order: the next sibling of the node or of its nearest ancestor below root
    while (node && node !== root && !node.nextSibling) node = node.parentNode ?? null;
    if (!node || node === root) break;
    node = node.nextSibling ?? null;
  }
}

function buildIndex(doc: DomNode): NameIndex {
  const index: NameIndex = new Map();
  walkElements(doc, (element) => {
    const key = expandedName(element);
    const list = index.get(key);
    if (list) list.push(element);
    else index.set(key, [element]);
  });
  return index;
}

/**
 * The elements named `name` (`Q{uri}local`; every element: ANY_ELEMENT) of document `doc`, in
 * document order: for a compact tree (tree/tree-dom.ts) read from its name column, the nodes made
 * for this name only; for any other tree from an index of every name, built in one walk.
 */
export function elementsNamed(doc: XdmNode, name: string): readonly DomNode[] {
  let index = indexes.get(doc);
  const tree = treeNode(doc);
  if (tree !== undefined) {
    if (!index) indexes.set(doc, (index = new Map()));
    let list = index.get(name);
    if (!list) index.set(name, (list = nodesOf(tree.v, elementRows(tree.v.tree, name))));
    return list;
  }
  if (name === ANY_ELEMENT) return documentElements(doc);
  if (name === TEXT_NODES) return documentTexts(doc);
  if (!index) {
    index = buildIndex(doc as DomNode);
    indexes.set(doc, index);
  }
  return index.get(name) ?? EMPTY;
}

/**
 * The elements named `name` of document `doc` by position, made one at a time: for a compact
 * tree, only the nodes asked for are made (a filter over leaf columns keeps few of them).
 */
export function namedElements(doc: XdmNode, name: string): { readonly length: number; at(i: number): DomNode } {
  const tree = treeNode(doc);
  if (tree !== undefined) {
    const rows = elementRows(tree.v.tree, name);
    return { length: rows.length, at: (i) => tree.v.node(rows[i]) as unknown as DomNode };
  }
  const list = elementsNamed(doc, name);
  return { length: list.length, at: (i) => list[i] };
}

/** How many elements of document `doc` are named `name`, without making nodes of a compact tree. */
export function countNamed(doc: XdmNode, name: string): number {
  const tree = treeNode(doc);
  return tree !== undefined ? elementRows(tree.v.tree, name).length : elementsNamed(doc, name).length;
}

/** The nodes of `rows` of a compact tree's view, in that order. */
export function nodesOf(view: TreeView, rows: Int32Array): DomNode[] {
  const out = new Array<DomNode>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = view.node(rows[i]) as unknown as DomNode;
  return out;
}

/** The descendant elements of `node` named `name` (`Q{uri}local`), in document order. */
export function descendantsNamed(node: XdmNode, name: string): XdmNode[] {
  if (node.nodeType === NodeKind.document) return [...elementsNamed(node, name)];
  const tree = treeNode(node);
  if (tree !== undefined) return nodesOf(tree.v, elementRowsIn(tree.v.tree, name, tree.p + 1, tree.v.tree.end.at(tree.p)));
  const out: DomNode[] = [];
  if (name === TEXT_NODES) walkTexts(node as DomNode, (text) => out.push(text));
  else if (node.nodeType === NodeKind.element || (node as DomNode).firstChild) {
    walkElements(node as DomNode, (element) => {
      if (name === ANY_ELEMENT || expandedName(element) === name) out.push(element);
    });
  }
  return out;
}

/** How many descendant elements of `node` are named `name`: of a compact tree's element without making their nodes. */
export function countDescendantsNamed(node: XdmNode, name: string): number {
  const tree = treeNode(node);
  if (tree !== undefined) return elementRowsIn(tree.v.tree, name, tree.p + 1, tree.v.tree.end.at(tree.p)).length;
  return descendantsNamed(node, name).length;
}

/** The descendant elements of `node`, in document order (those of a document listed once). */
export function descendantElements(node: XdmNode): XdmNode[] {
  const tree = treeNode(node);
  if (node.nodeType !== NodeKind.document) {
    if (tree !== undefined) return nodesOf(tree.v, anyElementRowsIn(tree.v.tree, tree.p + 1, tree.v.tree.end.at(tree.p)));
    const out: DomNode[] = [];
    if (node.nodeType === NodeKind.element || (node as DomNode).firstChild) walkElements(node as DomNode, (element) => out.push(element));
    return out;
  }
  return [...documentElements(node)];
}

/** The list `make` answers for document `doc`, made on first use and kept in `lists`: callers read it, never write it. */
function listedOnce(lists: WeakMap<object, readonly DomNode[]>, doc: XdmNode, make: () => readonly DomNode[]): readonly DomNode[] {
  let list = lists.get(doc);
  if (!list) lists.set(doc, (list = make()));
  return list;
}

/** The elements of document `doc`, in document order, listed once per document. */
function documentElements(doc: XdmNode): readonly DomNode[] {
  return listedOnce(elementLists, doc, () => {
    const tree = treeNode(doc);
    if (tree !== undefined) return nodesOf(tree.v, anyElementRowsIn(tree.v.tree, 1, tree.v.tree.size));
    const elements: DomNode[] = [];
    walkElements(doc as DomNode, (element) => elements.push(element));
    return elements;
  });
}

/** The text nodes of document `doc` that is no compact tree, in document order, listed once per document. */
function documentTexts(doc: XdmNode): readonly DomNode[] {
  return listedOnce(textLists, doc, () => {
    const texts: DomNode[] = [];
    walkTexts(doc as DomNode, (text) => texts.push(text));
    return texts;
  });
}

/** The one node of a path step's context; as `E/…` does, refuses a non-node (XPTY0019). */
export function contextNode(node: XdmValue): XdmNode {
  const item = node[0];
  if (!item || !isNode(item)) throw xpathError('The context item of a path step is not a node', 'XPTY0019');
  return item;
}

function descendants([node, name]: XdmValue[]): XdmValue {
  // the translator passes the context item of a path step
  return descendantsNamed(contextNode(node), String(name[0]));
}

function countDescendants([nodes, name]: XdmValue[]): XdmValue {
  const key = String(name[0]);
  let count = 0;
  for (const item of nodes) {
    if (!isNode(item)) throw xpathError('The context item of a path step is not a node', 'XPTY0019');
    count += item.nodeType === NodeKind.document ? countNamed(item, key) : countDescendantsNamed(item, key);
  }
  return [castString(String(count), 'integer')];
}

/** Whether some element named `name` of document `doc` has an ancestor of that name (decided on first use). */
function nests(doc: XdmNode, name: string): boolean {
  let byName = nestings.get(doc);
  if (!byName) nestings.set(doc, (byName = new Map()));
  let nested = byName.get(name);
  if (nested === undefined) {
    nested = elementsNamed(doc, name).some((element) => {
      for (let up = element.parentNode ?? null; up && up !== doc; up = up.parentNode ?? null) if (up.nodeType === NodeKind.element && expandedName(up) === name) return true;
      return false;
    });
    byName.set(name, nested);
  }
  return nested;
}

/** The children named `child` of the elements named `name` of `doc`, listed on first use. */
function childList(doc: XdmNode, name: string, child: string): ChildList {
  let byKey = childLists.get(doc);
  if (!byKey) childLists.set(doc, (byKey = new Map()));
  const key = `${name}\u0000${child}`;
  let list = byKey.get(key);
  if (!list) {
    const elements = elementsNamed(doc, name);
    const offsets = new Int32Array(elements.length + 1);
    const children: DomNode[] = [];
    elements.forEach((element, i) => {
      offsets[i] = children.length;
      for (let c = element.firstChild ?? null; c; c = c.nextSibling ?? null) if (c.nodeType === NodeKind.element && expandedName(c) === child) children.push(c);
    });
    offsets[elements.length] = children.length;
    byKey.set(key, (list = { offsets, children }));
  }
  return list;
}

function childrenNamed([node, name, parents, child]: XdmValue[]): XdmValue {
  const doc = node[0];
  const key = String(name[0]);
  const cannot = [castString('false', 'boolean')];
  if (node.length !== 1 || !isNode(doc) || doc.nodeType !== NodeKind.document || nests(doc, key)) return cannot;
  const elements = elementsNamed(doc, key);
  const { offsets, children } = childList(doc, key, String(child[0]));
  const find = positionFinder(doc, key, elements);
  const out: DomNode[] = [];
  // the parents are some of the elements, in their order: each is looked for after the one before
  let i = 0;
  for (const parent of parents) {
    i = find(parent, i);
    if (i === elements.length) return cannot;
    for (let j = offsets[i]; j < offsets[i + 1]; j++) out.push(children[j]);
    i++;
  }
  return out;
}

/**
 * How childrenNamed finds a parent among `elements` (the elements named `name` of `doc`) from
 * position `from` on: its position, or `elements.length` when it is not there. In a compact tree
 * the elements' rows are sorted (document order), so a binary search finds it: a lookup of one
 * element by an indexed value costs no walk over the elements before it. In saxon-js's DOM
 * (context documents, small), a walk.
 */
function positionFinder(doc: XdmNode, name: string, elements: readonly DomNode[]): (parent: XdmValue[number], from: number) => number {
  const tree = treeNode(doc);
  if (tree === undefined) {
    return (parent, from) => {
      let i = from;
      while (i < elements.length && elements[i] !== parent) i++;
      return i;
    };
  }
  const rows = elementRows(tree.v.tree, name);
  return (parent, from) => {
    const node = treeNode(parent);
    if (node === undefined || node.v !== tree.v) return elements.length;
    const lo = firstAtOrAfter(rows, node.p, from);
    return lo < rows.length && elements[lo] === parent ? lo : elements.length;
  };
}

/** Registers engine:descendants, engine:descendant-elements, engine:count-descendants, engine:children-named and engine:descendant-texts with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerNameIndexFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [DESCENDANTS_FUNCTION]: { sig: '1F r[*NE] a[*,1AS]', impl: descendants },
    [DESCENDANT_ELEMENTS_FUNCTION]: { sig: '1F r[*NE] a[*]', impl: ([node]: XdmValue[]) => descendantElements(contextNode(node)) },
    [COUNT_DESCENDANTS_FUNCTION]: { sig: '1F r[1ADI] a[*,1AS]', impl: countDescendants },
    [CHILDREN_NAMED_FUNCTION]: { sig: '1F r[*] a[*,1AS,*,1AS]', impl: childrenNamed },
    [DESCENDANT_TEXTS_FUNCTION]: { sig: '1F r[*N] a[*]', impl: ([node]: XdmValue[]) => descendantsNamed(contextNode(node), TEXT_NODES) },
  });
}
