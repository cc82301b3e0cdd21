/**
 * `E//a/../b…` rewritten as `E//b[../a]…`: a rewrite of the syntax tree only, so that the
 * element-name index, the leaf columns and the value indexes that answer `//b[P]`
 * (translate/paths/paths.ts) choose the `b` elements, instead of the parent of every `a` being
 * found and its children walked.
 *
 * The two select the same nodes: below a node x, the parents of the `a` elements are x or nodes
 * below it, and their `b` children are exactly the `b` elements below x whose parent has an `a`
 * child. The new predicate comes first among `b`'s: it depends only on the parent, so it keeps
 * or drops all `b` children of a parent together, and `b`'s own predicates then see the same
 * nodes at the same positions (and raise the same errors) as written. Only for an `a` step
 * without predicates: as `../a[Q]`, Q would run only on the `a` siblings of a `b`, and only
 * until one passes, so an error Q raises on another `a` would not be raised.
 */
import type { AxisStep, Expr, PathExpr } from '../../syntax';
import { isAbbreviatedDescendantOrSelf } from '../../../accelerators/name-index/paths-index';

/** `expr` with each `//a/../b` (a and b element steps by name or `*`, a without predicates) written `//b[../a]`. */
export function withParentStepsFolded(expr: PathExpr): PathExpr {
  let steps: Expr[] | undefined;
  for (let i = 0; i + 3 < (steps ?? expr.steps).length; i++) {
    const [descend, named, up, next] = (steps ?? expr.steps).slice(i, i + 4);
    if (!isDescend(descend) || !isElementChild(named) || named.predicates.length > 0 || !isParent(up) || !isElementChild(next)) continue;
    const hasNamed: PathExpr = { kind: 'PathExpr', root: null, steps: [up, named], start: up.start, end: named.end };
    steps ??= [...expr.steps];
    steps.splice(i + 1, 3, { ...next, predicates: [hasNamed, ...next.predicates] });
  }
  return steps ? { ...expr, steps } : expr;
}

function isDescend(step: Expr): boolean {
  return step.kind === 'AxisStep' && isAbbreviatedDescendantOrSelf(step);
}

/** A `child::` step selecting elements by name or `*`. */
function isElementChild(step: Expr): step is AxisStep {
  return step.kind === 'AxisStep' && step.axis === 'child' && (step.test.kind === 'NameTest' || step.test.kind === 'Wildcard');
}

/** `..` or `parent::node()`, without predicates. */
function isParent(step: Expr): step is AxisStep {
  return step.kind === 'AxisStep' && step.axis === 'parent' && step.test.kind === 'AnyKindTest' && step.predicates.length === 0;
}
