/**
 * A FLWOR over leaves of its for variable's elements (accelerators/leaf-tuples/flwor-leaf-tuples.ts)
 * evaluated by engine:leaf-tuples (accelerators/leaf-tuples/leaf-tuples.ts) over the for
 * clause's nodes, with the FLWOR as translated otherwise as the answer when the function declines:
 *
 *   let $r := engine:leaf-tuples(P, plan, static-base-uri(), [$o1, …]) return if (exists($r)) then $r(1) else (FLWOR)
 *
 * `$o1, …` are the variables bound outside the FLWOR that it reads and its literals made
 * parameters. The plain form evaluates P again: only when the function declines. A for clause
 * over a range `A to B` passes `[A, B]` as P.
 *
 * A step's leading predicates over leaves go the same way, as the FLWOR
 * `for $row in candidates where P1 where P2 … return $row` (`translateLeafTuplePredicates`).
 */
import type { Expr, FLWORExpr, ForClause } from '../../syntax';
import { translateExpr } from '../expressions';
import { leafTuplePlan } from '../../../accelerators/leaf-tuples/flwor-leaf-tuples';
import { leafTuplePredicatePlan } from '../../../accelerators/leaf-tuples/predicate-leaf-tuples';
import { rangeOf } from '../range-expression';
import { FIRST_DATA_PARAM, NS, xpathString } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';
import { tempVar } from './tuples';

const LEAF_TUPLES = `${braced(NS.engine)}leaf-tuples`;
const F = braced(NS.fn);

/**
 * The FLWOR as above, or undefined when it has not the shape the function evaluates; `plain`
 * translates it otherwise. The call is noted as the one to try first for `written` (the FLWOR
 * as written, unit.ts `tryFirst`): a run of the query as one expression then need not parse
 * or compile the plain form unless the function declines.
 */
export function translateLeafTuples(expr: FLWORExpr, written: FLWORExpr, scope: Scope, unit: TranslationUnit, plain: () => string): string | undefined {
  const planned = leafTuplePlan(expr, scope);
  if (!planned) return undefined;
  const source = (expr.clauses[0] as ForClause).bindings[0].in;
  const range = planned.plan.range ? rangeOf(source) : undefined;
  // a range crosses as its two bounds, not as its integers
  const nodes = range ? `[${translateExpr(range.left, scope, unit)}, ${translateExpr(range.right, scope, unit)}]` : translateExpr(source, scope, unit);
  const outer = planned.outer.map((ref) => translateExpr(ref, scope, unit));
  const plan = JSON.stringify(planned.plan);
  const first = call(nodes, `$${FIRST_DATA_PARAM}`, outer);
  unit.tryFirst(written, { expression: first, data: plan });
  // the body translated for this call alone (translation.ts `translateFirstCall`): no plain form,
  // and no expression of its own that runs (that translation runs the call tried first only), so
  // the plan is not quoted into one
  if (scope.ctx.firstOnly === written) {
    scope.ctx.leftPlain = true;
    return first;
  }
  return orPlain(call(nodes, xpathString(plan), outer), scope, plain);
}

/**
 * The elements `candidates` (an XPath expression) filtered by the leading `predicates` of their
 * step as engine:leaf-tuples evaluates them (predicate-leaf-tuples.ts), with
 * `written` (the predicates as translated, `[…]` each) applied to them when it declines: the
 * expression and how many predicates it stands for; undefined when the first is not of that shape.
 * `nodes`: `candidates` is a path step's elements or text nodes, whose own value `.` the
 * predicates may read (predicate-leaf-tuples.ts).
 */
export function translateLeafTuplePredicates(
  candidates: string,
  predicates: readonly Expr[],
  written: readonly string[],
  scope: Scope,
  unit: TranslationUnit,
  nodes = false,
): { readonly expr: string; readonly count: number } | undefined {
  const planned = leafTuplePredicatePlan(predicates, scope, nodes);
  if (!planned) return undefined;
  const c = tempVar(scope, 'candidates');
  const plain = () => `${c}${written.slice(0, planned.count).join('')}`;
  // a call costs a few microseconds more than the predicates on one element (`$i[P]` in a FLWOR
  // the function does not take), and items other than elements and text nodes have no leaves
  const worth = `${F}count(${c}) ge ${MIN_CANDIDATES} and (${c}[1] instance of element() or ${c}[1] instance of text())`;
  const outer = planned.outer.map((ref) => translateExpr(ref, scope, unit));
  const filter = call(c, xpathString(JSON.stringify(planned.plan)), outer);
  return { expr: `(let ${c} := ${candidates} return if (${worth}) then ${orPlain(filter, scope, plain)} else ${plain()})`, count: planned.count };
}

/** The fewest items filtered by engine:leaf-tuples rather than by the predicates as written. */
const MIN_CANDIDATES = 8;

/** The call of engine:leaf-tuples over `nodes` with `plan` (an XPath string) and the outer values (XPath each). */
function call(nodes: string, plan: string, outer: readonly string[]): string {
  return `${LEAF_TUPLES}(${nodes}, ${plan}, ${F}static-base-uri(), [${outer.join(', ')}])`;
}

/** The value of the call `call`, or `plain()` when it declines. */
function orPlain(call: string, scope: Scope, plain: () => string): string {
  const r = tempVar(scope, 'tuples');
  return `(let ${r} := ${call} return if (${F}exists(${r})) then ${r}(1) else ${plain()})`;
}
