/**
 * Parentless elements made in bulk: one compact tree holding them all as a forest
 * (build-tree.ts `TreeBuilder`), presented to saxon-js by tree-dom.ts. Each top-level element has
 * no parent and no siblings, as an element a constructor makes (XQuery 3.1 §3.9.1), and its
 * nodes are read from rows: a few bytes a node, where saxon-js's own DOM spends several objects
 * (about 800 bytes for an element with an attribute and a text), and nothing for the garbage
 * collector to copy until a query touches them. engine:leaf-tuples builds its results here.
 *
 * Names are in no namespace and unprefixed (the plain constructors', and those of the elements
 * copied in); adjacent text is one text node, zero-length text none.
 */
import type { XdmNode } from '../saxon';
import type { Pair } from '../convert/writer';
import { TreeBuilder } from './build-tree';
import { TreeView, treeNode } from './tree-dom';
import { NodeKind, firstChild, hasNoNamespaces, nextSibling, type CompactTree } from './compact-tree';

export class ElementForest {
  private readonly builder = new TreeBuilder(1024, true);
  private readonly roots: number[] = [];
  private depth = 0;

  /** Opens an element; the top-level ones are the forest's trees, in order. Returns its index among them (top level) or -1. */
  start(name: string, attributes: readonly Pair[]): number {
    const top = this.depth++ === 0;
    if (top) this.roots.push(this.builder.rows);
    this.builder.startElement(name, attributes);
    return top ? this.roots.length - 1 : -1;
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

  private copyRow(tree: CompactTree, pre: number): void {
    const { builder } = this;
    switch (tree.kind[pre]) {
      case NodeKind.element: {
        const attributes: Pair[] = [];
        for (let i = tree.attrStart[pre]; i < tree.attrStart[pre + 1]; i++) attributes.push([tree.names[tree.attrName[i]].qname, tree.strings.at(tree.attrValue[i])]);
        builder.startElement(tree.names[tree.name[pre]].qname, attributes);
        for (let c = firstChild(tree, pre); c >= 0; c = nextSibling(tree, c)) this.copyRow(tree, c);
        builder.endElement();
        return;
      }
      case NodeKind.text:
        builder.characters(tree.strings.at(tree.value[pre]));
        return;
      case NodeKind.comment:
        builder.comment(tree.strings.at(tree.value[pre]));
        return;
      case NodeKind.pi:
        builder.processingInstruction(tree.names[tree.name[pre]].qname, tree.strings.at(tree.value[pre]));
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
