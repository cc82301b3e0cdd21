/**
 * Runtime patch (saxon-js 2.7.0): saxon-js puts nodes in document order (the result of a path
 * step it cannot prove ordered, `union`, `intersect`, `except`, `<<`, `>>`, `innermost` …) with
 * one comparison function (`DomUtils.fb` in SaxonJS2N.js), which finds the order of two nodes by
 * counting the ancestors of each and walking up and along sibling chains, at every comparison.
 * Over the nodes of a stored document, which an accelerator's answer (an index lookup, a
 * descendant scan) hands back as the result of a path step, those walks were most of a query's
 * time: `count(//keyword/..)` or `count(//keyword | //bold)` on a 10 MB document spent about
 * nine tenths of it there.
 *
 * A stored document is a compact tree whose nodes are rows in document order
 * (lib/tree/tree-order.ts), so two of its nodes compare by row, with no walk. The patched function
 * answers from rows when both nodes belong to compact trees, and for the nodes of two trees from
 * the order of the two document nodes (which saxon-js gives); any other pair (a node of saxon-js's
 * own DOM, as element constructors make, or a namespace node) is compared by the original. Sorts
 * of nodes already in order (V8's sort merges runs) then cost one cheap comparison a node.
 * Guarded like the other patches: a different function fails when the patch is applied.
 */
import { saxon } from '..';
import { compareTreeOrder } from '../../tree/tree-order';

type Compare = ((a: unknown, b: unknown) => number) & { __documentOrderPatched?: boolean };

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function patchDocumentOrder(): void {
  const domUtils = (saxon().internals as unknown as { DomUtils?: { fb?: Compare } }).DomUtils;
  const original = domUtils?.fb;
  if (original?.__documentOrderPatched) return;
  const source = String(original);
  if (
    !domUtils ||
    typeof original !== 'function' ||
    !source.startsWith('function(q,g){if(fc.isSameNode(q,g))return 0;var e=fc.Oa(q),l=fc.Oa(g);') ||
    !source.includes('e(q)._saxonDocumentNumber-e(g)._saxonDocumentNumber') ||
    !source.includes('for(l=0;l<e.length;l++){z=b.QName.fromParts(e[l].prefix,e[l].namespaceURI,e[l].localName);if(z.equals(fc.X(q)))return-1;if(z.equals(fc.X(g)))return 1}') ||
    !source.includes('z=A.Lc(e).count();const v=A.Lc(l).count();return z===v?fc.fb(e,l):z>v?fc.fb(e,g):fc.fb(q,l)}')
  ) {
    throw new Error('saxon-js document order patch: the node comparison of saxon-js 2.7.0 was not found; review lib/saxon/patches/document-order.ts for this saxon-js version');
  }
  const compare: Compare = (a, b) => compareTreeOrder(a, b, original) ?? original(a, b);
  domUtils.fb = Object.assign(compare, { __documentOrderPatched: true });
}
