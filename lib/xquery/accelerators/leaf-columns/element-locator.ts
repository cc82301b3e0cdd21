/**
 * Where a node stands among the elements of its name (a text node: among the text nodes,
 * name-rows.ts TEXT_NODES) in its document, for the accelerators that
 * take the nodes a for clause binds and read their leaves from the per-document columns
 * (leaf-columns.ts): the grouping by leaves (leaf-groups.ts) and the sort by leaves
 * (leaf-order.ts). Both receive their paths as step texts (leaf-columns.ts `stepText`) cut by lengths (`parsePaths`).
 */
import { NodeKind, isNode, type XdmItem, type XdmNode, type XdmValue } from '../../../saxon';
import { leafPathColumn, nodeColumn, parseStep, type Column, type LeafStep, type NodeColumn } from './leaf-columns';
import { elementsNamed, expandedName, isText, type DomNode } from '../name-index/name-index';
import { treeNode, type TreeView } from '../../../tree/tree-dom';
import { TEXT_NODES, elementRows, listedName } from '../../../tree/name-rows';
import { NodeKind as Row } from '../../../tree/compact-tree';

/** How many elements after the last one found `locate` compares before it looks a node up. */
const AHEAD = 16;

/** The elements of one name in one document, the columns of the keys over them, and where the last node was found. */
export interface Source {
  readonly elements: readonly DomNode[];
  readonly columns: readonly Column[];
  /** The nodes of the value paths below each element. */
  readonly values: readonly NodeColumn[];
  cursor: number;
  /** Element → index, built when the nodes do not follow the elements' order. */
  positions?: Map<DomNode, number>;
}

/** The document node at the root of `node`'s tree, or undefined when the root is not a document. */
function documentOf(node: DomNode): XdmNode | undefined {
  let n = node;
  while (n.parentNode) n = n.parentNode;
  return n.nodeType === NodeKind.document ? n : undefined;
}

/** The index of `row` in the ascending `rows`, or -1. */
function rowIndex(rows: Int32Array, row: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = rows[mid];
    if (r === row) return mid;
    if (r < row) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Finds each node's element list and index in it, node after node. */
export class Locator {
  /** The source of the node located last. */
  source: Source | undefined;
  private readonly sources = new Map<readonly DomNode[], Source>();
  /** Per compact tree, the source of the name of the first element met there and the rows of its elements (element i at rows[i]). */
  private readonly byView = new Map<TreeView, { readonly source: Source; readonly rows: Int32Array }>();
  private lastParent: DomNode | null | undefined;
  private lastDoc: XdmNode | undefined;

  constructor(
    private readonly paths: readonly (readonly LeafStep[])[],
    private readonly valuePaths: readonly (readonly LeafStep[])[],
  ) {}

  /** The source of the elements of `elements`, the elements named `name` of `doc`, made once. */
  private sourceOf(doc: XdmNode, name: string, elements: readonly DomNode[]): Source {
    const columns = this.paths.map((path) => leafPathColumn(doc, name, path));
    const source = { elements, columns, values: this.valuePaths.map((path) => nodeColumn(doc, name, path)), cursor: 0 };
    this.sources.set(elements, source);
    return source;
  }

  /** The source of the name of element row `pre` of the compact tree of `view` and its rows, kept as the view's. */
  private treeSource(view: TreeView, pre: number): { readonly source: Source; readonly rows: Int32Array } | undefined {
    const { tree } = view;
    const name = tree.kind[0] === Row.document ? listedName(tree, pre) : undefined;
    if (name === undefined) return undefined;
    const doc = view.document;
    const elements = elementsNamed(doc, name);
    const known = { source: this.sources.get(elements) ?? this.sourceOf(doc, name, elements), rows: elementRows(tree, name) };
    this.byView.set(view, known);
    return known;
  }

  /**
   * The index of `item` in the elements of `this.source`, which it sets; -1 when `item` is not an
   * element of a document tree. Nodes that follow their elements' order are found by comparing
   * one element; other nodes of a compact tree by their row; other nodes of saxon-js's DOM that
   * follow their elements' order with a few passed over (the elements a filter kept) by
   * comparing the next few elements.
   */
  locate(item: XdmItem): number {
    const last = this.source;
    if (last !== undefined && last.elements[last.cursor] === item) return last.cursor++;
    const row = treeNode(item);
    if (row !== undefined) {
      // a node of a compact tree: its index among the rows of the elements, by binary search
      const known = this.byView.get(row.v) ?? this.treeSource(row.v, row.p);
      const index = known === undefined ? -1 : rowIndex(known.rows, row.p);
      if (index >= 0) {
        this.source = known!.source;
        known!.source.cursor = index + 1;
        return index;
      }
    } else if (last !== undefined) {
      const { elements, cursor } = last;
      for (let i = cursor + 1, end = Math.min(elements.length, cursor + AHEAD); i < end; i++) {
        if (elements[i] === item) {
          last.cursor = i + 1;
          return i;
        }
      }
    }
    if (!isNode(item) || (item.nodeType !== NodeKind.element && !isText(item))) return -1;
    const node = item as DomNode;
    const parent = node.parentNode;
    if (parent !== this.lastParent || !parent) {
      this.lastParent = parent;
      this.lastDoc = parent ? documentOf(parent) : undefined;
    }
    const doc = this.lastDoc;
    if (!doc) return -1;
    const name = isText(node) ? TEXT_NODES : expandedName(node);
    const elements = elementsNamed(doc, name);
    let source = this.sources.get(elements);
    if (!source) {
      source = this.sourceOf(doc, name, elements);
    }
    this.source = source;
    let index = source.cursor;
    if (elements[index] !== node) {
      source.positions ??= new Map(elements.map((e, i) => [e, i]));
      const found = source.positions.get(node);
      if (found === undefined) return -1;
      index = found;
    }
    source.cursor = index + 1;
    return index;
  }
}

/** The paths of `steps` cut by `lengths` (see the file comment); undefined when malformed. */
export function parsePaths(stepArgs: XdmValue, lengthArgs: XdmValue): LeafStep[][] | undefined {
  const steps = stepArgs.map((s) => parseStep(String(s)));
  if (!steps.every((s) => s !== undefined)) return undefined;
  const paths: LeafStep[][] = [];
  let at = 0;
  for (const length of lengthArgs) {
    const n = Number(String(length));
    paths.push(steps.slice(at, at + n) as LeafStep[]);
    at += n;
  }
  return at === steps.length && paths.every((p) => p.length > 0) ? paths : undefined;
}
