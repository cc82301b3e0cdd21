/**
 * Elements of a compact tree by expanded name, read from its columns without making nodes:
 * what the element-name index (xquery/accelerators/name-index/name-index.ts) answers for stored documents.
 */
import { NodeKind, type CompactTree, type TreeName } from './compact-tree';

/**
 * The name that stands for every element where the functions below take an expanded name: no
 * expanded name is written so (`Q{uri}local`).
 */
export const ANY_ELEMENT = '*';

/**
 * The name that stands for every text node where the functions below take an expanded name:
 * `//text()[p]` is answered as `//name[p]` is, its text nodes in the place of the elements.
 */
export const TEXT_NODES = '#text';

/** `Q{uri}local` of a tree's name, as the functions below take it. */
function expandedOf(n: TreeName): string {
  return `Q{${n.uri}}${n.local}`;
}

/**
 * The name under which the functions below list row `pre`: its expanded name for an element,
 * TEXT_NODES for a text node; undefined for a node of another kind.
 */
export function listedName(tree: CompactTree, pre: number): string | undefined {
  const kind = tree.kind[pre];
  return kind === NodeKind.element ? expandedOf(tree.names[tree.ref[pre]]) : kind === NodeKind.text ? TEXT_NODES : undefined;
}

/** Rows of every element named `Q{uri}local` (or ANY_ELEMENT; of every text node: TEXT_NODES), by tree, listed on first use. */
const byTree = new WeakMap<CompactTree, Map<string, Int32Array>>();

/** Name ids by expanded name, by tree. */
const idsByTree = new WeakMap<CompactTree, Map<string, ReadonlySet<number>>>();

/** The name ids of `Q{uri}local` (a name may be used with several prefixes), found once per tree and name. */
export function nameIds(tree: CompactTree, expanded: string): ReadonlySet<number> {
  let known = idsByTree.get(tree);
  if (known === undefined) idsByTree.set(tree, (known = new Map()));
  let ids = known.get(expanded);
  if (ids === undefined) {
    const found = new Set<number>();
    tree.names.forEach((n, id) => {
      if (expandedOf(n) === expanded) found.add(id);
    });
    known.set(expanded, (ids = found));
  }
  return ids;
}

/**
 * Below this many rows a range is scanned; a larger one is found in the tree's list of the name's
 * rows (`elementRows`, listed once per tree and name) by two binary searches, so that
 * `$e//name` below a large element costs the answer, not the element's subtree, however often
 * it is asked (XMark's `count($site//description)` below a 2.7 million row document element).
 */
const SCAN_ROWS = 4096;

/** The first index from `start` on of sorted `rows` whose row is `row` or after it (`rows.length` if none is). */
export function firstAtOrAfter(rows: Int32Array, row: number, start = 0): number {
  let lo = start;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid] < row) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function scanRowsIn(tree: CompactTree, expanded: string, from: number, to: number): Int32Array {
  if (expanded === ANY_ELEMENT) return anyElementRowsIn(tree, from, to);
  if (expanded === TEXT_NODES) return rowsOfKindIn(tree, NodeKind.text, from, to);
  const ids = nameIds(tree, expanded);
  if (ids.size === 0) return new Int32Array(0);
  const { kind, ref: name } = tree;
  const out: number[] = [];
  if (ids.size === 1) {
    const [id] = ids;
    for (let i = from; i < to; i++) if (name[i] === id && kind[i] === NodeKind.element) out.push(i);
  } else {
    for (let i = from; i < to; i++) if (kind[i] === NodeKind.element && ids.has(name[i])) out.push(i);
  }
  return Int32Array.from(out);
}

/**
 * The rows in `from … to - 1` of elements named `expanded` (`Q{uri}local`, or ANY_ELEMENT), or of
 * the text nodes (TEXT_NODES), in document order.
 * A large range answers a view of the listed rows: callers read it, never write it.
 */
export function elementRowsIn(tree: CompactTree, expanded: string, from: number, to: number): Int32Array {
  if (to - from < SCAN_ROWS && !byTree.get(tree)?.has(expanded)) return scanRowsIn(tree, expanded, from, to);
  const rows = elementRows(tree, expanded);
  return rows.subarray(firstAtOrAfter(rows, from), firstAtOrAfter(rows, to));
}

