/**
 * A fix to what saxon-js 2.7's XSLT compiler writes: it wraps an expression whose static type is
 * a sequence of nodes, when that expression is a `let` or an `if` (SEF `let`, `choose`), in a
 * document-order sort (SEF `docOrder`). XPath 3.1 sorts only the results of path steps and of
 * `|`, `intersect` and `except` (§3.3.1.1, §3.4.3); `let $s := reverse(//a) return $s` must keep
 * the reversed order, `let $x := //a return ($x/b, $x/c)` every `b` before every `c`, and
 * `if (…) then reverse(//a) else ()` the reversed order, yet all three came back sorted (and
 * without duplicates) from a query's own stylesheet. saxon-js's XPath evaluator (the library and
 * one-expression runs) does not add the sort.
 *
 * The sort is never needed there: each path inside the `let` or `if` has a sort of its own where
 * XPath requires one. So `dropLetAndChoiceSorts` replaces every such `docOrder` with the expression
 * it wraps, which keeps the wrapper's annotations (its role in the instruction, line, static
 * type).
 */
import type { SefTree } from './types';

/** SEF instructions whose order a `docOrder` around them may not change (see above). */
const UNSORTED = new Set(['let', 'choose']);

/** Removes the `docOrder` wrappers of `let` and `choose` expressions below `node` (in place). */
export function dropLetAndChoiceSorts(node: SefTree): void {
  const children = node.C;
  if (!children) return;
  for (let i = 0; i < children.length; i++) {
    let child = children[i];
    while (child.N === 'docOrder' && child.C?.length === 1 && UNSORTED.has(child.C[0].N)) {
      const inner = child.C[0];
      for (const [key, value] of Object.entries(child)) {
        if (key !== 'N' && key !== 'C' && key !== 'parentNode' && inner[key] === undefined) inner[key] = value;
      }
      child = inner;
    }
    children[i] = child;
    dropLetAndChoiceSorts(child);
  }
}
