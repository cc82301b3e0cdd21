/**
 * The accelerators' two readers: over a compact tree (stored documents) they read rows, over
 * saxon-js's own DOM (context documents, constructed nodes) they walk nodes. For the same XML
 * both must answer the same nodes in the same order, and the same leaf columns.
 */
import { saxon, type XdmArray, type XdmNode } from '../../../lib/saxon';
import { parseToCompactDom } from '../../../lib/convert/xml';
import { parseToCompactTree } from '../../../lib/tree/build-tree';
import { TreeView } from '../../../lib/tree/tree-dom';
import { countNamed, descendantElements, descendantsNamed, elementsNamed, namedElements, registerNameIndexFunctions } from '../../../lib/xquery/accelerators/name-index/name-index';
import { leafColumn, leafPathColumn, type LeafKind, type LeafStep } from '../../../lib/xquery/accelerators/leaf-columns/leaf-columns';
import { groupLeaves } from '../../../lib/xquery/accelerators/leaf-groups/leaf-groups';
import { orderLeaves, type LeafKey, type LeafSortSpec } from '../../../lib/xquery/accelerators/leaf-order/leaf-order';
import { leafReturns } from '../../../lib/xquery/accelerators/leaf-returns/leaf-returns';
import { childPath } from '../../../lib/xquery/accelerators/child-paths/child-paths';
import { elementNameSamples, elementsNamedAs } from '../../../lib/xquery/accelerators/name-predicates/name-predicates';
import { lookupTexts, textAt, textCount, tokenCounts } from '../../../lib/xquery/accelerators/fulltext-index/fulltext-index';

const XML =
  '<r xmlns:p="urn:p" xmlns:q="urn:p"><a id="1" p:k="x"><b n="1">x<c>c1</c>y</b><a id="3"><b n="2"><b n="3"/></b></a></a>' +
  '<a id="2"><b n="4">  <c>c2</c><c/><!--n--></b><p:b n="5">z</p:b><q:b n="6"/></a><!--b--><?b b?><b n="7"><c>7<c>8</c></c></b></r>';

const dom = parseToCompactDom(XML) as XdmNode;
const tree = new TreeView(parseToCompactTree(XML)).document;
const paths = (nodes: readonly unknown[]): string[] => nodes.map((n) => String(saxon().XPath.evaluate('path(.)', n)));
const first = (doc: XdmNode, xpath: string): XdmNode => saxon().XPath.evaluate(`(${xpath})[1]`, doc) as XdmNode;

const NAMES = ['Q{}a', 'Q{}b', 'Q{}c', 'Q{urn:p}b', 'Q{}none', 'Q{urn:none}b'];

describe('the element-name index over a tree and over a DOM', () => {
  test.each(NAMES)('elements named %s', (name) => {
    expect(paths(elementsNamed(tree, name))).toEqual(paths(elementsNamed(dom, name)));
    expect(countNamed(tree, name)).toBe(countNamed(dom, name));
    const lazy = namedElements(tree, name);
    expect(paths(Array.from({ length: lazy.length }, (_, i) => lazy.at(i)))).toEqual(paths(elementsNamed(dom, name)));
  });

  test.each(NAMES)('descendants named %s of an element', (name) => {
    for (const at of ['//a[@id = "1"]', '//a[@id = "2"]', '//b[@n = "7"]', '//c']) {
      expect(paths(descendantsNamed(first(tree, at), name))).toEqual(paths(descendantsNamed(first(dom, at), name)));
    }
  });

  test('every descendant element, of the document and of an element', () => {
    expect(paths(descendantElements(tree))).toEqual(paths(descendantElements(dom)));
    expect(paths(descendantElements(first(tree, '//a')))).toEqual(paths(descendantElements(first(dom, '//a'))));
  });

  test.each([
    [['Q{}a', 'Q{}b', 'Q{}c']],
    [['Q{}a', 'Q{urn:p}b']],
    [['Q{}a', 'Q{}a', 'Q{}b', 'Q{}b']],
    [['Q{}b', 'Q{}c', 'Q{}c']],
    [['Q{}none', 'Q{}b']],
  ])('child steps %j from the root element', (names) => {
    expect(paths(childPath(first(tree, '/r'), names))).toEqual(paths(childPath(first(dom, '/r'), names)));
  });
});

