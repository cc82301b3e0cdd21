/**
 * `for $v in E return F($v/p)`, F one of `string`, `data` and `number` and `$v/p` a leaf path of
 * `$v` (or `$v` itself), or `$v/p/string()` or `$v/p/data()` (flwor-order-leaves.ts `leafKey`): the values read from the per-document
 * leaf columns of the elements `$v` takes (leaf-returns.ts, `engine:leaf-returns`) instead of
 * evaluating the return clause per element. translate/flwor/leaf-returns.ts emits the call for a
 * for clause with where clauses, next to the return clause evaluated per node, which stays the
 * answer whenever the function cannot give one; after a sort by leaves, translate/flwor/sort.ts
 * asks engine:order-leaves for the values instead (leaf-order.ts).
 */
import type { Expr, ForBinding } from '../../language/syntax';
import type { LeafStep } from '../leaf-columns/leaf-columns';
import type { LeafKey } from '../leaf-order/leaf-order';
import { leafKey } from '../leaf-order/flwor-order-leaves';
import { expanded } from '../../language/translate/flwor/filter';
import type { Scope } from '../../language/translate/scope';

/** A return clause that reads one leaf path of the for variable's elements. */
export interface LeafReturnPlan {
  readonly steps: readonly LeafStep[];
  readonly key: LeafKey;
}

/** The plan of `ret`, the return clause of a FLWOR whose tuples bind `binding` alone, when it has the shape above. */
export function leafReturnPlan(ret: Expr, binding: ForBinding, scope: Scope): LeafReturnPlan | undefined {
  // a call or a path ending in one: a bare leaf path returns nodes, which the function does not
  const call = ret.kind === 'FunctionCall' || (ret.kind === 'PathExpr' && ret.steps[ret.steps.length - 1]?.kind === 'FunctionCall');
  if (!call || binding.positionalVar !== null || binding.allowingEmpty) return undefined;
  const forVar = expanded(binding.name, binding.start, scope);
  return forVar === undefined ? undefined : leafKey(ret, forVar, scope);
}
