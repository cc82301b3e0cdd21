/**
 * An element-name index and an element list per document, behind extension functions in the
 * engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}descendants($node as item()*, $name as xs:string) as element()*
 *   Q{urn:xmldb-rest:engine}descendant-elements($node as item()*) as element()*
 *   Q{urn:xmldb-rest:engine}count-descendants($nodes as node()*, $name as xs:string) as xs:integer
 *
 * (`$node` is one node; declared item()* so that a non-node raises XPTY0019 as a path would.)
 *
 * The descendant elements of `$node` whose expanded name is `$name` (written `Q{uri}local`, as
 * the translator emits it), in document order, without duplicates: what
 * `$node/descendant-or-self::node()/child::name` selects (translate/paths-index.ts emits it for
 * `E//name`). The answer holds the very node objects of the tree, so node identity holds.
 *
 * - For a document node the answer comes from an index built on first use in one walk (expanded
 *   name → elements in document order) and kept in a WeakMap keyed by the document node, so it
 *   lives exactly as long as the document. saxon-js trees never change once built (stored
 *   documents are cached immutable; updates build new trees, see update/functions.ts), so an
 *   index never goes stale.
 * - For any other node, its descendants are walked (no index: a walk below an element costs what
 *   the axis step would).
 *
 * descendant-elements: every descendant element of `$node` in document order, what
 * `$node/descendant::*` selects (translate/paths-index.ts emits it for `E//*`). For a document
 * node the list is built on first use in one walk and kept like the name index (a WeakMap keyed
 * by the document node); below any other node its descendants are walked.
 *
 * count-descendants: the summed number of such elements of each node of `$nodes` (a node given
 * twice counts twice), what `count($nodes ! descendants(., $name))` answers without building the
 * sequence (translate/paths-aggregate.ts emits it for `count(//name)`).
 *
 * Registered by `registerNameIndexFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../constants';
import { NodeKind, castString, isNode, registerFunctions, xpathError, type XdmNode, type XdmValue } from '../../saxon';

/** The local names of the functions in ENGINE_NS. */
export const DESCENDANTS_FUNCTION = 'descendants';
export const DESCENDANT_ELEMENTS_FUNCTION = 'descendant-elements';
export const COUNT_DESCENDANTS_FUNCTION = 'count-descendants';

/** What the walk reads of saxon-js's DOM nodes. */
export interface DomNode extends XdmNode {
  readonly firstChild?: DomNode | null;
  readonly nextSibling?: DomNode | null;
  readonly parentNode?: DomNode | null;
  readonly namespaceURI?: string | null;
  readonly localName?: string | null;
}

export type NameIndex = Map<string, DomNode[]>;

const indexes = new WeakMap<object, NameIndex>();
/** Every element of a document in document order, by document node. */
const elementLists = new WeakMap<object, DomNode[]>();
const EMPTY: readonly DomNode[] = [];

function keyOf(element: DomNode): string {
  return `Q{${element.namespaceURI ?? ''}}${element.localName ?? element.nodeName ?? ''}`;
}

/** Pre-order walk of the descendants of `root`, calling `visit` for each element. */
function walkElements(root: DomNode, visit: (element: DomNode) => void): void {
  let node = root.firstChild ?? null;
  while (node) {
    if (node.nodeType === NodeKind.element) visit(node);
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
    const key = keyOf(element);
    const list = index.get(key);
    if (list) list.push(element);
    else index.set(key, [element]);
  });
  return index;
}

/** The document's index, built on first use. */
export function nameIndex(doc: XdmNode): NameIndex {
  let index = indexes.get(doc);
  if (!index) {
    index = buildIndex(doc as DomNode);
    indexes.set(doc, index);
  }
  return index;
}

/** The descendant elements of `node` named `name` (`Q{uri}local`), in document order. */
export function descendantsNamed(node: XdmNode, name: string): XdmNode[] {
  if (node.nodeType === NodeKind.document) return [...(nameIndex(node).get(name) ?? EMPTY)];
  const out: DomNode[] = [];
  if (node.nodeType === NodeKind.element || (node as DomNode).firstChild) {
    walkElements(node as DomNode, (element) => {
      if (keyOf(element) === name) out.push(element);
    });
  }
  return out;
}

/** The descendant elements of `node`, in document order. */
export function descendantElements(node: XdmNode): XdmNode[] {
  if (node.nodeType === NodeKind.document) {
    let list = elementLists.get(node);
    if (!list) {
      const elements: DomNode[] = [];
      walkElements(node as DomNode, (element) => elements.push(element));
      list = elements;
      elementLists.set(node, list);
    }
    return [...list];
  }
  const out: DomNode[] = [];
  if (node.nodeType === NodeKind.element || (node as DomNode).firstChild) walkElements(node as DomNode, (element) => out.push(element));
  return out;
}

/** The one node of a path step's context; as `E/…` does, refuses a non-node (XPTY0019). */
function contextNode(node: XdmValue): XdmNode {
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
    count += item.nodeType === NodeKind.document ? (nameIndex(item).get(key)?.length ?? 0) : descendantsNamed(item, key).length;
  }
  return [castString(String(count), 'integer')];
}

/** Registers engine:descendants, engine:descendant-elements and engine:count-descendants with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerNameIndexFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [DESCENDANTS_FUNCTION]: { sig: '1F r[*NE] a[*,1AS]', impl: descendants },
    [DESCENDANT_ELEMENTS_FUNCTION]: { sig: '1F r[*NE] a[*]', impl: ([node]: XdmValue[]) => descendantElements(contextNode(node)) },
    [COUNT_DESCENDANTS_FUNCTION]: { sig: '1F r[1ADI] a[*,1AS]', impl: countDescendants },
  });
}
