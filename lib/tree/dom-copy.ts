/**
 * Copies of a compact tree's nodes (compact-tree.ts) into saxon-js's own DOM, which a query may
 * modify: what the read-only node objects of tree-dom.ts answer to `cloneNode`.
 */
import { parseToSaxonDocument } from '../saxon';
import { NodeKind, firstChild, nameIdAt, nextSibling, type CompactTree } from './compact-tree';

/**
 * Row `top` of `tree` as a modifiable copy in saxon-js's own DOM (what `cloneNode` answers), with
 * its descendants when `deep`. saxon-js's own `importNode` cannot copy the node objects of
 * tree-dom.ts (it copies fields, not what the getters answer): copy with `cloneNode` first.
 */
export function copyToDom(tree: CompactTree, top: number, deep: boolean): object {
  // a node that is not a document is copied into one scratch document: making a document costs
  // more than most copies (saxon-js copies each text node of a stored document it puts in a result)
  const doc = top === 0 ? (parseToSaxonDocument('<x/>') as unknown as DomFactory) : (scratch ??= parseToSaxonDocument('<x/>') as unknown as DomFactory);
  const build = (pre: number): object => {
    switch (tree.kind[pre]) {
      case NodeKind.text:
        return doc.createTextNode(tree.strings.at(tree.ref[pre]));
      case NodeKind.comment:
        return doc.createComment(tree.strings.at(tree.ref[pre]));
      case NodeKind.pi:
        return doc.createProcessingInstruction(tree.names[nameIdAt(tree, pre)].qname, tree.strings.at(tree.ref[pre]));
      default: {
        const n = tree.names[tree.ref[pre]];
        const el = doc.createElementNS(n.uri === '' ? null : n.uri, n.qname);
        for (let i = tree.attrStart.at(pre); i < tree.attrStart.at(pre + 1); i++) {
          const a = tree.names[tree.attrName[i]];
          const attr = doc.createAttributeNS(a.uri === '' ? null : a.uri, a.qname);
          attr.value = attr.nodeValue = tree.strings.at(tree.attrValue[i]);
          el.setAttributeNode(attr);
        }
        if (deep) for (let c = firstChild(tree, pre); c >= 0; c = nextSibling(tree, c)) el.appendChild(build(c));
        return el;
      }
    }
  };
  if (top !== 0) return build(top);
  doc.removeChild(doc.documentElement);
  if (deep) for (let c = firstChild(tree, 0); c >= 0; c = nextSibling(tree, c)) doc.appendChild(build(c));
  return doc;
}

let scratch: DomFactory | undefined;

interface DomFactory {
  createTextNode(data: string): object;
  createComment(data: string): object;
  createProcessingInstruction(target: string, data: string): object;
  createElementNS(uri: string | null, qname: string): { setAttributeNode(a: object): void; appendChild(n: object): void };
  createAttributeNS(uri: string | null, qname: string): { value: string; nodeValue: string };
  appendChild(n: object): void;
  removeChild(n: object): void;
  readonly documentElement: object;
}
