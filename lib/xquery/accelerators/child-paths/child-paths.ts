/**
 * A run of child steps by element name, behind an extension function in the engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}child-path($nodes as item()*, $names as xs:string*) as element()*
 *
 * what `$nodes/child::N1/child::N2/…/child::Nk` selects (the names written `Q{uri}local`, as the
 * translator emits them; accelerators/child-paths/paths-child.ts): the elements reached, in
 * document order without duplicates. From one node the children of each element in turn,
 * elements in document order, keep the order from step to step; the answers of several nodes
 * are put in document order (one of them may be inside another) with saxon-js's own comparison.
 * A non-node among `$nodes` is XPTY0019, as for the `/` it stands for. For a node of a compact tree
 * (tree/tree-dom.ts) the steps are read from its rows, and nodes are made for the last step's
 * elements only; for any other node its DOM is walked.
 *
 *   Q{urn:xmldb-rest:engine}child-path-covers($nodes as item()*, $names as xs:string*) as xs:boolean
 *
 * whether `$nodes` is one document node from which those steps reach every element named as the
 * last step (`pathCoversName`), so that a predicated last step may be answered as `//Nk[P]` is.
 *
 *   Q{urn:xmldb-rest:engine}parent-path-covers($nodes as item()*, $names as xs:string*) as xs:boolean
 *
 * the same for `$nodes//N1/N2/…/Nk`: whether `$nodes` is one document node in which every element
 * named Nk has a parent named Nk-1, that one a parent named Nk-2, and so on up to N1
 * (`parentsCoverName`), so that the path selects every Nk element, as `$nodes//Nk` does.
 *
 * Registered by `registerChildPathFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../../constants';
import { NodeKind, castString, documentOrder, isNode, registerFunctions, xpathError, type XdmNode, type XdmValue } from '../../../saxon';
import { NodeKind as Row, firstChild, nextSibling, type CompactTree } from '../../../tree/compact-tree';
import { elementRows, nameIds } from '../../../tree/name-rows';
import { treeNode, type TreeView } from '../../../tree/tree-dom';
import { expandedName, type DomNode } from '../name-index/name-index';

export const CHILD_PATH_FUNCTION = 'child-path';
export const CHILD_PATH_COVERS_FUNCTION = 'child-path-covers';
export const PARENT_PATH_COVERS_FUNCTION = 'parent-path-covers';

/**
 * Answers of at least KEPT_MIN elements are kept per tree, by context row and names: a path that
 * does not depend on a loop's variable is evaluated again on every turn of the loop (saxon-js does
 * not move it out), and at XMark factor 1 `$auction/site/people/person` in a loop over 1,000
 * categories read 25,500 rows and made a 25,500-node answer each time. A stored tree never
 * changes and its nodes are the same objects every time (tree/tree-dom.ts), so a kept answer is
 * the answer; each caller gets a copy of the list.
 */
const KEPT_MIN = 256;
/** Kept answers per tree, at most KEPT_PER_TREE (then forgotten together). */
const KEPT_PER_TREE = 64;
const kept = new WeakMap<TreeView, Map<string, readonly XdmNode[]>>();

/** The elements `names` select from `node` by child steps, in document order. */
export function childPath(node: XdmNode, names: readonly string[]): XdmNode[] {
  const at = treeNode(node);
  if (at !== undefined) {
    const key = `${at.p}\u0000${names.join('\u0000')}`;
    const known = kept.get(at.v)?.get(key);
    if (known !== undefined) return known.slice();
    const found = treePath(at.v, at.p, names);
    if (found.length >= KEPT_MIN) {
      let answers = kept.get(at.v);
      if (answers === undefined) kept.set(at.v, (answers = new Map()));
      if (answers.size >= KEPT_PER_TREE) answers.clear();
      answers.set(key, found.slice());
    }
    return found;
  }
  let nodes: DomNode[] = [node as DomNode];
  for (const step of names) {
    const next: DomNode[] = [];
    for (const n of nodes) for (let c = n.firstChild ?? null; c; c = c.nextSibling ?? null) if (c.nodeType === NodeKind.element && expandedName(c) === step) next.push(c);
    nodes = next;
  }
  return nodes;
}

/** `childPath` from row `pre` of the compact tree of `view`, read from its rows. */
function treePath(view: TreeView, pre: number, names: readonly string[]): XdmNode[] {
  return treeRows(view, pre, names).map((row) => view.node(row) as unknown as XdmNode);
}

/** The rows `childPath` reaches from row `pre` of the compact tree of `view`. */
function treeRows(view: TreeView, pre: number, names: readonly string[]): number[] {
  const { tree } = view;
  const { kind, ref: name } = tree;
  let rows = [pre];
  for (const step of names) {
    const ids = nameIds(tree, step);
    const next: number[] = [];
    if (ids.size > 0) {
      for (const row of rows) {
        for (let c = firstChild(tree, row); c >= 0; c = nextSibling(tree, c)) if (kind[c] === Row.element && ids.has(name[c])) next.push(c);
      }
    }
    rows = next;
    if (rows.length === 0) break;
  }
  return rows;
}

