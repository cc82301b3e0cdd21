/**
 * Per-document columns of the leaves of the elements of one name: their child elements' string
 * values (`child`), an attribute's value (`attribute`), their text children (`text`) or their own
 * string value (`self`), in the order of the elements and, per element, of the leaves. The leaf
 * comparisons of predicates (leaf-filter.ts) and the aggregates over leaf paths
 * (leaf-aggregates.ts) read them.
 *
 * The leaves of one (element name, kind, leaf) of one document are read once and kept in a
 * WeakMap keyed by the document node: saxon-js trees never change once built (see name-index.ts),
 * so the columns never go stale and live exactly as long as the document. Their numbers follow
 * leaf-values.ts `PLAIN_NUMBER`.
 */
import { NodeKind, domAttributes, type XdmNode } from '../../saxon';
import { expandedName, elementsNamed, type DomNode } from './name-index';
import { PLAIN_NUMBER, stringValue } from './leaf-values';
import { NodeKind as Row, nextSibling, stringValue as rowString, type CompactTree } from '../../tree/compact-tree';
import { elementRows, nameIds } from '../../tree/name-rows';
import { treeNode } from '../../tree/tree-dom';

/** What a column reads of each element. */
export type LeafKind = 'child' | 'attribute' | 'text' | 'self';

/**
 * The leaves of the elements named `name` of one document: those of element i are
 * strings[offsets[i] .. offsets[i+1]); `numbers` their xs:double values, made on first use
 * (null when some leaf is not a plain number).
 */
export interface Column {
  readonly offsets: Int32Array;
  readonly strings: readonly string[];
  /** Whether no element has more than one leaf. */
  readonly single: boolean;
  numbers?: Float64Array | null;
}

/** Per document: column by `name SEP kind SEP leaf`. */
const columns = new WeakMap<object, Map<string, Column>>();
const SEP = '\u0000';

/** Appends the leaves of `kind` and `leaf` of `element` to `out`. */
function addLeaves(element: DomNode, kind: LeafKind, leaf: string, out: string[]): void {
  switch (kind) {
    case 'self':
      out.push(stringValue(element));
      return;
    case 'attribute':
      for (const a of domAttributes(element)) if (expandedName(a) === leaf) out.push(a.value);
      return;
    case 'child':
    case 'text':
      for (let node = element.firstChild ?? null; node; node = node.nextSibling ?? null) {
        if (kind === 'child' && node.nodeType === NodeKind.element && expandedName(node) === leaf) out.push(stringValue(node));
        else if (kind === 'text' && (node.nodeType === NodeKind.text || node.nodeType === 4)) out.push((node as DomNode & { data?: string }).data ?? '');
      }
  }
}

/** A column of a compact tree, read from its rows without making nodes. */
function treeColumn(tree: CompactTree, name: string, kind: LeafKind, leaf: string): Column {
  const rows = elementRows(tree, name);
  const ids = kind === 'child' || kind === 'attribute' ? nameIds(tree, leaf) : undefined;
  const offsets = new Int32Array(rows.length + 1);
  const strings: string[] = [];
  let single = true;
  for (let i = 0; i < rows.length; i++) {
    const pre = rows[i];
    offsets[i] = strings.length;
    if (kind === 'self') strings.push(rowString(tree, pre));
    else if (kind === 'attribute') {
      for (let a = tree.attrStart[pre]; a < tree.attrStart[pre + 1]; a++) if (ids!.has(tree.attrName[a])) strings.push(tree.strings[tree.attrValue[a]]);
    } else {
      for (let c = tree.end[pre] > pre + 1 ? pre + 1 : -1; c >= 0; c = nextSibling(tree, c)) {
        if (kind === 'child' ? tree.kind[c] === Row.element && ids!.has(tree.name[c]) : tree.kind[c] === Row.text) strings.push(kind === 'child' ? rowString(tree, c) : tree.strings[tree.value[c]]);
      }
    }
    if (strings.length - offsets[i] > 1) single = false;
  }
  offsets[rows.length] = strings.length;
  return { offsets, strings, single };
}

function buildColumn(doc: XdmNode, name: string, kind: LeafKind, leaf: string): Column {
  const tree = treeNode(doc);
  if (tree !== undefined) return treeColumn(tree.v.tree, name, kind, leaf);
  const elements = elementsNamed(doc, name);
  const offsets = new Int32Array(elements.length + 1);
  const strings: string[] = [];
  let single = true;
  for (let i = 0; i < elements.length; i++) {
    offsets[i] = strings.length;
    addLeaves(elements[i], kind, leaf, strings);
    if (strings.length - offsets[i] > 1) single = false;
  }
  offsets[elements.length] = strings.length;
  return { offsets, strings, single };
}

/** The column of a document, built on first use. */
export function leafColumn(doc: XdmNode, name: string, kind: LeafKind, leaf: string): Column {
  let byKey = columns.get(doc);
  if (!byKey) columns.set(doc, (byKey = new Map()));
  const key = name + SEP + kind + SEP + leaf;
  let column = byKey.get(key);
  if (column === undefined) {
    column = buildColumn(doc, name, kind, leaf);
    byKey.set(key, column);
  }
  return column;
}

/** A column's leaves as xs:double, parsed on first use; null when some leaf is not a plain number. */
export function numbersOf(column: Column): Float64Array | null {
  if (column.numbers === undefined) {
    const { strings } = column;
    let numbers: Float64Array | null = new Float64Array(strings.length);
    for (let i = 0; i < strings.length && numbers; i++) {
      if (PLAIN_NUMBER.test(strings[i])) numbers[i] = Number(strings[i]);
      else numbers = null;
    }
    column.numbers = numbers;
  }
  return column.numbers;
}
