/**
 * Parentless elements made in bulk: one compact tree holding them all as a forest
 * (build-tree.ts `TreeBuilder`), presented to saxon-js by tree-dom.ts. Each top-level element has
 * no parent and no siblings, as an element a constructor makes (XQuery 3.1 §3.9.1), and its
 * nodes are read from rows: a few bytes a node, where saxon-js's own DOM spends several objects
 * (about 800 bytes for an element with an attribute and a text), and nothing for the garbage
 * collector to copy until a query touches them. engine:leaf-tuples builds its results here, and
 * engine:forest-element the elements of plain constructors whose content copies nodes.
 *
 * Names are in no namespace and unprefixed (the plain constructors', and those of the elements
 * copied in); adjacent text is one text node, zero-length text none.
 */
import { domAttributes, isNamespaceDeclaration, type XdmNode } from '../saxon';
import { TreeBuilder } from './build-tree';
import { TreeView, treeNode } from './tree-dom';
import { NodeKind, firstChild, hasNoNamespaces, nameIdAt, nextSibling, type CompactTree } from './compact-tree';

/** A node of saxon-js's own DOM, as far as a copy reads it. */
interface DomNode {
  readonly nodeType: number;
  readonly parentNode: DomNode | null;
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly nodeName: string;
  readonly nodeValue: string | null;
  readonly namespaceURI?: string | null;
  readonly prefix?: string | null;
  /** A processing instruction's target and data. */
  readonly target?: string;
  readonly data?: string;
}

/** Whether `node` (a DOM node) and its descendants have names in no namespace, unprefixed, and declare none. */
function plainDom(node: DomNode): boolean {
  if (node.nodeType !== NodeKind.element) return node.nodeType === NodeKind.text || node.nodeType === NodeKind.comment || node.nodeType === NodeKind.pi;
  if (node.namespaceURI || node.prefix) return false;
  const attributes = (node as unknown as { attributes?: ArrayLike<{ name: string; namespaceURI?: string | null }> }).attributes;
  for (let i = 0; attributes && i < attributes.length; i++) if (attributes[i].namespaceURI || attributes[i].name.includes(':') || isNamespaceDeclaration(attributes[i].name)) return false;
  for (let c = node.firstChild; c !== null; c = c.nextSibling) if (!plainDom(c)) return false;
  return true;
}

export class ElementForest {
  private readonly builder: TreeBuilder;
  private readonly roots: number[] = [];
  private depth = 0;

  /**
   * `rows`: how many rows to make room for first (the builder grows past it). Few by default:
   * most results are small, and the builder's columns are made and copied once per result.
   */
  constructor(rows = 64) {
    this.builder = new TreeBuilder(rows, true);
  }

  /** How many rows copying `node` adds at least (`copies` must hold): its subtree's rows in a compact tree, 1 for a DOM node. */
  static rowsOf(node: unknown): number {
    const row = treeNode(node);
    return row === undefined ? 1 : row.v.tree.end.at(row.p) - row.p;
  }

  /**
   * Opens an element, whose attributes `attribute` adds next; the top-level ones are the forest's
   * trees, in order. Returns its index among them (top level) or -1.
   */
  start(name: string): number {
    const top = this.depth++ === 0;
    if (top) this.roots.push(this.builder.rows);
    this.builder.openElement(name);
    return top ? this.roots.length - 1 : -1;
  }

  /** An attribute of the element opened last, before its content (no name twice: the caller checks). */
  attribute(name: string, value: string): void {
    this.builder.attribute(name, value);
  }

  text(s: string): void {
    this.builder.characters(s);
  }

  /**
   * Copies `node` into the element open now, as content copies a node (XQuery 3.1 §3.9.1.3):
   * an element of a stored document's compact tree in which no name has a namespace (so the copy
   * has none in scope either), with its attributes and descendants. False, copying nothing, for
   * any other node.
   */
  copy(node: unknown): boolean {
    const row = treeNode(node);
    if (this.depth === 0 || row === undefined || row.v.tree.kind[row.p] !== NodeKind.element || !hasNoNamespaces(row.v.tree)) return false;
    this.copyRow(row.v.tree, row.p);
    return true;
  }

  /**
   * Whether `copyNode` copies `node`: an element, text, comment or processing instruction of a
   * compact tree in which no name has a namespace; a text, comment or processing instruction of
   * saxon-js's DOM, or a parentless element of it (as engine:plain-element and saxon-js's
   * constructors make) whose names and whose descendants' names have none and which declares
   * none: no copy has a namespace in scope.
   */
  static copies(node: unknown): boolean {
    const row = treeNode(node);
    if (row !== undefined) return row.v.tree.kind[row.p] !== NodeKind.document && hasNoNamespaces(row.v.tree);
    const dom = node as DomNode;
    if (typeof dom?.nodeType !== 'number') return false;
    // an element's in-scope namespaces include its ancestors' declarations: only a parentless one is known to have none
    return dom.nodeType === NodeKind.element ? dom.parentNode === null && plainDom(dom) : plainDom(dom);
  }

  /** Copies `node` (`copies` says which) into the element open now, as element content copies a node (XQuery 3.1 §3.9.1.3). */
  copyNode(node: unknown): void {
    const row = treeNode(node);
    if (row !== undefined) this.copyRow(row.v.tree, row.p);
    else this.copyDom(node as DomNode);
  }

  private copyDom(node: DomNode): void {
    const { builder } = this;
    switch (node.nodeType) {
      case NodeKind.element: {
        builder.openElement(node.nodeName);
        for (const a of domAttributes(node as unknown as XdmNode)) builder.attribute(a.name, a.value);
        for (let c = node.firstChild; c !== null; c = c.nextSibling) this.copyDom(c);
        builder.endElement();
        return;
      }
      case NodeKind.text:
        builder.characters(node.nodeValue ?? '');
        return;
      case NodeKind.comment:
        builder.comment(node.nodeValue ?? '');
        return;
      case NodeKind.pi:
        builder.processingInstruction(node.target ?? node.nodeName, node.data ?? node.nodeValue ?? '');
    }
  }

  private copyRow(tree: CompactTree, pre: number): void {
    const { builder } = this;
    switch (tree.kind[pre]) {
      case NodeKind.element: {
        builder.openElement(tree.names[tree.ref[pre]].qname);
        for (let i = tree.attrStart.at(pre), end = tree.attrStart.at(pre + 1); i < end; i++) builder.attribute(tree.names[tree.attrName[i]].qname, tree.strings.at(tree.attrValue[i]));
        for (let c = firstChild(tree, pre); c >= 0; c = nextSibling(tree, c)) this.copyRow(tree, c);
        builder.endElement();
        return;
      }
      case NodeKind.text:
        builder.characters(tree.strings.at(tree.ref[pre]));
        return;
      case NodeKind.comment:
        builder.comment(tree.strings.at(tree.ref[pre]));
        return;
      case NodeKind.pi:
        builder.processingInstruction(tree.names[nameIdAt(tree, pre)].qname, tree.strings.at(tree.ref[pre]));
    }
  }

  end(): void {
    this.depth--;
    this.builder.endElement();
  }

  /** The top-level elements as nodes, each of base URI `base` (none: the static base URI is absent). */
  finish(base: string | null): XdmNode[] {
    const view = new TreeView(this.builder.finish());
    return this.roots.map((row) => {
      const node = view.node(row) as unknown as XdmNode & { _saxonBaseUri?: string };
      if (base !== null) node._saxonBaseUri = base;
      return node;
    });
  }
}