describe('elements by the names of samples over a tree and over a DOM', () => {
  const names = (nodes: readonly XdmNode[]): string[] => nodes.map((n) => String(n.nodeName));

  test('one sample per name (prefix included), in document order', () => {
    expect(paths(elementNameSamples(tree))).toEqual(paths(elementNameSamples(dom)));
    expect(names(elementNameSamples(tree))).toEqual(['r', 'a', 'b', 'c', 'p:b', 'q:b']);
    for (const at of ['//a[@id = "1"]', '//a[@id = "2"]', '//c[c]']) {
      expect(paths(elementNameSamples(first(tree, at)))).toEqual(paths(elementNameSamples(first(dom, at))));
    }
    expect(elementNameSamples(first(tree, '//b[@n = "3"]'))).toEqual([]);
  });

  test.each([[['b']], [['p:b']], [['a', 'c']], [['q:b', 'r']], [[]]])('the elements named as the samples %j', (kept) => {
    const keep = (doc: XdmNode): XdmNode[] => elementNameSamples(doc).filter((s) => kept.includes(String(s.nodeName)));
    expect(paths(elementsNamedAs(tree, keep(tree)))).toEqual(paths(elementsNamedAs(dom, keep(dom))));
    expect(names(elementsNamedAs(tree, keep(tree))).every((n) => kept.includes(n))).toBe(true);
    expect(paths(elementsNamedAs(first(tree, '//a[@id = "2"]'), keep(tree)))).toEqual(paths(elementsNamedAs(first(dom, '//a[@id = "2"]'), keep(dom))));
    // samples of another tree are compared by name
    expect(paths(elementsNamedAs(tree, keep(dom)))).toEqual(paths(elementsNamedAs(dom, keep(dom))));
  });
});

describe('children named of some elements over a tree and over a DOM', () => {
  const FLAT = '<r><i id="1"><n>a</n></i><i id="2"><n>b</n><x/><n>c</n></i><i id="3"/><i id="4"><n>d</n></i><n>e</n></r>';
  const flat = { tree: new TreeView(parseToCompactTree(FLAT)).document, dom: parseToCompactDom(FLAT) as XdmNode };
  const childrenNamed = (doc: XdmNode, parents: string): unknown =>
    saxon().XPath.evaluate(`Q{urn:xmldb-rest:engine}children-named(/, 'Q{}i', ${parents}, 'Q{}n')`, doc, { resultForm: 'array' });
  const answer = (doc: XdmNode, parents: string): string[] => {
    const nodes = childrenNamed(doc, parents) as unknown[];
    return nodes.every((n) => typeof n === 'object' && n !== null && 'nodeType' in n) ? paths(nodes) : nodes.map(String);
  };
  beforeAll(registerNameIndexFunctions);

  test.each([
    ['//i[@id = "4"]', ['/Q{}r[1]/Q{}i[4]/Q{}n[1]']],
    ['//i[@id = ("2", "4")]', ['/Q{}r[1]/Q{}i[2]/Q{}n[1]', '/Q{}r[1]/Q{}i[2]/Q{}n[2]', '/Q{}r[1]/Q{}i[4]/Q{}n[1]']],
    ['//i[@id = "3"]', []],
    ['//i', ['/Q{}r[1]/Q{}i[1]/Q{}n[1]', '/Q{}r[1]/Q{}i[2]/Q{}n[1]', '/Q{}r[1]/Q{}i[2]/Q{}n[2]', '/Q{}r[1]/Q{}i[4]/Q{}n[1]']],
    // not among the elements named i, or not in their order: the caller takes the step as written
    ['/r', ['false']],
    ['(//i[@id = "4"], //i[@id = "2"])', ['false']],
  ])('the n children of %s', (parents, expected) => {
    expect(answer(flat.tree, parents)).toEqual(expected);
    expect(answer(flat.dom, parents)).toEqual(expected);
  });
});

