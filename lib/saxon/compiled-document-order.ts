/**
 * A fix to what saxon-js 2.7's XSLT compiler writes. Where an expression of nodes needs sorting
 * into document order (a path, a union), it wraps the whole expression in a sort (SEF `docOrder`)
 * instead of sorting the path inside it: `let $c := … return //a[b = $c]/c` becomes
 * `docOrder(let(…, slash))`, `if (…) then //a/b else ()` becomes `docOrder(choose(…))`. It does so
 * also when the `let` or `if` returns something else, whose order XPath 3.1 keeps (only path steps
 * and `|`, `intersect`, `except` sort, §3.3.1.1, §3.4.3): `let $s := reverse(//a) return $s`,
 * `let $x := //i return ($x/a, $x/b)`, `if (…) then reverse(//a) else ()` and a `for … order by …
 * return $i/name` came back sorted (and without duplicates) from a query's own stylesheet, while
 * saxon-js's XPath evaluator (the library, one-expression runs) answered them right.
 *
 * The sort is needed where the paths it was made for give the result, and wrong where the
 * result is one of its own order. `dropOrderedSorts` removes a sort around a `let` or `choose`
 * only where every expression that gives its result (a `let`'s return, each branch of a
 * `choose`, through nested ones) is of the second kind: a variable, a `for`, a comma sequence,
 * the empty sequence, or a simple map (`!`) of one of these. Anything else keeps the compiler's
 * sort: the engine's own stylesheets (the runtime library) return function results from `let`s
 * whose order the sort decides today.
 */
import type { SefTree } from './types';

/** SEF instructions whose result is given by others: a let's return, a choose's branches. */
const PASS_THROUGH = new Set(['let', 'choose']);

/** SEF instructions whose result has an order of its own, which a document-order sort would change. */
const OWN_ORDER = new Set(['varRef', 'for', 'sequence', 'empty']);

/** Removes the `docOrder` wrappers below `node` that change the order of their result (in place). */
export function dropOrderedSorts(node: SefTree): void {
  const children = node.C;
  if (!children) return;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child.N === 'docOrder' && child.C?.length === 1 && PASS_THROUGH.has(child.C[0].N) && ownOrder(child.C[0])) {
      const inner = child.C[0];
      for (const [key, value] of Object.entries(child)) {
        if (key !== 'N' && key !== 'C' && key !== 'parentNode' && inner[key] === undefined) inner[key] = value;
      }
      children[i] = inner;
    }
    dropOrderedSorts(children[i]);
  }
}

/** Whether every expression giving the result of `node` has an order of its own (see above). */
function ownOrder(node: SefTree): boolean {
  // `E ! step` (SEF forEach; a path `E/step` is a slash) keeps the order of E
  if (node.N === 'forEach') return node.C !== undefined && node.C.length > 0 && ownOrder(node.C[0]);
  if (!PASS_THROUGH.has(node.N)) return OWN_ORDER.has(node.N);
  const children = node.C ?? [];
  // a let's result is its last child; a choose's are its branches: condition, branch, condition, …
  const results = node.N === 'let' ? children.slice(-1) : children.filter((_, i) => i % 2 === 1);
  return results.length > 0 && results.every(ownOrder);
}
