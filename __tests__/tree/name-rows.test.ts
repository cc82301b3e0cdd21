/**
 * Elements of a compact tree by name (tree/name-rows.ts): a range of rows is scanned when small
 * and found in the name's listed rows when large; both give what a walk over the rows gives.
 */
import { parseToCompactTree } from '../../lib/tree/build-tree';
import { NodeKind, type CompactTree } from '../../lib/tree/compact-tree';
import { countElementsWithIds, elementRows, elementRowsIn, elementRowsWithIds, firstAtOrAfter } from '../../lib/tree/name-rows';
import { TreeView } from '../../lib/tree/tree-dom';
import { countDescendantsNamed, descendantsNamed } from '../../lib/xquery/accelerators/name-index/name-index';
import { countNodesAsked } from '../helpers/nodes-asked';
import { saxon, type XdmNode } from '../../lib/saxon';
import { registerLeafAggregateFunctions } from '../../lib/xquery/accelerators/leaf-aggregates/leaf-aggregates';

// 2,000 groups of 5 rows (g, a, b, a, text): 10,002 rows, `a` nested at two depths, with a
// namespace whose prefix varies (two name ids for one expanded name)
const GROUPS = 2000;
const XML = `<r xmlns:p="urn:p" xmlns:q="urn:p">${Array.from({ length: GROUPS }, (_, i) => `<g><a/><b><${i % 2 ? 'p' : 'q'}:a/></b>t</g>`).join('')}</r>`;

/** Rows `from … to - 1` of elements named `expanded`, by reading every row. */
function walked(tree: CompactTree, expanded: string, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) {
    if (tree.kind[i] !== NodeKind.element) continue;
    const n = tree.names[tree.ref[i]];
    if (`Q{${n.uri}}${n.local}` === expanded) out.push(i);
  }
  return out;
}

describe('elementRowsIn', () => {
  const tree = parseToCompactTree(XML);
  const root = 1;
  const ranges: [number, number][] = [
    [root + 1, tree.end.at(root)], // the whole document element: listed rows
    [2, 7], // one group: scanned
    [3, 9000], // starting and ending inside groups
    [5000, 5001],
    [tree.size, tree.size],
  ];

  it.each(['Q{}a', 'Q{urn:p}a', 'Q{}g', 'Q{}none'])('%s: every range answers what a walk over its rows answers', (name) => {
    for (const [from, to] of ranges) expect(Array.from(elementRowsIn(tree, name, from, to))).toEqual(walked(tree, name, from, to));
    // the same after the name was listed (small ranges then read the list too)
    elementRows(tree, name);
    for (const [from, to] of ranges) expect(Array.from(elementRowsIn(tree, name, from, to))).toEqual(walked(tree, name, from, to));
  });

  it('a large range is a view of the listed rows, not a scan of its own', () => {
    const fresh = parseToCompactTree(XML);
    const rows = elementRowsIn(fresh, 'Q{}g', root + 1, fresh.end.at(root));
    expect(rows.length).toBe(GROUPS);
    expect(rows.buffer).toBe(elementRows(fresh, 'Q{}g').buffer);
  });

  it('countElementsWithIds counts what elementRowsWithIds lists, over the whole tree (from kept counts) and over parts', () => {
    const fresh = parseToCompactTree(XML);
    const idsOf = (...locals: string[]) => {
      const ids = new Uint8Array(fresh.names.length);
      fresh.names.forEach((n, id) => {
        if (locals.includes(n.local)) ids[id] = 1;
      });
      return ids;
    };
    const sets = [idsOf('a'), idsOf('g', 'b'), idsOf('r'), idsOf()];
    // the whole tree first (the counts are made), then parts, then the whole tree again
    for (const [from, to] of [[1, fresh.size], ...ranges, [0, fresh.size + 1], [1, fresh.size]] as [number, number][])
      for (const ids of sets) expect(countElementsWithIds(fresh, ids, from, to)).toBe(elementRowsWithIds(fresh, ids, from, to).length);
    expect(countElementsWithIds(fresh, sets[0], 1, fresh.size)).toBe(2 * GROUPS);
    expect(countElementsWithIds(fresh, sets[2], 1, fresh.size)).toBe(1);
  });

  it('firstAtOrAfter: the first index at or after a row, from a start', () => {
    const rows = Int32Array.from([2, 5, 5, 9]);
    expect([0, 2, 3, 5, 6, 9, 10].map((r) => firstAtOrAfter(rows, r))).toEqual([0, 0, 1, 1, 3, 3, 4]);
    expect(firstAtOrAfter(rows, 2, 2)).toBe(2);
  });
});

describe('descendants by name below an element of a compact tree', () => {
  it('are counted without making a node, and listed as the walk lists them', () => {
    const view = new TreeView(parseToCompactTree(XML));
    const r = view.node(1) as unknown as XdmNode;
    const asked = countNodesAsked(view);
    expect(countDescendantsNamed(r, 'Q{urn:p}a')).toBe(GROUPS);
    expect(countDescendantsNamed(r, 'Q{}a')).toBe(GROUPS);
    expect(asked()).toBe(0);
    const g = view.node(2) as unknown as XdmNode;
    expect(countDescendantsNamed(g, 'Q{urn:p}a')).toBe(1);
    expect(descendantsNamed(r, 'Q{urn:p}a').map((n) => (n as unknown as { prefix: string }).prefix).slice(0, 3)).toEqual(['q', 'p', 'q']);
  });
});

describe('count($e//name) below one element of a compact tree (engine:aggregate-leaves)', () => {
  it('answers from the rows, asking for no node but the element itself', () => {
    registerLeafAggregateFunctions();
    const view = new TreeView(parseToCompactTree(XML));
    const count = (xpath: string): unknown => saxon().XPath.evaluate(xpath, view.document);
    const r = count('/*') as XdmNode;
    const asked = countNodesAsked(view);
    const call = (name: string) => saxon().XPath.evaluate(`Q{urn:xmldb-rest:engine}aggregate-leaves("count", $e, "${name}", "", "", "")`, null, { params: { e: r } });
    expect([call('Q{urn:p}a'), call('Q{}g'), call('Q{}none')]).toEqual([GROUPS, GROUPS, 0]);
    expect(asked()).toBe(0);
  });
});
