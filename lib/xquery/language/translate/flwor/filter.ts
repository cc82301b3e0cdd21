/**
 * `for $v in P … where $v/C op N` → `for $v in P[C op N] …`: a where clause that compares a child
 * of the variable of a for clause with a number literal becomes a predicate of the binding's last
 * step, so that `//name[C op N]` is answered from typed value arrays (paths-index.ts
 * `childComparison`, accelerators/leaf-columns/leaf-values.ts); likewise with a string literal,
 * for the leaf filter (`childStringComparison`).
 *
 * The two select the same tuples in the same order with the same errors when:
 * - the for clause has one binding, without type, `at` or `allowing empty` (those see the items
 *   the where clause would drop);
 * - only let and where clauses stand between the for clause and the where clause: neither
 *   multiplies the tuples, a let binds one value per tuple and a where keeps or drops a tuple, so
 *   dropping a tuple before them drops the same tuples (a let value the dropped tuples never
 *   need is not evaluated for them either way: XQuery 3.1 §2.3.4 leaves errors of values that
 *   are not needed to the implementation), and none of those lets binds `$v` again;
 * - the binding's expression is a relative or absolute path whose last step is an axis step, so
 *   every item is a node and `$v/C` is the child step `C` evaluated with `$v` as context item
 *   (XQuery 3.1 §3.3.1.1: a predicate's context item is each node in turn);
 * - the where test is a general comparison with a number or string literal, in either order, of `$v/C`
 *   (`C` an unpredicated child name step) or of a variable that one of those lets binds, without
 *   a type, to exactly `$v/C` (`let $p := $v/price where $p > 500`): a boolean, so as a
 *   predicate it filters and is never positional (§3.3.3).
 * Anything else is left as written. Such a let binding that nothing else refers to is then left
 * out: its value, a child step of a node, is never needed and cannot fail.
 */
import type { AxisStep, ComparisonExpr, EQName, Expr, FLWORClause, FLWORExpr, LetBinding, PathExpr } from '../../syntax';
import { childNodes } from '../../syntax/walk';
import { isGeneralComparison } from '../../syntax';
import type { Node } from '../../syntax';
import { childComparison } from '../../../accelerators/name-index/paths-index';
import { leafComparisons } from '../../../accelerators/leaf-filter/paths-leaf-predicates';
import type { Scope } from '../scope';
import { eqname } from '../emit';

export function pushWhereIntoFor(expr: FLWORExpr, scope: Scope): FLWORExpr {
  let clauses = expr.clauses;
  for (let w = 1; w < clauses.length; w++) {
    const pushed = pushed1(clauses, w, scope);
    if (!pushed) continue;
    clauses = [...clauses.slice(0, pushed.at), pushed.clause, ...clauses.slice(pushed.at + 1, w), ...clauses.slice(w + 1)];
    if (pushed.alias !== undefined) clauses = withoutUnused(clauses, expr.return, pushed.alias, scope);
    w = pushed.at;
  }
  return clauses === expr.clauses ? expr : { ...expr, clauses };
}

/** The clauses without the let binding `alias` when no variable reference of its name is left. */
function withoutUnused(clauses: readonly FLWORClause[], result: Expr, alias: LetBinding, scope: Scope): FLWORClause[] {
  const name = expanded(alias.name, alias.start, scope);
  if (name === undefined || refersTo(result, name, scope) || clauses.some((c) => refersTo(c, name, scope))) return [...clauses];
  const out: FLWORClause[] = [];
  for (const c of clauses) {
    if (c.kind !== 'LetClause') out.push(c);
    else {
      const bindings = c.bindings.filter((b) => b !== alias);
      if (bindings.length > 0) out.push({ ...c, bindings });
    }
  }
  return out;
}

