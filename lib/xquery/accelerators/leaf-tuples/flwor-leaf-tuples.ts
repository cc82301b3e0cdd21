/**
 * `for $v in P (let | where | count | order by | group by)* return R` over leaves of `$v`: the
 * plan (tuple-plan.ts) of a FLWOR that engine:leaf-tuples (leaf-tuples.ts) evaluates over the
 * per-document leaf columns of the elements `$v` takes, instead of binding variables tuple by
 * tuple in saxon-js. translate/flwor/leaf-tuples.ts emits the call next to the FLWOR as
 * translated otherwise, which stays the answer whenever the function declines.
 *
 * The shape (checked here, its expressions by tuple-planner.ts; anything else is translated as
 * written):
 * - the first clause is a for clause of one binding, without type or `allowing empty`, over
 *   a path whose last step selects elements by name (accelerators/leaf-groups `elementPath`) or
 *   over a range `A to B` (whose integers the worker makes itself: no leaf paths then), and no
 *   other for or window clause follows;
 * - let bindings have no type; at most one group by clause, not after an order by (the grouped
 *   leaves of `$v` are then concatenated in document order, as a path over the group's elements
 *   gives them), its specs without type or collation, each name once;
 * - order specs without collation; the default collation is the codepoint collation;
 * - every expression is made of variables (bound in the FLWOR or outside it), leaf paths of `$v`
 *   (`$v/a/b`, `$v/@c`, `$v/a/text()`, flwor-group-leaves.ts `leafSteps`), such paths after
 *   predicates on `$v` (`$v[price > 5]/name`, relative leaf paths inside), string, integer and
 *   double literals, calls of functions of the fn namespace, general and value comparisons,
 *   arithmetic, `and`, `or`, `||`, `if`, and casts to xs:integer, xs:double and xs:string;
 * - the return clause is such an expression, a plain direct element constructor
 *   (translate/constructors/xpath.ts `isPlainElement`) whose enclosed expressions are such
 *   expressions, nested plain constructors allowed, or a sequence of those.
 * Which functions, and which types of values, the worker can evaluate exactly it decides itself
 * (leaf-tuples.ts); these files only map the syntax.
 */
import type { Expr, FLWORExpr, GroupByClause, OrderByClause } from '../../language/syntax';
import { expanded } from '../../language/translate/flwor/filter';
import { elementPath } from '../leaf-groups/flwor-group-leaves';
import { COLLATIONS } from '../../language/translate/flwor/advanced';
import { rangeOf } from '../../language/translate/range-expression';
import type { Scope } from '../../language/translate/scope';
import type { PlanClause, PlanExpr, TuplePlan } from './tuple-plan';
import { Planner } from './tuple-planner';

/**
 * The plan of `expr` when it has the shape above, and the variables bound outside it that it
 * reads and the literals made parameters, whose values the call passes (the plan's `outer`
 * expressions index them).
 */
export function leafTuplePlan(expr: FLWORExpr, scope: Scope): { readonly plan: TuplePlan; readonly outer: readonly Expr[] } | undefined {
  const collation = scope.ctx.defaultCollation;
  if (collation !== null && collation !== COLLATIONS.codepoint) return undefined;
  const [first, ...rest] = expr.clauses;
  if (first?.kind !== 'ForClause' || first.bindings.length !== 1) return undefined;
  const binding = first.bindings[0];
  if (binding.type !== null || binding.allowingEmpty) return undefined;
  const range = rangeOf(binding.in) !== undefined;
  if (!range && !elementPath(binding.in)) return undefined;
  const forVar = expanded(binding.name, binding.start, scope);
  if (forVar === undefined) return undefined;
  const planner = new Planner(scope, forVar, { name: binding.name, start: binding.start }, range);
  const clauses: PlanClause[] = [];
  if (binding.positionalVar !== null) {
    // `for $v at $p in E`, the first clause: $p numbers the tuples as a count clause right after it would (XQuery 3.1 §3.12.2, §3.12.9)
    const s = planner.bind(binding.positionalVar, binding.start);
    if (s === undefined) return undefined;
    clauses.push({ c: 'count', s });
  }
  let grouped = false;
  let ordered = false;
  for (const clause of rest) {
    switch (clause.kind) {
      case 'LetClause':
        for (const b of clause.bindings) {
          const e = b.type === null ? planner.expr(b.value) : undefined;
          const s = e && planner.bind(b.name, b.start);
          if (s === undefined) return undefined;
          clauses.push({ c: 'let', s, e: e! });
        }
        break;
      case 'WhereClause': {
        const e = planner.expr(clause.test);
        if (!e) return undefined;
        clauses.push({ c: 'where', e });
        break;
      }
      case 'CountClause': {
        const s = planner.bind(clause.name, clause.start);
        if (s === undefined) return undefined;
        clauses.push({ c: 'count', s });
        break;
      }
      case 'OrderByClause': {
        const order = orderClause(clause, planner, scope);
        if (!order) return undefined;
        clauses.push(order);
        ordered = true;
        break;
      }
      case 'GroupByClause': {
        if (grouped || ordered || !groupClause(clause, planner, scope, clauses)) return undefined;
        grouped = true;
        break;
      }
      default:
        return undefined;
    }
  }
  const ret = planner.ret(expr.return);
  return ret && { plan: planner.plan(clauses, ret), outer: planner.outer };
}

function orderClause(clause: OrderByClause, planner: Planner, scope: Scope): PlanClause | undefined {
  const specs = [];
  for (const spec of clause.specs) {
    const e = spec.collation === null ? planner.expr(spec.expr) : undefined;
    if (!e) return undefined;
    specs.push({ e, descending: spec.descending, emptyGreatest: (spec.emptyOrder ?? scope.ctx.defaultEmptyOrder) === 'greatest' });
  }
  return { c: 'order', specs };
}

/**
 * Appends the clauses of a group by clause: a let for each spec with a value (XQuery 3.1
 * §3.12.7: such a spec binds its variable as a let clause does, before the grouping), then the
 * grouping by the specs' variables. False when the clause is not of the shape above.
 */
function groupClause(clause: GroupByClause, planner: Planner, scope: Scope, clauses: PlanClause[]): boolean {
  const names = new Set<string>();
  for (const spec of clause.specs) {
    const name = expanded(spec.name, spec.start, scope);
    if (name === undefined || names.has(name) || spec.type !== null || spec.collation !== null) return false;
    names.add(name);
    if (spec.value) {
      const e = planner.expr(spec.value);
      const s = e && planner.bind(spec.name, spec.start);
      if (s === undefined) return false;
      clauses.push({ c: 'let', s, e: e! });
    }
  }
  const before = planner.inScope();
  const keys = [];
  for (const name of names) {
    const from = before.get(name);
    if (from === undefined) return false; // XQST0094, raised by the translation as written
    keys.push({ name, from });
  }
  const keep = [...before].filter(([name]) => !names.has(name)).map(([, s]) => s);
  const planned = keys.map(({ name, from }) => {
    const [spec] = clause.specs.filter((sp) => expanded(sp.name, sp.start, scope) === name);
    const s = planner.bind(spec.name, spec.start)!;
    return { s, e: { x: 'var', s: from } as PlanExpr };
  });
  clauses.push({ c: 'group', keys: planned, keep });
  return true;
}
