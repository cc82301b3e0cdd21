/**
 * Predicates added to element steps from the comparisons of the attribute or child steps after
 * them (`e/@a[. op V]`, `//e/c[. op V]`, `//@a[. op V]`), so that the leaf columns and value
 * indexes that answer `e[@a op V]` choose the elements (translate/paths/paths.ts). A rewrite of the
 * syntax tree only: the added predicate is translated as any other.
 */
import { isGeneralComparison, type AxisStep, type Expr, type PathExpr } from '../../syntax';
import { isAbbreviatedDescendantOrSelf, positionFree } from '../../../accelerators/name-index/paths-index';
import { leafComparisons } from '../../../accelerators/leaf-filter/paths-leaf-predicates';
import type { Scope } from '../scope';

/**
 * `…/e[p]/@a[. op V]…` as `…/e[p][@a op V]/@a[. op V]…` (`ownerPredicate`): the elements without
 * such an attribute contribute nothing to the attribute step, and the added predicate lets the
 * leaf columns and value indexes choose the others (`//item[@id = $v]`). So too `//e[p]/c[. op V]`
 * with a child element step, where `//e` is the element-name index's (or the element list's) and
 * the columns answer `c op V`. Only for a step whose predicates are position-free, so that a
 * predicate more does not change the positions they see; a step on a node of another kind drops
 * it, having no attributes or children either way.
 */
export function withOwnerPredicates(expr: PathExpr, native: Scope): PathExpr {
  let steps: Expr[] | undefined;
  expr.steps.forEach((step, i) => {
    const next = expr.steps[i + 1];
    if (step.kind !== 'AxisStep' || next?.kind !== 'AxisStep') return;
    const before = expr.steps[i - 1];
    const indexed = before?.kind === 'AxisStep' && isAbbreviatedDescendantOrSelf(before);
    if (next.axis !== 'attribute' && !(next.axis === 'child' && next.test.kind === 'NameTest' && indexed)) return;
    if (step.axis !== 'child' && step.axis !== 'descendant' && step.axis !== 'self') return;
    const owner = ownerPredicate(next, native);
    if (!owner || !positionFree(step.predicates, native)) return;
    steps ??= [...expr.steps];
    steps[i] = { ...step, predicates: [...step.predicates, owner] };
  });
  return steps ? { ...expr, steps } : expr;
}

/**
 * For an attribute or child step whose first predicate is one comparison of the node (`.`) with a
 * focus-free value: the same comparison of the element's attributes or children, `@a op V` or
 * `c op V`, true for an element exactly when one of them passes `. op V` (a general comparison is
 * existential; a value comparison only when the test names one attribute, which an element has
 * at most once, where it may have many children). Undefined for any other first predicate.
 */
export function ownerPredicate(step: AxisStep, scope: Scope): Expr | undefined {
  const first = step.predicates[0];
  const tests = first && leafComparisons(first, scope);
  if (tests?.length !== 1 || tests[0].kind !== 'self') return undefined;
  const { op, value } = tests[0];
  if (!isGeneralComparison(op) && !(step.axis === 'attribute' && step.test.kind === 'NameTest')) return undefined;
  const node: AxisStep = { kind: 'AxisStep', axis: step.axis, abbreviated: true, test: step.test, predicates: [], start: step.start, end: step.end };
  return { kind: 'ComparisonExpr', op, left: node, right: value, start: first.start, end: first.end };
}
