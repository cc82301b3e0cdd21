/**
 * Document order over compact trees (compact-tree.ts): rows are in document order, so two nodes of
 * one tree compare by their rows, with no walk up the tree (saxon-js's node comparison is
 * patched to ask here first, saxon/patches/document-order.ts).
 */
import { treeNode } from './tree-dom';

/** A node of a compact tree: its view and row. */
type TreeNode = NonNullable<ReturnType<typeof treeNode>>;

/**
 * The document order of two nodes when both belong to compact trees (their own nodes, or
 * attributes of their elements): from rows, without walking the tree. Within one tree a node
 * comes at its row, an element's attributes right after it in the order of its attribute list
 * (the order saxon-js gives attributes), before its children. Nodes of two trees come in the
 * order of their places in the store (`placeStored`), else of their document nodes, which `compareDocuments` tells. Undefined when either node is
 * of another kind (saxon-js's own DOM, a namespace node), for the caller to decide.
 */
export function compareTreeOrder(a: unknown, b: unknown, compareDocuments: (a: object, b: object) => number): number | undefined {
  const x = rowHolder(a);
  if (x === undefined) return undefined;
  const y = rowHolder(b);
  if (y === undefined) return undefined;
  if (x.v !== y.v) {
    const first = x.v.node(0);
    const second = y.v.node(0);
    return compareStored(first, second) ?? compareDocuments(first, second);
  }
  if (x.p !== y.p) return x.p - y.p;
  const placeA = placeAmongAttributes(x, a);
  const placeB = placeAmongAttributes(y, b);
  return placeA < 0 || placeB < 0 ? undefined : placeA - placeB;
}

/** Stored documents' database and path, by document node (`placeStored`). */
const stored = new WeakMap<object, StoredPlace>();

/** Where a stored document is: its database and its path there. */
export interface StoredPlace {
  readonly db: string;
  readonly path: string;
}

/**
 * Notes that `document` is the stored document `path` of database `db` (`storedPlace` answers
 * it, for the worker's db: functions as for the order here): two stored documents
 * then come in the order of their databases' names and their paths (code units), the order in
 * which fn:collection and db:get list them, rather than in the order in which saxon-js first
 * compared them (it numbers a document at its first comparison), which depended on the queries
 * before.
 */
export function placeStored(document: object, db: string, path: string): void {
  stored.set(document, { db, path });
}

/** The database and path `placeStored` noted for `document`, if any. */
export function storedPlace(document: object): StoredPlace | undefined {
  return stored.get(document);
}

function compareStored(a: object, b: object): number | undefined {
  const x = stored.get(a);
  if (x === undefined) return undefined;
  const y = stored.get(b);
  if (y === undefined) return undefined;
  if (x.db !== y.db) return x.db < y.db ? -1 : 1;
  return x.path < y.path ? -1 : x.path > y.path ? 1 : 0;
}

/** An attribute node as saxon-js hands it out: made per visit, with its element in `parent`. */
interface AttributeNode {
  readonly nodeType: number;
  readonly parent?: unknown;
  readonly namespaceURI?: string | null;
  readonly localName?: string;
}

/** The node of a compact tree whose row places `node`: the node, or the element of its attribute. */
function rowHolder(node: unknown): TreeNode | undefined {
  const own = treeNode(node);
  if (own !== undefined) return own;
  const n = node as Partial<AttributeNode> | null;
  if (n === null || typeof n !== 'object' || n.nodeType !== 2) return undefined;
  return treeNode(n.parent);
}

/** 0 for the holder itself, 1 + i for its attribute i (by expanded name), -1 for no such attribute. */
function placeAmongAttributes(holder: TreeNode, node: unknown): number {
  if (node === holder) return 0;
  const { localName, namespaceURI } = node as AttributeNode;
  const uri = namespaceURI ?? '';
  const { attrStart, attrName, names } = holder.v.tree;
  const from = attrStart.at(holder.p);
  for (let i = from; i < attrStart.at(holder.p + 1); i++) {
    const name = names[attrName[i]];
    if (name.local === localName && name.uri === uri) return 1 + i - from;
  }
  return -1;
}
