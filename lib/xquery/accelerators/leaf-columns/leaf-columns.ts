/**
 * Per-document columns of the leaves of the elements of one name (or of the text nodes, whose only
 * leaf is their own value: name-rows.ts TEXT_NODES): their child elements' string
 * values (`child`), an attribute's value (`attribute`), their text children (`text`) or their own
 * string value (`self`), in the order of the elements and, per element, of the leaves. A leaf may
 * also sit below child elements (`leafPathColumn`: `a/b`, `a/@x`, `a/text()`), read child after
 * child, which is document order. The leaf comparisons of predicates (leaf-filter.ts), the
 * aggregates over leaf paths (leaf-aggregates.ts) and the grouping by leaves (leaf-groups.ts)
 * read them; the grouping also reads the nodes of such paths (`nodeColumn`), kept alike.
 *
 * The leaves of one (element name, kind, leaf) of one document are read once and kept in a
 * WeakMap keyed by the document node: saxon-js trees never change once built (see name-index.ts),
 * so the columns never go stale and live exactly as long as the document. Their numbers follow
 * leaf-values.ts `plainNumber`.
 */
import { NodeKind, attributeNodes, domAttributes, type XdmNode } from '../../../saxon';
import { expandedName, elementsNamed, isText, type DomNode } from '../name-index/name-index';
import { plainNumber, stringValue } from './leaf-values';
import { NodeKind as Row, firstChild, nextSibling, stringValue as rowString, type CompactTree } from '../../../tree/compact-tree';
import { elementRows, nameIds } from '../../../tree/name-rows';
import { treeNode } from '../../../tree/tree-dom';

/** What a column reads of each element. */
export type LeafKind = 'child' | 'attribute' | 'text' | 'self';

/**
 * One step of a leaf path: `child` steps down to child elements named `leaf`, the last one reads
 * its leaves. A `child` step may take one of those children only (`nth`): the nth, from 1, or
 * the last (LAST), as the step `leaf[n]` or `leaf[last()]` does, counted among the children of
 * that name of each element.
 */
export interface LeafStep {
  readonly kind: LeafKind;
  readonly leaf: string;
  readonly nth?: number;
}

/** `nth` of the step `leaf[last()]`. */
export const LAST = -1;

const KINDS = new Set<string>(['child', 'attribute', 'text', 'self']);

/**
 * A step as the translation hands it to the engine's functions: `kind leaf`, `kind` alone when
 * there is no leaf, `child#n leaf` or `child#last leaf` for a positional step. `parseStep` reads it.
 */
export function stepText(step: LeafStep): string {
  const kind = step.nth === undefined ? step.kind : `${step.kind}#${step.nth === LAST ? 'last' : step.nth}`;
  return step.leaf === '' ? kind : `${kind} ${step.leaf}`;
}

/** The step of `stepText`, or undefined: the leaf is what follows the first space (a namespace URI may hold spaces). */
export function parseStep(text: string): LeafStep | undefined {
  const space = text.indexOf(' ');
  const head = space < 0 ? text : text.slice(0, space);
  const leaf = space < 0 ? '' : text.slice(space + 1);
  const hash = head.indexOf('#');
  const kind = hash < 0 ? head : head.slice(0, hash);
  if (!KINDS.has(kind)) return undefined;
  if (hash < 0) return { kind: kind as LeafKind, leaf };
  const at = head.slice(hash + 1);
  const nth = at === 'last' ? LAST : /^[1-9][0-9]{0,8}$/.test(at) ? Number(at) : undefined;
  return kind === 'child' && nth !== undefined ? { kind, leaf, nth } : undefined;
}

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

/**
 * The nodes a leaf path selects below the elements named `name` of one document: those below
 * element i are nodes[offsets[i] .. offsets[i+1]), in document order.
 */
export interface NodeColumn {
  readonly offsets: Int32Array;
  readonly nodes: readonly XdmNode[];
}

/** Per document: column by `name`, then SEP and `stepText` for each step of a path. */
const columns = new WeakMap<object, Map<string, Column>>();
/** Per document: node column by the same key. */
const nodeColumns = new WeakMap<object, Map<string, NodeColumn>>();
const SEP = '\u0000';

