/**
 * A FLWOR over leaves of its for variable's elements (accelerators/leaf-tuples/flwor-leaf-tuples.ts)
 * evaluated by engine:leaf-tuples (accelerators/leaf-tuples/leaf-tuples.ts) over the for
 * clause's nodes, with the FLWOR as translated otherwise as the answer when the function declines:
 *
 *   let $r := engine:leaf-tuples(P, plan, static-base-uri()) return if (exists($r)) then $r(1) else (FLWOR)
 *
 * The plain form evaluates P again: only when the function declines.
 */
import type { FLWORExpr, ForClause } from '../../syntax';
import { translateExpr } from '../expressions';
import { leafTuplePlan } from '../../../accelerators/leaf-tuples/flwor-leaf-tuples';
import { NS, xpathString } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';
import { tempVar } from './tuples';

const LEAF_TUPLES = `${braced(NS.engine)}leaf-tuples`;
const F = braced(NS.fn);

/** The FLWOR as above, or undefined when it has not the shape the function evaluates; `plain` translates it otherwise. */
export function translateLeafTuples(expr: FLWORExpr, scope: Scope, unit: TranslationUnit, plain: () => string): string | undefined {
  const plan = leafTuplePlan(expr, scope);
  if (!plan) return undefined;
  const nodes = translateExpr((expr.clauses[0] as ForClause).bindings[0].in, scope, unit);
  const r = tempVar(scope, 'tuples');
  return `(let ${r} := ${LEAF_TUPLES}(${nodes}, ${xpathString(JSON.stringify(plan))}, ${F}static-base-uri()) return if (${F}exists(${r})) then ${r}(1) else ${plain()})`;
}
