/**
 * engine:child-path over compact trees (accelerators/child-paths/child-paths.ts): a large answer
 * is kept for the next call with the same context and names, which gets the same nodes in a list
 * of its own.
 */
import type { XdmNode } from '../../../../lib/saxon';
import { parseToCompactTree } from '../../../../lib/tree/build-tree';
import { TreeView } from '../../../../lib/tree/tree-dom';
import { childPath } from '../../../../lib/xquery/accelerators/child-paths/child-paths';
import { countNodesAsked } from '../../../helpers/nodes-asked';

const XML = `<r><s>${Array.from({ length: 300 }, (_, i) => `<p n="${i}"/>`).join('')}</s><s><p n="x"/></s></r>`;
const PATH = ['Q{}r', 'Q{}s', 'Q{}p'];

test('a large answer again: the same nodes, in a list of its own', () => {
  const view = new TreeView(parseToCompactTree(XML));
  const doc = view.document;
  const asked = countNodesAsked(view);
  const first = childPath(doc, PATH);
  expect(first.length).toBe(301);
  const askedFirst = asked();
  first.pop();
  const second = childPath(doc, PATH);
  expect(second.length).toBe(301);
  expect(second).not.toBe(first);
  expect(second.slice(0, 300).every((n, i) => n === first[i])).toBe(true);
  expect((second[300] as XdmNode & { getAttribute(n: string): string }).getAttribute('n')).toBe('x');
  // kept: no row was read and no node asked for again
  expect(asked()).toBe(askedFirst);
  // another context or other names: answered anew
  expect(childPath(doc, ['Q{}r', 'Q{}s']).length).toBe(2);
});
