/**
 * `E//*[P]` where P sees its element only through the element's name
 * (accelerators/name-predicates/paths-name-predicates.ts decides that): P is evaluated once per
 * distinct name instead of once per element, behind two extension functions in the engine's
 * namespace:
 *
 *   Q{urn:xmldb-rest:engine}element-name-samples($node as item()*) as element()*
 *   Q{urn:xmldb-rest:engine}elements-named-as($node as item()*, $samples as element()*) as element()*
 *
 * (`$node` is one node, the context node of the path step; declared item()* so that a non-node
 * raises XPTY0019 as a path would.)
 *
 * element-name-samples: for each distinct name of the descendant elements of `$node`, the first
 * element with it, in document order. A name here is the namespace URI, the prefix and the local
 * name, because fn:name() sees the prefix: two elements with the same name answer every
 * predicate P accepts alike.
 *
 * elements-named-as: the descendant elements of `$node` in document order, without duplicates,
 * whose name is that of some element of `$samples`: what `$node/descendant::*[P]` selects when
 * `$samples` are the samples P keeps.
 *
 *   Q{urn:xmldb-rest:engine}count-named-as($node as item()*, $samples as element()*) as xs:integer
 *
 * count-named-as: how many elements elements-named-as answers, without making them: what
 * `count($node/descendant::*[P])` is (paths-name-predicates.ts `countNamePredicatesCall`).
 *
 * Over a compact tree (stored documents) both read the name column (tree/name-rows.ts): no node
 * is made for an element P rejects, and the samples of a whole document are found once. Over
 * saxon-js's DOM (context documents, constructed nodes) they walk the descendant elements.
 *
 * Registered by `registerNamePredicateFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../../constants';
import { castString, registerFunctions, type XdmNode, type XdmValue } from '../../../saxon';
import { nameIdAt } from '../../../tree/compact-tree';
import { countElementsWithIds, elementRowsWithIds, firstRowsByName } from '../../../tree/name-rows';
import { treeNode, type TreeView } from '../../../tree/tree-dom';
import { contextNode, descendantElements, nodesOf } from '../name-index/name-index';

/** The local names of the functions in ENGINE_NS. */
export const ELEMENT_NAME_SAMPLES_FUNCTION = 'element-name-samples';
export const ELEMENTS_NAMED_AS_FUNCTION = 'elements-named-as';
export const COUNT_NAMED_AS_FUNCTION = 'count-named-as';

/** An element of saxon-js's DOM, as far as its name goes. */
interface NamedNode extends XdmNode {
  readonly namespaceURI?: string | null;
}

/** The name of an element of saxon-js's DOM: namespace URI and qualified name (prefix included). */
function nameKey(node: XdmNode): string {
  return `${(node as NamedNode).namespaceURI ?? ''}\u0000${node.nodeName ?? ''}`;
}

/** The rows below the node at `p` of a compact tree: `from … to - 1`. */
function rowsBelow(view: TreeView, p: number): [number, number] {
  return [p + 1, view.tree.end.at(p)];
}

/** The first descendant element of `node` with each distinct name, in document order. */
export function elementNameSamples(node: XdmNode): XdmNode[] {
  const at = treeNode(node);
  if (at !== undefined) return nodesOf(at.v, firstRowsByName(at.v.tree, ...rowsBelow(at.v, at.p)));
  const seen = new Set<string>();
  const out: XdmNode[] = [];
  for (const element of descendantElements(node)) {
    const key = nameKey(element);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(element);
    }
  }
  return out;
}

/** The descendant elements of `node` whose name is that of one of `samples`, in document order. */
export function elementsNamedAs(node: XdmNode, samples: readonly XdmNode[]): XdmNode[] {
  if (samples.length === 0) return [];
  const found = rowsNamedAs(node, samples);
  return found ? nodesOf(found.view, found.rows) : domElementsNamedAs(node, samples);
}

/** How many elements `elementsNamedAs` answers. */
export function countNamedAs(node: XdmNode, samples: readonly XdmNode[]): number {
  if (samples.length === 0) return 0;
  const marked = namesMarked(node, samples);
  return marked ? countElementsWithIds(marked.view.tree, marked.ids, ...marked.below) : domElementsNamedAs(node, samples).length;
}

/** The rows of those elements when `node` and every sample are rows of one compact tree. */
function rowsNamedAs(node: XdmNode, samples: readonly XdmNode[]): { readonly view: TreeView; readonly rows: Int32Array } | undefined {
  const marked = namesMarked(node, samples);
  return marked && { view: marked.view, rows: elementRowsWithIds(marked.view.tree, marked.ids, ...marked.below) };
}

/**
 * When `node` and every sample are rows of one compact tree: its view, the rows below `node`
 * (`rowsBelow`), and the samples' name ids marked in an array indexed by name id.
 */
function namesMarked(node: XdmNode, samples: readonly XdmNode[]): { readonly view: TreeView; readonly below: [number, number]; readonly ids: Uint8Array } | undefined {
  const at = treeNode(node);
  if (at === undefined) return undefined;
  const ids = new Uint8Array(at.v.tree.names.length);
  for (const sample of samples) {
    const s = treeNode(sample);
    if (s === undefined || s.v !== at.v) return undefined;
    ids[nameIdAt(at.v.tree, s.p)] = 1; // samples are typed element()*; any other row has no name (-1: no write)
  }
  return { view: at.v, below: rowsBelow(at.v, at.p), ids };
}

/** The same over saxon-js's DOM, by name. */
function domElementsNamedAs(node: XdmNode, samples: readonly XdmNode[]): XdmNode[] {
  const keys = new Set(samples.map(nameKey));
  return descendantElements(node).filter((element) => keys.has(nameKey(element)));
}

/** Registers engine:element-name-samples, engine:elements-named-as and engine:count-named-as with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerNamePredicateFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [ELEMENT_NAME_SAMPLES_FUNCTION]: { sig: '1F r[*NE] a[*]', impl: ([node]: XdmValue[]) => elementNameSamples(contextNode(node)) },
    [ELEMENTS_NAMED_AS_FUNCTION]: { sig: '1F r[*NE] a[*,*NE]', impl: ([node, samples]: XdmValue[]) => elementsNamedAs(contextNode(node), samples as XdmNode[]) },
    [COUNT_NAMED_AS_FUNCTION]: { sig: '1F r[1ADI] a[*,*NE]', impl: ([node, samples]: XdmValue[]) => [castString(String(countNamedAs(contextNode(node), samples as XdmNode[])), 'integer')] },
  });
}