/** Appends the leaves of `kind` and `leaf` of `element` to `out`. */
function addLeaves(element: DomNode, kind: LeafKind, leaf: string, out: string[]): void {
  if (isText(element)) {
    // the text nodes of TEXT_NODES (tree/name-rows.ts): a string value, no children, no attributes
    if (kind === 'self') out.push(element.data ?? '');
    return;
  }
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
        else if (kind === 'text' && isText(node)) out.push(node.data ?? '');
      }
  }
}

const NO_IDS: ReadonlySet<number> = new Set();

/**
 * Appends the leaves `path` (from step `at`) reads below row `pre` of a compact tree to `out`,
 * from its rows without making nodes: what `addPathLeaves` reads from the DOM. `ids` are the
 * name ids of each step's name.
 */
function addRowLeaves(tree: CompactTree, pre: number, path: readonly LeafStep[], ids: readonly ReadonlySet<number>[], at: number, out: string[]): void {
  const { kind } = path[at];
  if (kind === 'self') {
    out.push(rowString(tree, pre));
    return;
  }
  if (kind === 'attribute') {
    for (let a = tree.attrStart.at(pre); a < tree.attrStart.at(pre + 1); a++) if (ids[at].has(tree.attrName[a])) out.push(tree.strings.at(tree.attrValue[a]));
    return;
  }
  const { nth } = path[at];
  const last = at === path.length - 1;
  if (nth !== undefined) {
    const c = nthRow(tree, pre, ids[at], nth);
    if (c >= 0 && last) out.push(rowString(tree, c));
    else if (c >= 0) addRowLeaves(tree, c, path, ids, at + 1, out);
    return;
  }
  for (let c = firstChild(tree, pre); c >= 0; c = nextSibling(tree, c)) {
    if (kind === 'text') {
      if (tree.kind[c] === Row.text) out.push(tree.strings.at(tree.ref[c]));
    } else if (tree.kind[c] === Row.element && ids[at].has(tree.ref[c])) {
      if (last) out.push(rowString(tree, c));
      else addRowLeaves(tree, c, path, ids, at + 1, out);
    }
  }
}

/** The `nth` (from 1, or LAST) child element of row `pre` whose name id is one of `ids`, or -1. */
function nthRow(tree: CompactTree, pre: number, ids: ReadonlySet<number>, nth: number): number {
  let found = -1;
  let seen = 0;
  for (let c = firstChild(tree, pre); c >= 0; c = nextSibling(tree, c)) {
    if (tree.kind[c] !== Row.element || !ids.has(tree.ref[c])) continue;
    found = c;
    if (++seen === nth) return c;
  }
  return nth === LAST ? found : -1;
}

/** The `nth` (from 1, or LAST) child element of `element` named `leaf` (an expanded name), or undefined. */
function nthChild(element: DomNode, leaf: string, nth: number): DomNode | undefined {
  let found: DomNode | undefined;
  let seen = 0;
  for (let node = element.firstChild ?? null; node; node = node.nextSibling ?? null) {
    if (node.nodeType !== NodeKind.element || expandedName(node) !== leaf) continue;
    found = node;
    if (++seen === nth) return node;
  }
  return nth === LAST ? found : undefined;
}

/** Appends the leaves `path` (from step `at`) reads of `element` to `out`. */
function addPathLeaves(element: DomNode, path: readonly LeafStep[], at: number, out: string[]): void {
  const step = path[at];
  const last = at === path.length - 1;
  if (step.nth !== undefined) {
    const child = isText(element) ? undefined : nthChild(element, step.leaf, step.nth);
    if (child && last) out.push(stringValue(child));
    else if (child) addPathLeaves(child, path, at + 1, out);
    return;
  }
  if (last) {
    addLeaves(element, step.kind, step.leaf, out);
    return;
  }
  for (let node = element.firstChild ?? null; node; node = node.nextSibling ?? null) {
    if (node.nodeType === NodeKind.element && expandedName(node) === step.leaf) addPathLeaves(node, path, at + 1, out);
  }
}

/** The column of `count` elements, `add` appending the leaves of element i. */
function columnOf(count: number, add: (i: number, out: string[]) => void): Column {
  const offsets = new Int32Array(count + 1);
  const strings: string[] = [];
  let single = true;
  for (let i = 0; i < count; i++) {
    offsets[i] = strings.length;
    add(i, strings);
    if (strings.length - offsets[i] > 1) single = false;
  }
  offsets[count] = strings.length;
  return { offsets, strings, single };
}

