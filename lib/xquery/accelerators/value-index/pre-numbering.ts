/**
 * BaseX's pre numbering of a stored document, which the value indexes (value-index.ts) post and
 * db:node-pre and db:get-pre answer: the document node 0, then in document order each element
 * followed by its attributes (namespace declarations are no attributes), then its children.
 *
 * A compact tree (tree/compact-tree.ts) is numbered from its rows without making a node: its rows
 * are in document order without the attributes, so row `r` has pre `r` plus the number of
 * attributes of the rows before it, and the attributes of row `r` follow it. At XMark factor 1
 * (2.7 million nodes), numbering by walking the tree's DOM made a node object for every node and
 * an array of them all (hundreds of megabytes, seconds); from rows it is one column of about a
 * byte a row (`AttributeStarts`), and none at all when the document declares no namespace (the
 * attribute rows are then the attributes). Other documents (saxon-js's own DOM) are numbered by
 * walking them.
 */
import { NodeKind, attributeNodes, domAttributes, isNamespaceDeclaration, type XdmNode } from '../../../saxon';
import { AttributeStarts, hasNoNamespaces, type CompactTree } from '../../../tree/compact-tree';
import { treeNode, type TreeView } from '../../../tree/tree-dom';
import { expandedName, type DomNode } from '../name-index/name-index';

export interface PreNumbering {
  /** The number of pres. */
  readonly size: number;
  /** The parent pre of `pre` (-1 for the document node). */
  parent(pre: number): number;
  /** The expanded name `Q{uri}local` of the element or attribute at `pre`; '' for other nodes. */
  nameAt(pre: number): string;
  /** The lexical name of the attribute at `pre`. */
  attributeNameAt(pre: number): string;
  /** The node at `pre` (an attribute as saxon-js's attribute axis gives it). */
  node(pre: number): XdmNode;
  /** The pre of `node`, a node of this document. */
  preOf(node: XdmNode): number | undefined;
  /** Calls `visit` with the value and pre of each text node, or of each attribute, in document order. */
  forEachValue(kind: 'text' | 'attribute', visit: (value: string, pre: number) => void): void;
  /** The bytes the numbering holds beyond the document, roughly. */
  readonly bytes: number;
}

/** The numbering of document `doc`. */
export function preNumbering(doc: XdmNode): PreNumbering {
  const row = treeNode(doc);
  return row !== undefined && row.p === 0 ? new RowNumbering(row.v) : new DomNumbering(doc as unknown as DomNode);
}

/** A compact tree's numbering, from its rows. */
class RowNumbering implements PreNumbering {
  private readonly tree: CompactTree;
  /** For each row (and one past the last), the attributes of the rows before it. */
  private readonly before: AttributeStarts;
  /** Whether the attribute rows hold namespace declarations, which are skipped. */
  private readonly declarations: boolean;
  private expanded: string[] | undefined;
  readonly size: number;
  readonly bytes: number;

  constructor(private readonly view: TreeView) {
    const tree = (this.tree = view.tree);
    this.declarations = !hasNoNamespaces(tree);
    if (!this.declarations) this.before = tree.attrStart;
    else {
      const before = new Int32Array(tree.size + 1);
      for (let r = 0; r < tree.size; r++) {
        let real = 0;
        for (let a = tree.attrStart.at(r); a < tree.attrStart.at(r + 1); a++) if (!isNamespaceDeclaration(tree.names[tree.attrName[a]].qname)) real++;
        before[r + 1] = before[r] + real;
      }
      this.before = AttributeStarts.from(before);
    }
    this.size = tree.size + this.before.at(tree.size);
    this.bytes = this.declarations ? this.before.byteLength : 0;
  }

  private rowPre(row: number): number {
    return row + this.before.at(row);
  }

