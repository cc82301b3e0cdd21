/**
 * A FLWOR over leaves of its for variable's elements (accelerators/leaf-tuples/flwor-leaf-tuples.ts)
 * evaluated by engine:leaf-tuples (accelerators/leaf-tuples/leaf-tuples.ts) over the for
 * clause's nodes, with the FLWOR as translated otherwise as the answer when the function declines:
 *
 *   let $r := engine:leaf-tuples(P, plan, static-base-uri(), [$o1, …]) return if (exists($r)) then $r(1) else (FLWOR)
 *
 * `$o1, …` are the variables bound outside the FLWOR that it reads and its literals made
 * parameters. The plain form evaluates P
 * again: only when the function declines. A for clause over a range `A to B` passes `[A, B]` as P.
 */
import type { FLWORExpr, ForClause } from '../../syntax';
import { translateExpr } from '../expressions';
import { leafTuplePlan, rangeOf } from '../../../accelerators/leaf-tuples/flwor-leaf-tuples';
import { NS, xpathString } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';
import { tempVar } from './tuples';

const LEAF_TUPLES = `${braced(NS.engine)}leaf-tuples`;
const F = braced(NS.fn);

/** The FLWOR as above, or undefined when it has not the shape the function evaluates; `plain` translates it otherwise. */
export function translateLeafTuples(expr: FLWORExpr, scope: Scope, unit: TranslationUnit, plain: () => string): string | undefined {
  const planned = leafTuplePlan(expr, scope);
  if (!planned) return undefined;
  const source = (expr.clauses[0] as ForClause).bindings[0].in;
  const range = planned.plan.range ? rangeOf(source) : undefined;
  // a range crosses as its two bounds, not as its integers
  const nodes = range ? `[${translateExpr(range.from, scope, unit)}, ${translateExpr(range.to, scope, unit)}]` : translateExpr(source, scope, unit);
  const outer = planned.outer.map((ref) => translateExpr(ref, scope, unit));
  const r = tempVar(scope, 'tuples');
  const call = `${LEAF_TUPLES}(${nodes}, ${xpathString(JSON.stringify(planned.plan))}, ${F}static-base-uri(), [${outer.join(', ')}])`;
  return `(let ${r} := ${call} return if (${F}exists(${r})) then ${r}(1) else ${plain()})`;
}
