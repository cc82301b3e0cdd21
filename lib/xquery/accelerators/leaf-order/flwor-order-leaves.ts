/**
 * `for $v in P (let … | where …)* order by K1, … return R` where every key reads a leaf of `$v`:
 * the tuples sorted from the per-document leaf columns of the elements `$v` takes
 * (accelerators/leaf-order/leaf-order.ts, `engine:order-leaves`), without a tuple array per node
 * and without evaluating the keys in saxon-js. translate/flwor/sort.ts emits the call next to the
 * sort of tuple arrays, which stays the answer whenever the function cannot give one.
 *
 * The shape (checked here; anything else is sorted as written):
 * - the FLWOR begins with a for clause of one binding, without `at` or `allowing empty`, and ends
 *   with the order by clause; only let and where clauses come between;
 * - no let binds `$v` again, and no let variable is read by an order spec or the return clause:
 *   each tuple is then one `$v`, and dropping or keeping it is all the where and let clauses do;
 * - each order spec reads a leaf path of `$v` (flwor-group-leaves.ts `leafSteps`, or `$v` itself
 *   when the for clause's expression is a path selecting elements by name): the path, `data()`
 *   of it, `string()` of it or `number()` of it, or the path followed by a step `string()` or
 *   `data()`; a spec compared as a string
 *   (all but `number()`) has the codepoint collation, which the function compares by.
 *
 * Which tuples there are is decided by `nodes`: the for clause and the let and where clauses,
 * returning `$v`. As a FLWOR of for, let and where clauses it is translated as one, so a where
 * clause comparing a leaf with a value becomes a predicate of the for clause's path (filter.ts),
 * answered from the leaf columns too.
 */
import type { Expr, FLWORExpr, ForBinding, FunctionCall, OrderByClause, VarRef } from '../../language/syntax';
import type { LeafStep } from '../leaf-columns/leaf-columns';
import type { LeafKey } from './leaf-order';
import { elementPath, leafSteps } from '../leaf-groups/flwor-group-leaves';
import { NS } from '../../language/translate/names';
import { expanded, refersTo } from '../../language/translate/flwor/filter';
import { COLLATIONS, specCollation } from '../../language/translate/flwor/advanced';
import type { Scope } from '../../language/translate/scope';

/** An order by clause that sorts by leaves of the elements of a for variable. */
export interface LeafOrderPlan {
  readonly clause: OrderByClause;
  /** The for binding whose values are sorted. */
  readonly binding: ForBinding;
  /** Per order spec, the steps of its leaf path below `$v` ([`self`] for `$v` itself) and what the spec makes of it. */
  readonly keys: readonly { readonly steps: readonly LeafStep[]; readonly key: LeafKey }[];
  /** The values of `$v`, one per tuple: the for clause's expression, or a FLWOR returning `$v`. */
  readonly nodes: Expr;
}

/** The plan of `expr`, when it has the shape above. */
export function leafOrderPlan(expr: FLWORExpr, scope: Scope): LeafOrderPlan | undefined {
  const clauses = expr.clauses;
  const [first] = clauses;
  const clause = clauses[clauses.length - 1];
  if (clauses.length < 2 || first.kind !== 'ForClause' || clause.kind !== 'OrderByClause' || first.bindings.length !== 1) return undefined;
  const binding = first.bindings[0];
  if (binding.positionalVar !== null || binding.allowingEmpty) return undefined;
  const forVar = expanded(binding.name, binding.start, scope);
  if (forVar === undefined) return undefined;
  const middle = clauses.slice(1, -1);
  const lets: string[] = [];
  for (const c of middle) {
    if (c.kind === 'WhereClause') continue;
    if (c.kind !== 'LetClause') return undefined;
    for (const b of c.bindings) {
      const name = expanded(b.name, b.start, scope);
      if (name === undefined || name === forVar) return undefined;
      lets.push(name);
    }
  }
  const after = [...clause.specs.map((s) => s.expr), expr.return];
  if (lets.some((name) => after.some((node) => refersTo(node, name, scope)))) return undefined;
  const keys: { steps: LeafStep[]; key: LeafKey }[] = [];
  for (const spec of clause.specs) {
    const key = leafKey(spec.expr, forVar, scope);
    // `$v` itself only over elements by name: over other values (atomic ones) the sort of tuples answers
    if (!key || (key.steps[0].kind === 'self' && !elementPath(binding.in))) return undefined;
    if (key.key !== 'number' && specCollation(spec.collation, scope, spec.start) !== COLLATIONS.codepoint) return undefined;
    keys.push(key);
  }
  const v: VarRef = { kind: 'VarRef', name: binding.name, start: binding.start, end: binding.end };
  const nodes: Expr = middle.length === 0 && binding.type === null ? binding.in : { ...expr, clauses: [first, ...middle], return: v };
  return { clause, binding, keys, nodes };
}

const KEY_FUNCTIONS: Readonly<Record<string, LeafKey>> = { data: 'data', string: 'string', number: 'number' };

/**
 * The leaf path an order spec reads and what it makes of it, when `expr` is one of the forms
 * above (flwor-leaf-returns.ts reads return clauses with it too).
 */
export function leafKey(expr: Expr, forVar: string, scope: Scope): { steps: LeafStep[]; key: LeafKey } | undefined {
  if (expr.kind === 'FunctionCall') {
    const [arg] = expr.args;
    if (expr.args.length !== 1 || arg.kind === 'ArgumentPlaceholder') return undefined;
    const key = fnKey(expr, scope, KEY_FUNCTIONS);
    const steps = key && leafPath(arg, forVar, scope);
    return steps ? { steps, key: key! } : undefined;
  }
  // `$v/p/string()`, `$v/p/data()`: the function of each leaf
  const last = expr.kind === 'PathExpr' ? expr.steps[expr.steps.length - 1] : undefined;
  if (expr.kind === 'PathExpr' && last?.kind === 'FunctionCall' && last.args.length === 0) {
    const key = fnKey(last, scope, STEP_FUNCTIONS);
    const steps = key && expr.steps.length > 2 && leafSteps({ ...expr, steps: expr.steps.slice(0, -1) }, forVar, scope);
    return steps ? { steps, key: key! } : undefined;
  }
  const steps = leafPath(expr, forVar, scope);
  return steps ? { steps, key: 'data' } : undefined;
}

const STEP_FUNCTIONS: Readonly<Record<string, LeafKey>> = { data: 'data', string: 'strings' };

/** The key `keys` gives the fn function `call` names, if any. */
function fnKey(call: FunctionCall, scope: Scope, keys: Readonly<Record<string, LeafKey>>): LeafKey | undefined {
  try {
    const fn = scope.functionName(call.name, call.start);
    return fn.uri === NS.fn && Object.hasOwn(keys, fn.local) ? keys[fn.local] : undefined;
  } catch {
    return undefined; // a name the translation refuses: left to it
  }
}

/** The steps below `$v` of a leaf path of `$v`, or [`self`] for `$v` itself. */
function leafPath(expr: Expr, forVar: string, scope: Scope): LeafStep[] | undefined {
  if (expr.kind === 'VarRef') return expanded(expr.name, expr.start, scope) === forVar ? [{ kind: 'self', leaf: '' }] : undefined;
  return leafSteps(expr, forVar, scope);
}