describe('the full-text index over a tree and over a DOM', () => {
  const fold = { caseSensitive: false, diacriticsSensitive: false };
  test('the same text nodes, tokens and counts', () => {
    expect(textCount(tree, fold)).toBe(textCount(dom, fold));
    expect([...tokenCounts(tree, fold)]).toEqual([...tokenCounts(dom, fold)]);
    for (const exact of ['x', 'c2', '7', 'none']) {
      const positions = lookupTexts(tree, fold, { exact });
      expect(positions).toEqual(lookupTexts(dom, fold, { exact }));
      expect(paths(positions.map((p) => textAt(tree, fold, p)))).toEqual(paths(positions.map((p) => textAt(dom, fold, p))));
    }
  });
});

describe('leaf columns over a tree and over a DOM', () => {
  test.each([
    ['Q{}b', 'child', 'Q{}c'],
    ['Q{}b', 'attribute', 'Q{}n'],
    ['Q{}a', 'attribute', 'Q{urn:p}k'],
    ['Q{}b', 'text', ''],
    ['Q{}b', 'self', ''],
    ['Q{}c', 'self', ''],
    ['Q{}a', 'child', 'Q{urn:p}b'],
  ] as [string, LeafKind, string][])('%s %s %s', (name, kind, leaf) => {
    const fromTree = leafColumn(tree, name, kind, leaf);
    const fromDom = leafColumn(dom, name, kind, leaf);
    expect([Array.from(fromTree.offsets), fromTree.strings, fromTree.single]).toEqual([Array.from(fromDom.offsets), fromDom.strings, fromDom.single]);
  });

  const step = (kind: LeafKind, leaf = ''): LeafStep => ({ kind, leaf });
  test.each([
    ['Q{}a', [step('child', 'Q{}b'), step('child', 'Q{}c')]],
    ['Q{}a', [step('child', 'Q{}b'), step('attribute', 'Q{}n')]],
    ['Q{}a', [step('child', 'Q{}a'), step('child', 'Q{}b'), step('text')]],
    ['Q{}r', [step('child', 'Q{}a'), step('child', 'Q{urn:p}b'), step('self')]],
    ['Q{}b', [step('child', 'Q{}c'), step('child', 'Q{}c')]],
  ] as [string, LeafStep[]][])('%s with the path %j', (name, path) => {
    const fromTree = leafPathColumn(tree, name, path);
    const fromDom = leafPathColumn(dom, name, path);
    expect([Array.from(fromTree.offsets), fromTree.strings, fromTree.single]).toEqual([Array.from(fromDom.offsets), fromDom.strings, fromDom.single]);
  });
});

describe('grouping by leaves over a tree and over a DOM', () => {
  /** Each group as its keys' strings, the paths of its nodes and of each value's nodes; or the error. */
  const groups = (doc: XdmNode, name: string, keys: LeafStep[][], values: LeafStep[][]): unknown => {
    try {
      return (groupLeaves([...elementsNamed(doc, name)], keys, keys.map((_, i) => `k${i}`), values) ?? []).map((g) =>
        (g as XdmArray).value.map((member, i) => (i < keys.length ? member.map(String) : paths(member))),
      );
    } catch (e) {
      return `error ${(e as Error).message}`;
    }
  };
  const child = (leaf: string): LeafStep => ({ kind: 'child', leaf });
  test.each([
    ['Q{}a', [[{ kind: 'attribute', leaf: 'Q{}id' }]], [[child('Q{}b'), { kind: 'attribute', leaf: 'Q{}n' }]]],
    ['Q{}b', [[child('Q{}c')], [{ kind: 'text', leaf: '' }]], [[child('Q{}c')], [{ kind: 'text', leaf: '' }]]],
    ['Q{}a', [[child('Q{}b'), child('Q{}c')]], [[child('Q{}b'), child('Q{}c')], [child('Q{urn:p}b')]]],
    ['Q{}c', [[{ kind: 'self', leaf: '' }]], []],
    ['Q{}b', [[{ kind: 'attribute', leaf: 'Q{}n' }]], [[child('Q{}c')], [{ kind: 'text', leaf: '' }], [child('Q{}c'), child('Q{}c')]]],
  ] as [string, LeafStep[][], LeafStep[][]][])('%s by %j', (name, keys, values) => {
    expect(groups(tree, name, keys, values)).toEqual(groups(dom, name, keys, values));
  });
});

