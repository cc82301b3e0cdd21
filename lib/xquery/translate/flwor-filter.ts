/**
 * `for $v in P where $v/C op N` → `for $v in P[C op N]`: a where clause that compares a child of
 * the variable just bound with a number literal becomes a predicate of the binding's last step,
 * so that `//name[C op N]` is answered from typed value arrays (paths-index.ts `childComparison`,
 * documents/leaf-values.ts).
 *
 * The two select the same tuples in the same order with the same errors when:
 * - the for clause has one binding, without type, `at` or `allowing empty` (those see the items
 *   the where clause would drop), and the where clause follows it directly (no other clause
 *   multiplies or binds between them);
 * - the binding's expression is a relative or absolute path whose last step is an axis step, so
 *   every item is a node and `$v/C` is the child step `C` evaluated with `$v` as context item
 *   (XQuery 3.1 §3.3.1.1: a predicate's context item is each node in turn);
 * - the where test is a general comparison of `$v/C` (`C` an unpredicated child name step) with
 *   a number literal, in either order: a boolean, so as a predicate it filters and is never
 *   positional (§3.3.3).
 * Anything else is left as written.
 */
import type { AxisStep, ComparisonExpr, Expr, FLWORClause, FLWORExpr, PathExpr } from '../syntax';
import { childComparison } from './paths-index';
import type { Scope } from './scope';

export function pushWhereIntoFor(expr: FLWORExpr, scope: Scope): FLWORExpr {
  let clauses: FLWORClause[] | undefined;
  for (let i = 0; i + 1 < (clauses ?? expr.clauses).length; i++) {
    const list = clauses ?? expr.clauses;
    const pushed = pushed1(list[i], list[i + 1], scope);
    if (!pushed) continue;
    clauses = [...list.slice(0, i), pushed, ...list.slice(i + 2)];
  }
  return clauses ? { ...expr, clauses } : expr;
}

/** The for clause with the where clause as a predicate, or undefined. */
function pushed1(clause: FLWORClause, next: FLWORClause, scope: Scope): FLWORClause | undefined {
  if (clause.kind !== 'ForClause' || next.kind !== 'WhereClause' || clause.bindings.length !== 1) return undefined;
  const binding = clause.bindings[0];
  if (binding.type !== null || binding.positionalVar !== null || binding.allowingEmpty) return undefined;
  const path = binding.in;
  if (path.kind !== 'PathExpr' || path.steps.length === 0) return undefined;
  const last = path.steps[path.steps.length - 1];
  if (last.kind !== 'AxisStep') return undefined;
  const predicate = asPredicate(next.test, binding.name, binding.start, scope);
  if (!predicate || !childComparison(predicate, scope)) return undefined;
  const step: AxisStep = { ...last, predicates: [...last.predicates, predicate] };
  const filtered: PathExpr = { ...path, steps: [...path.steps.slice(0, -1), step] };
  return { ...clause, bindings: [{ ...binding, in: filtered }] };
}

/** `$v/C op N` (or `N op $v/C`) as the predicate `C op N`, when `$v` is the variable `name`. */
function asPredicate(test: Expr, name: ForVariable, offset: number, scope: Scope): ComparisonExpr | undefined {
  if (test.kind !== 'ComparisonExpr') return undefined;
  const left = childOf(test.left, name, offset, scope);
  const right = childOf(test.right, name, offset, scope);
  if (left && !right) return { ...test, left };
  if (right && !left) return { ...test, right };
  return undefined;
}

type ForVariable = Extract<FLWORClause, { kind: 'ForClause' }>['bindings'][number]['name'];

/** The step `C` of a path `$v/C`, when `$v` names the variable `name`. */
function childOf(expr: Expr, name: ForVariable, offset: number, scope: Scope): AxisStep | undefined {
  if (expr.kind !== 'PathExpr' || expr.root !== null || expr.steps.length !== 2) return undefined;
  const [base, step] = expr.steps;
  if (base.kind !== 'VarRef' || step.kind !== 'AxisStep') return undefined;
  try {
    const a = scope.variableName(base.name, base.start);
    const b = scope.variableName(name, offset);
    return a.uri === b.uri && a.local === b.local ? step : undefined;
  } catch {
    return undefined; // a name the translation refuses: left to it
  }
}