/** For the where clause at `w`: the for clause it goes into (at `at`) with it as a predicate, or undefined. */
function pushed1(clauses: readonly FLWORClause[], w: number, scope: Scope): { at: number; clause: FLWORClause; alias?: LetBinding } | undefined {
  const where = clauses[w];
  if (where.kind !== 'WhereClause') return undefined;
  let at = w - 1;
  while (at >= 0 && (clauses[at].kind === 'LetClause' || clauses[at].kind === 'WhereClause')) at--;
  const clause = clauses[at];
  if (!clause || clause.kind !== 'ForClause' || clause.bindings.length !== 1) return undefined;
  const binding = clause.bindings[0];
  if (binding.type !== null || binding.positionalVar !== null || binding.allowingEmpty) return undefined;
  const path = binding.in;
  if (path.kind !== 'PathExpr' || path.steps.length === 0) return undefined;
  const last = path.steps[path.steps.length - 1];
  if (last.kind !== 'AxisStep') return undefined;
  const forVar = expanded(binding.name, binding.start, scope);
  if (forVar === undefined) return undefined;
  // the lets in between: each name to the child step it is bound to (null: another value)
  const aliases = new Map<string, AxisStep | null>();
  const bindings = new Map<string, LetBinding>();
  for (const between of clauses.slice(at + 1, w)) {
    if (between.kind !== 'LetClause') continue;
    for (const b of between.bindings) {
      const name = expanded(b.name, b.start, scope);
      if (name === undefined || name === forVar) return undefined;
      aliases.set(name, b.type === null ? childOf(b.value, forVar, scope) ?? null : null);
      bindings.set(name, b);
    }
  }
  const predicate = asPredicate(where.test, forVar, aliases, scope);
  if (!predicate || !(childComparison(predicate, scope) || childStringComparison(predicate, scope))) return undefined;
  const step: AxisStep = { ...last, predicates: [...last.predicates, predicate] };
  const filtered: PathExpr = { ...path, steps: [...path.steps.slice(0, -1), step] };
  const test = where.test as ComparisonExpr;
  const alias = [test.left, test.right].find((e) => e.kind === 'VarRef');
  return {
    at,
    clause: { ...clause, bindings: [{ ...binding, in: filtered }] },
    alias: alias?.kind === 'VarRef' ? bindings.get(expanded(alias.name, alias.start, scope) ?? '') : undefined,
  };
}

/**
 * Whether `predicate` compares a child element with a string literal by a general comparison
 * (`category = "delta"`): boolean like the number comparisons above, so the same tuples pass,
 * and answered by the leaf filter of `//name[C = "s"]` (accelerators/leaf-filter).
 */
function childStringComparison(predicate: Expr, scope: Scope): boolean {
  const tests = leafComparisons(predicate, scope);
  const test = tests?.length === 1 ? tests[0] : undefined;
  return test !== undefined && test.kind === 'child' && isGeneralComparison(test.op) && test.value.kind === 'StringLiteral';
}

/** `Q{uri}local` of a variable name; undefined for a name the translation refuses (left to it). */
export function expanded(name: EQName, offset: number, scope: Scope): string | undefined {
  try {
    return eqname(scope.variableName(name, offset));
  } catch {
    return undefined;
  }
}

/** Whether a variable reference below `node` names the variable `name` (`Q{uri}local`). */
export function refersTo(node: Node, name: string, scope: Scope): boolean {
  return (node.kind === 'VarRef' && expanded(node.name, node.start, scope) === name) || childNodes(node).some((child) => refersTo(child, name, scope));
}

/** The test as the predicate `C op N` (from `$v/C op N`, `N op $v/C`, or an alias of `$v/C`). */
function asPredicate(test: Expr, forVar: string, aliases: ReadonlyMap<string, AxisStep | null>, scope: Scope): ComparisonExpr | undefined {
  if (test.kind !== 'ComparisonExpr') return undefined;
  const left = stepOf(test.left, forVar, aliases, scope);
  const right = stepOf(test.right, forVar, aliases, scope);
  if (left && !right) return { ...test, left };
  if (right && !left) return { ...test, right };
  return undefined;
}

/** The step `C` that `expr` stands for: `$v/C` itself, or a let variable bound to it in between. */
function stepOf(expr: Expr, forVar: string, aliases: ReadonlyMap<string, AxisStep | null>, scope: Scope): AxisStep | undefined {
  if (expr.kind === 'VarRef') {
    const name = expanded(expr.name, expr.start, scope);
    return name === undefined ? undefined : aliases.get(name) ?? undefined;
  }
  return childOf(expr, forVar, scope);
}

/** The step `C` of a path `$v/C`, when `$v` names the variable `forVar`. */
function childOf(expr: Expr, forVar: string, scope: Scope): AxisStep | undefined {
  if (expr.kind !== 'PathExpr' || expr.root !== null || expr.steps.length !== 2) return undefined;
  const [base, step] = expr.steps;
  if (base.kind !== 'VarRef' || step.kind !== 'AxisStep') return undefined;
  return expanded(base.name, base.start, scope) === forVar ? step : undefined;
}