function buildColumn(doc: XdmNode, name: string, path: readonly LeafStep[]): Column {
  const tree = treeNode(doc);
  if (tree !== undefined) {
    const t = tree.v.tree;
    const rows = elementRows(t, name);
    const ids = path.map((step) => (step.kind === 'child' || step.kind === 'attribute' ? nameIds(t, step.leaf) : NO_IDS));
    return columnOf(rows.length, (i, out) => addRowLeaves(t, rows[i], path, ids, 0, out));
  }
  const elements = elementsNamed(doc, name);
  return columnOf(elements.length, (i, out) => addPathLeaves(elements[i], path, 0, out));
}

/** The column of `name` and `path` of a document in `store`, built by `build` on first use. */
function cached<T>(store: WeakMap<object, Map<string, T>>, doc: XdmNode, name: string, path: readonly LeafStep[], build: () => T): T {
  let byKey = store.get(doc);
  if (!byKey) store.set(doc, (byKey = new Map()));
  let key = name;
  for (const step of path) key += SEP + stepText(step);
  let column = byKey.get(key);
  if (column === undefined) {
    column = build();
    byKey.set(key, column);
  }
  return column;
}

/** The column of a document, built on first use. */
export function leafColumn(doc: XdmNode, name: string, kind: LeafKind, leaf: string): Column {
  return leafPathColumn(doc, name, [{ kind, leaf }]);
}

/**
 * The column of the leaves `path` reads below each element named `name` of a document, built on
 * first use: every step but the last is a `child` step.
 */
export function leafPathColumn(doc: XdmNode, name: string, path: readonly LeafStep[]): Column {
  return cached(columns, doc, name, path, () => buildColumn(doc, name, path));
}

/**
 * Appends the nodes `path` (from step `at`, no `self` step) selects from `element` to `out`:
 * child after child, which is document order (the nodes below distinct children never
 * interleave). Attribute nodes are saxon-js's (`attributeNodes`, which compares them by parent
 * and name).
 */
function addPathNodes(element: DomNode, path: readonly LeafStep[], at: number, out: XdmNode[]): void {
  // a text node of TEXT_NODES (tree/name-rows.ts) has no attributes and no children
  if (isText(element)) return;
  const { kind, leaf } = path[at];
  if (kind === 'attribute') {
    const i = domAttributes(element).findIndex((a) => expandedName(a) === leaf);
    if (i >= 0) out.push(attributeNodes(element)[i]);
    return;
  }
  const { nth } = path[at];
  const last = at === path.length - 1;
  if (nth !== undefined) {
    const child = nthChild(element, leaf, nth);
    if (child && last) out.push(child);
    else if (child) addPathNodes(child, path, at + 1, out);
    return;
  }
  for (let node = element.firstChild ?? null; node; node = node.nextSibling ?? null) {
    if (kind === 'text') {
      if (isText(node)) out.push(node);
    } else if (node.nodeType === NodeKind.element && expandedName(node) === leaf) {
      if (last) out.push(node);
      else addPathNodes(node, path, at + 1, out);
    }
  }
}

/**
 * The nodes `path` selects below each element named `name` of a document (every step but the
 * last a `child` step, none a `self` step), read on first use.
 */
export function nodeColumn(doc: XdmNode, name: string, path: readonly LeafStep[]): NodeColumn {
  return cached(nodeColumns, doc, name, path, () => {
    const elements = elementsNamed(doc, name);
    const offsets = new Int32Array(elements.length + 1);
    const nodes: XdmNode[] = [];
    for (let i = 0; i < elements.length; i++) {
      offsets[i] = nodes.length;
      addPathNodes(elements[i], path, 0, nodes);
    }
    offsets[elements.length] = nodes.length;
    return { offsets, nodes };
  });
}

/** A column's leaves as xs:double, parsed on first use; null when some leaf is not a plain number. */
export function numbersOf(column: Column): Float64Array | null {
  if (column.numbers === undefined) {
    const { strings } = column;
    let numbers: Float64Array | null = new Float64Array(strings.length);
    for (let i = 0; i < strings.length && numbers; i++) {
      const value = plainNumber(strings[i]);
      if (value !== undefined) numbers[i] = value;
      else numbers = null;
    }
    column.numbers = numbers;
  }
  return column.numbers;
}