/** `childPath` from each of `nodes`, in document order without duplicates. */
export function childPaths(nodes: readonly XdmNode[], names: readonly string[]): XdmNode[] {
  if (nodes.length <= 1) return nodes.length === 1 ? childPath(nodes[0], names) : [];
  const all = nodes.flatMap((node) => childPath(node, names));
  all.sort(documentOrder());
  return all.filter((node, i) => i === 0 || node !== all[i - 1]);
}

/** Per tree: what `pathCoversName` (`child`) and `parentsCoverName` (`parent`) answered, by names. */
const covering = new WeakMap<TreeView, Map<string, boolean>>();

/**
 * Whether `nodes` is one document node of a compact tree from which the child steps `names`
 * reach every element named as the last of them: then `$doc/N1/…/Nk` selects the same elements,
 * in the same order, as `$doc//Nk` (paths-child.ts `coveredStep`). The rows the steps reach are
 * counted against the tree's list of that name (tree/name-rows.ts), once per tree and path; the
 * steps reach only elements of that name, so as many are all of them.
 */
export function pathCoversName(nodes: XdmValue, names: readonly string[]): boolean {
  return knownOfDocument(nodes, names, 'child', (view) => treeRows(view, 0, names).length === elementRows(view.tree, names[names.length - 1]).length);
}

/**
 * Whether `nodes` is one document node of a compact tree in which every element named as the
 * last of `names` has a parent named as the one before it, that parent one named as the one
 * before that, and so on to the first name: then `$doc//N1/…/Nk` selects every Nk element, in
 * the same order, as `$doc//Nk` (an element's ancestors are all below the document node, so
 * `//N1` reaches the topmost of them wherever it is). Checked once per tree and names, each
 * element's parents read from the parent column.
 */
export function parentsCoverName(nodes: XdmValue, names: readonly string[]): boolean {
  return knownOfDocument(nodes, names, 'parent', (view) => everyParentChain(view.tree, names));
}

/** `fact(view)` of the one document node `nodes` of a compact tree, kept per tree by `kind` and `names`; false for other nodes. */
function knownOfDocument(nodes: XdmValue, names: readonly string[], kind: 'child' | 'parent', fact: (view: TreeView) => boolean): boolean {
  if (nodes.length !== 1 || names.length === 0) return false;
  const at = treeNode(nodes[0]);
  if (at === undefined || at.p !== 0 || at.v.tree.kind[0] !== Row.document) return false;
  const key = `${kind}\u0000${names.join('\u0000')}`;
  let known = covering.get(at.v);
  if (known === undefined) covering.set(at.v, (known = new Map()));
  let answer = known.get(key);
  if (answer === undefined) {
    answer = fact(at.v);
    known.set(key, answer);
  }
  return answer;
}

/** Whether every element named `names[k - 1]` has its ancestors named `names[k - 2]`, …, `names[0]`, nearest first. */
function everyParentChain(tree: CompactTree, names: readonly string[]): boolean {
  const { kind, ref: name, parent } = tree;
  const ids = names.slice(0, -1).map((step) => nameIds(tree, step));
  for (const row of elementRows(tree, names[names.length - 1])) {
    let p = row;
    for (let k = ids.length - 1; k >= 0; k--) {
      p = parent.at(p);
      if (p < 0 || kind[p] !== Row.element || !ids[k].has(name[p])) return false;
    }
  }
  return true;
}

function call([nodes, names]: XdmValue[]): XdmValue {
  for (const item of nodes) if (!isNode(item)) throw xpathError('The context item of a path step is not a node', 'XPTY0019');
  return childPaths(nodes as XdmNode[], names.map(String));
}

function coversCall([nodes, names]: XdmValue[]): XdmValue {
  return [castString(String(pathCoversName(nodes, names.map(String))), 'boolean')];
}

function parentCoversCall([nodes, names]: XdmValue[]): XdmValue {
  return [castString(String(parentsCoverName(nodes, names.map(String))), 'boolean')];
}

/** Registers engine:child-path, engine:child-path-covers and engine:parent-path-covers with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerChildPathFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [CHILD_PATH_FUNCTION]: { sig: '1F r[*NE] a[*,*AS]', impl: call },
    [CHILD_PATH_COVERS_FUNCTION]: { sig: '1F r[1AB] a[*,*AS]', impl: coversCall },
    [PARENT_PATH_COVERS_FUNCTION]: { sig: '1F r[1AB] a[*,*AS]', impl: parentCoversCall },
  });
}
