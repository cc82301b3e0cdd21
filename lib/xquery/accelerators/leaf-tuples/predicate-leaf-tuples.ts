/**
 * A step's leading predicates over leaves of each item (`E/name[price > 5 or contains(name, "x")]`,
 * `$items[…]`) as the plan (tuple-plan.ts) of the FLWOR `for $row in E/name where P1' where P2' …
 * return $row`, P' being P with its relative leaf paths read from `$row`: engine:leaf-tuples
 * (leaf-tuples.ts) evaluates it over the items' leaf columns; translate/flwor/leaf-tuples.ts
 * emits the call, with the predicates as written as the answer when it declines.
 *
 * Only position-free predicates (accelerators/name-index/paths-index.ts `positionFree`: boolean by
 * their form, no position() or last()) are taken, since a where clause never selects by position.
 * Node-valued predicates (`[@id]`, `[k]`), position-free too, are not: the plan reads leaves as
 * values, and such a predicate asks whether the nodes exist (an empty attribute is true).
 */
import type { EQName, Expr } from '../../language/syntax';
import { expanded, refersTo } from '../../language/translate/flwor/filter';
import type { Scope } from '../../language/translate/scope';
import { positionFree } from '../name-index/paths-index';
import { Planner } from './tuple-planner';
import { FOR_SLOT, type PlanClause, type TuplePlan } from './tuple-plan';

/**
 * The name of the for variable of that FLWOR: outside the engine's hidden namespaces, which a
 * variable may not be named in; a predicate that names it itself is not planned.
 */
const PREDICATE_ROW: EQName = { uri: 'urn:xmldb-rest-predicate', local: 'row' };

/**
 * The plan of the leading `predicates` that are position-free and over leaves, how many
 * predicates it stands for, and the values it reads from outside; undefined when the first is not
 * of that shape. `nodes`: the items are a path step's nodes, whose own value `.` is a leaf too.
 */
export function leafTuplePredicatePlan(
  predicates: readonly Expr[],
  scope: Scope,
  nodes = false,
): { readonly plan: TuplePlan; readonly count: number; readonly outer: readonly Expr[] } | undefined {
  const row = expanded(PREDICATE_ROW, 0, scope);
  if (row === undefined) return undefined;
  const planner = new Planner(scope, row, { name: PREDICATE_ROW, start: 0 }, false, nodes);
  const clauses: PlanClause[] = [];
  for (const predicate of predicates) {
    if (!positionFree([predicate], scope, false) || refersTo(predicate, row, scope)) break;
    const e = planner.expr(predicate, true);
    if (!e) break;
    clauses.push({ c: 'where', e });
  }
  const plan = planner.plan(clauses, { r: 'value', e: { x: 'var', s: FOR_SLOT } });
  // predicates that read no leaf are the same for every item: saxon-js evaluates them once,
  // without making the items (`(1 to 100000000)[$k > 3]`)
  if (clauses.length === 0 || plan.paths.length === 0) return undefined;
  return { plan, count: clauses.length, outer: planner.outer };
}