  /** The row of `pre` (the row itself, or the element of an attribute) and which of its attributes (-1: the row). */
  private locate(pre: number): { readonly row: number; readonly attribute: number } {
    let lo = 0;
    let hi = this.tree.size - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.rowPre(mid) <= pre) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, attribute: pre - this.rowPre(lo) - 1 };
  }

  /** The attribute row of the `nth` attribute of `row` (declarations skipped). */
  private attributeRow(row: number, nth: number): number {
    const { attrStart, attrName, names } = this.tree;
    if (!this.declarations) return attrStart.at(row) + nth;
    for (let a = attrStart.at(row); a < attrStart.at(row + 1); a++) if (!isNamespaceDeclaration(names[attrName[a]].qname) && nth-- === 0) return a;
    return -1;
  }

  private expandedOf(id: number): string {
    const expanded = (this.expanded ??= this.tree.names.map((n) => `Q{${n.uri}}${n.local}`));
    return expanded[id];
  }

  parent(pre: number): number {
    const { row, attribute } = this.locate(pre);
    if (attribute >= 0) return this.rowPre(row);
    const parent = this.tree.parent.at(row);
    return parent < 0 ? -1 : this.rowPre(parent);
  }

  nameAt(pre: number): string {
    const { row, attribute } = this.locate(pre);
    if (attribute >= 0) return this.expandedOf(this.tree.attrName[this.attributeRow(row, attribute)]);
    return this.tree.kind[row] === NodeKind.element ? this.expandedOf(this.tree.ref[row]) : '';
  }

  attributeNameAt(pre: number): string {
    const { row, attribute } = this.locate(pre);
    return this.tree.names[this.tree.attrName[this.attributeRow(row, attribute)]].qname;
  }

  node(pre: number): XdmNode {
    const { row, attribute } = this.locate(pre);
    const node = this.view.node(row) as unknown as XdmNode;
    return attribute >= 0 ? attributeNodes(node)[attribute] : node;
  }

  preOf(node: XdmNode): number | undefined {
    if (node.nodeType !== NodeKind.attribute) {
      const row = treeNode(node);
      return row !== undefined && row.v === this.view ? this.rowPre(row.p) : undefined;
    }
    const owner = treeNode((node as unknown as { parent?: unknown }).parent);
    if (owner === undefined || owner.v !== this.view) return undefined;
    const name = (node as unknown as { name: string }).name;
    const { attrStart, attrName, names } = this.tree;
    let nth = 0;
    for (let a = attrStart.at(owner.p); a < attrStart.at(owner.p + 1); a++) {
      const qname = names[attrName[a]].qname;
      if (isNamespaceDeclaration(qname)) continue;
      if (qname === name) return this.rowPre(owner.p) + 1 + nth;
      nth++;
    }
    return undefined;
  }

  forEachValue(kind: 'text' | 'attribute', visit: (value: string, pre: number) => void): void {
    const { size, kind: kinds, ref, attrStart, attrName, attrValue, names, strings } = this.tree;
    for (let r = 1; r < size; r++) {
      if (kind === 'text') {
        if (kinds[r] === NodeKind.text) visit(strings.at(ref[r]), this.rowPre(r));
        continue;
      }
      let pre = this.rowPre(r) + 1;
      for (let a = attrStart.at(r); a < attrStart.at(r + 1); a++) if (!this.declarations || !isNamespaceDeclaration(names[attrName[a]].qname)) visit(strings.at(attrValue[a]), pre++);
    }
  }
}

/** Any other document's numbering, by walking its DOM once. */
class DomNumbering implements PreNumbering {
  /** Node by pre; for an attribute, its element. */
  private readonly nodes: DomNode[] = [];
  /** The parent pre of each pre (-1 for the document node). */
  private readonly parents: Int32Array;
  /** For an attribute's pre: its position among its element's attributes; -1 otherwise. */
  private readonly attributeAt: Int32Array;
  /** Pre of each node, made on first use (db:node-pre). */
  private pres: Map<DomNode, number> | undefined;

  constructor(doc: DomNode) {
    const { nodes } = this;
    const parents: number[] = [];
    const attributeAt: number[] = [];
    const visit = (node: DomNode, parent: number): void => {
      const pre = nodes.length;
      nodes.push(node);
      parents.push(parent);
      attributeAt.push(-1);
      if (node.nodeType === NodeKind.element) {
        const attributes = domAttributes(node);
        for (let i = 0; i < attributes.length; i++) {
          nodes.push(node);
          parents.push(pre);
          attributeAt.push(i);
        }
      }
      for (let child = node.firstChild ?? null; child; child = child.nextSibling ?? null) visit(child, pre);
    };
    visit(doc, -1);
    this.parents = Int32Array.from(parents);
    this.attributeAt = Int32Array.from(attributeAt);
  }

  get size(): number {
    return this.nodes.length;
  }

  get bytes(): number {
    return this.nodes.length * (8 + 4 + 4);
  }

  parent(pre: number): number {
    return this.parents[pre];
  }

  nameAt(pre: number): string {
    const node = this.nodes[pre];
    const at = this.attributeAt[pre];
    if (at >= 0) return expandedName(domAttributes(node)[at]);
    return node.nodeType === NodeKind.element ? expandedName(node) : '';
  }

  attributeNameAt(pre: number): string {
    return domAttributes(this.nodes[pre])[this.attributeAt[pre]].name;
  }

  node(pre: number): XdmNode {
    const at = this.attributeAt[pre];
    return at >= 0 ? attributeNodes(this.nodes[pre] as unknown as XdmNode)[at] : (this.nodes[pre] as unknown as XdmNode);
  }

  preOf(node: XdmNode): number | undefined {
    if (!this.pres) {
      const pres = new Map<DomNode, number>();
      this.nodes.forEach((n, pre) => {
        if (this.attributeAt[pre] < 0) pres.set(n, pre);
      });
      this.pres = pres;
    }
    if (node.nodeType !== NodeKind.attribute) return this.pres.get(node as unknown as DomNode);
    const owner = (node as unknown as { parent?: DomNode | null }).parent;
    const ownerPre = owner ? this.pres.get(owner) : undefined;
    if (ownerPre === undefined || !owner) return undefined;
    const name = (node as unknown as { name: string }).name;
    const at = domAttributes(owner as unknown as XdmNode).findIndex((a) => a.name === name);
    return at < 0 ? undefined : ownerPre + 1 + at;
  }

  forEachValue(kind: 'text' | 'attribute', visit: (value: string, pre: number) => void): void {
    const { nodes, attributeAt } = this;
    for (let pre = 0; pre < nodes.length; pre++) {
      const node = nodes[pre];
      if (kind === 'text') {
        if (node.nodeType === NodeKind.text) visit((node as unknown as { nodeValue: string }).nodeValue, pre);
      } else if (node.nodeType === NodeKind.element && attributeAt[pre] < 0) {
        // the element's attributes follow it: pre + 1, pre + 2, ...
        domAttributes(node as unknown as XdmNode).forEach((a, i) => visit(a.value, pre + 1 + i));
      }
    }
  }
}