describe('sorting by leaves and reading leaves over trees and over DOMs', () => {
  const DOCS = ['<r><i k="2"><v>b</v></i><i k="10"><v>a</v><v>c</v></i><i><v/></i></r>', '<r><i k="1e0"><v>d</v></i><x/><i k=" 3 "/></r>', '<r><i k="x"><v>e</v></i></r>'];
  const trees = DOCS.map((xml) => new TreeView(parseToCompactTree(xml)).document);
  const doms = DOCS.map((xml) => parseToCompactDom(xml) as XdmNode);
  /** The elements named i of the documents, in an order that is no document order, one of them twice. */
  const nodes = (docs: XdmNode[]): XdmNode[] => {
    const all = docs.flatMap((d) => [...elementsNamed(d, 'Q{}i')]);
    return [all[3], all[0], all[5], all[1], all[4], all[2], all[0]];
  };
  /** Per node, its document's index and path, to compare nodes of trees with nodes of DOMs. */
  const where = (docs: XdmNode[], found: readonly unknown[] | undefined): unknown =>
    found?.map((n) => `${docs.findIndex((d) => saxon().XPath.evaluate('root(.) is $d', n, { params: { d } }))} ${paths([n])[0]}`);
  const k: LeafStep[] = [{ kind: 'attribute', leaf: 'Q{}k' }];
  const v: LeafStep[] = [{ kind: 'child', leaf: 'Q{}v' }];
  test.each([
    [[{ path: k, key: 'number', descending: false, emptyGreatest: false }]],
    [[{ path: k, key: 'data', descending: true, emptyGreatest: true }]],
    [[{ path: k, key: 'string', descending: false, emptyGreatest: false }]],
    [[{ path: [{ kind: 'self', leaf: '' }], key: 'data', descending: true, emptyGreatest: false }]],
  ] as [LeafSortSpec[]][])('the nodes sorted by %j', (specs) => {
    expect(where(trees, orderLeaves(nodes(trees), specs))).toEqual(where(doms, orderLeaves(nodes(doms), specs)));
    expect(where(trees, orderLeaves(nodes(trees), specs))).toHaveLength(7);
    const returns = { path: k, key: 'string' } as const;
    expect(orderLeaves(nodes(trees), specs, returns)?.map(String)).toEqual(orderLeaves(nodes(doms), specs, returns)?.map(String));
  });

  test.each([
    [k, 'string', ['1e0', '2', 'x', '10', ' 3 ', '', '2']],
    [k, 'number', ['1', '2', 'NaN', '10', '3', 'NaN', '2']],
    [v, 'data', ['d', 'b', 'e', 'a', 'c', '', 'b']],
    [v, 'strings', ['d', 'b', 'e', 'a', 'c', '', 'b']],
    [v, 'string', undefined],
  ] as [LeafStep[], LeafKey, string[] | undefined][])('the values of %j as %s', (path, key, expected) => {
    expect(leafReturns(nodes(trees), path, key)?.map(String)).toEqual(expected);
    expect(leafReturns(nodes(doms), path, key)?.map(String)).toEqual(expected);
  });
});