/** The rows of every element named `expanded` (or of every element: ANY_ELEMENT) in the tree (listed once per tree and name). */
export function elementRows(tree: CompactTree, expanded: string): Int32Array {
  let names = byTree.get(tree);
  if (names === undefined) byTree.set(tree, (names = new Map()));
  let rows = names.get(expanded);
  if (rows === undefined) names.set(expanded, (rows = scanRowsIn(tree, expanded, 1, tree.size)));
  return rows;
}

/** The rows of every element in `from … to - 1`, in document order. */
export function anyElementRowsIn(tree: CompactTree, from: number, to: number): Int32Array {
  return rowsOfKindIn(tree, NodeKind.element, from, to);
}

/** The rows of node kind `kind` in `from … to - 1`, in document order. */
function rowsOfKindIn(tree: CompactTree, kind: number, from: number, to: number): Int32Array {
  const out: number[] = [];
  for (let i = from; i < to; i++) if (tree.kind[i] === kind) out.push(i);
  return Int32Array.from(out);
}

/** Whether rows `from … to - 1` take in every row after the first (the document node): the whole tree for the answers kept per tree. */
function isWholeTree(tree: CompactTree, from: number, to: number): boolean {
  return from <= 1 && to >= tree.size;
}

/** The first element row of each name id in a whole tree (`firstRowsByName` over every row), by tree. */
const firstRowsOfTree = new WeakMap<CompactTree, Int32Array>();

/**
 * One row per distinct name of the elements in `from … to - 1`: the row of the first element
 * with that name id (prefix, namespace and local name), in document order. The answer for the
 * whole tree is kept; callers read it, never write it.
 */
export function firstRowsByName(tree: CompactTree, from: number, to: number): Int32Array {
  const whole = isWholeTree(tree, from, to);
  const kept = whole ? firstRowsOfTree.get(tree) : undefined;
  if (kept !== undefined) return kept;
  const { kind, ref: name } = tree;
  const seen = new Uint8Array(tree.names.length);
  const out: number[] = [];
  for (let i = from; i < to; i++) {
    if (kind[i] === NodeKind.element && seen[name[i]] === 0) {
      seen[name[i]] = 1;
      out.push(i);
    }
  }
  const rows = Int32Array.from(out);
  if (whole) firstRowsOfTree.set(tree, rows);
  return rows;
}

/** How many elements of each name id a whole tree has (`countElementsWithIds` over every row), by tree. */
const elementCountsOfTree = new WeakMap<CompactTree, Int32Array>();

/** The number of elements of each name id in the whole tree, counted once per tree. */
function elementCountsByName(tree: CompactTree): Int32Array {
  let counts = elementCountsOfTree.get(tree);
  if (counts === undefined) {
    const { kind, ref: name } = tree;
    counts = new Int32Array(tree.names.length);
    for (let i = 1; i < tree.size; i++) if (kind[i] === NodeKind.element) counts[name[i]]++;
    elementCountsOfTree.set(tree, counts);
  }
  return counts;
}

/**
 * How many elements in `from … to - 1` have a name id marked (non-zero) in `ids`: what
 * `elementRowsWithIds` answers, counted. Over the whole tree, from the counts kept per name.
 */
export function countElementsWithIds(tree: CompactTree, ids: Uint8Array, from: number, to: number): number {
  let count = 0;
  if (isWholeTree(tree, from, to)) {
    const counts = elementCountsByName(tree);
    for (let id = 0; id < ids.length; id++) if (ids[id] !== 0) count += counts[id];
    return count;
  }
  const { kind, ref: name } = tree;
  for (let i = from; i < to; i++) if (kind[i] === NodeKind.element && ids[name[i]] !== 0) count++;
  return count;
}

/** The rows in `from … to - 1` of elements whose name id is marked (non-zero) in `ids`, in document order. */
export function elementRowsWithIds(tree: CompactTree, ids: Uint8Array, from: number, to: number): Int32Array {
  const { kind, ref: name } = tree;
  const out: number[] = [];
  for (let i = from; i < to; i++) if (kind[i] === NodeKind.element && ids[name[i]] !== 0) out.push(i);
  return Int32Array.from(out);
}
