/**
 * BaseX's pre numbering (pre-numbering.ts) from the rows of a compact tree is the numbering of
 * walking the same document's DOM, node by node, and it makes no node to get there.
 */
import { NodeKind, parseToSaxonDocument, type XdmNode } from '../../../../lib/saxon';
import { parseToCompactTree } from '../../../../lib/tree/build-tree';
import { TreeView } from '../../../../lib/tree/tree-dom';
import { preNumbering, type PreNumbering } from '../../../../lib/xquery/accelerators/value-index/pre-numbering';
import { countNodesAsked } from '../../../helpers/nodes-asked';

const DOCUMENTS = {
  'attributes, text, comments, PIs': '<r a="1" b="2"><x id="1">v<!--c--><?p d?></x>t<y/><z k="" l="w">u<w m="n"/></z></r>',
  'namespace declarations among attributes': '<r xmlns="urn:d" xmlns:p="urn:p" a="1"><p:x p:b="2" xmlns:q="urn:q" c="3"><q:y xmlns:q="urn:q2" q:d="4"/></p:x><x/></r>',
  'a default namespace undeclared below': '<a xmlns="urn:a" x="1"><b xmlns="" y="2">t</b></a>',
  'no attributes at all': '<r><s>1</s><s>2</s></r>',
};

/** What a numbering says of every pre, as plain data. */
function describe_(n: PreNumbering): unknown[] {
  const out: unknown[] = [];
  for (let pre = 0; pre < n.size; pre++) {
    const node = n.node(pre);
    const attribute = node.nodeType === NodeKind.attribute;
    out.push([pre, n.parent(pre), n.nameAt(pre), attribute ? n.attributeNameAt(pre) : '', node.nodeType, n.preOf(node)]);
  }
  const values = (kind: 'text' | 'attribute') => {
    const seen: unknown[] = [];
    n.forEachValue(kind, (value, pre) => seen.push([value, pre]));
    return seen;
  };
  return [n.size, out, values('text'), values('attribute')];
}

describe('the numbering of a compact tree', () => {
  test.each(Object.entries(DOCUMENTS))('is that of its DOM: %s', (_name, xml) => {
    const rows = preNumbering(new TreeView(parseToCompactTree(xml)).document);
    const dom = preNumbering(parseToSaxonDocument(xml));
    expect(describe_(rows)).toEqual(describe_(dom));
  });

  test('makes no node to number, index or name them', () => {
    const view = new TreeView(parseToCompactTree(DOCUMENTS['namespace declarations among attributes']));
    const doc = view.document;
    const asked = countNodesAsked(view);
    const numbering = preNumbering(doc);
    for (let pre = 0; pre < numbering.size; pre++) {
      numbering.parent(pre);
      numbering.nameAt(pre);
    }
    numbering.forEachValue('text', () => {});
    numbering.forEachValue('attribute', () => {});
    expect(asked()).toBe(0);
    // nodes are made when one is asked for: an attribute's element, and the document that owns its attributes
    expect((numbering.node(2) as XdmNode & { nodeType: number }).nodeType).toBe(NodeKind.attribute);
    expect(asked()).toBe(2);
  });
});
