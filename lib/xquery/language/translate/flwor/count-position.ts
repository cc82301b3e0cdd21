/**
 * `for $v in E count $c …` → `for $v at $c in E …`: a count clause right after the first clause of
 * a FLWOR, a for clause of one binding, numbers the tuples that binding makes, one per item of E
 * in order (XQuery 3.1 §3.12.6), which is what its positional variable holds (§3.12.2). The
 * positional form binds the number with the item and needs no tuple stream of its own (no array
 * per tuple, tuples.ts `restart`).
 *
 * Not when the binding has `at` or `allowing empty` already (an empty E then makes one tuple
 * numbered 1, whose position would be 0), nor when the count variable has the for variable's name
 * (after the count clause the name is the number; as a positional variable it would be XQST0089).
 */
import type { FLWORExpr } from '../../syntax';
import type { Scope } from '../scope';
import { expanded } from './filter';

export function countAsPosition(expr: FLWORExpr, scope: Scope): FLWORExpr {
  const [first, second] = expr.clauses;
  if (first?.kind !== 'ForClause' || second?.kind !== 'CountClause' || first.bindings.length !== 1) return expr;
  const b = first.bindings[0];
  if (b.positionalVar !== null || b.allowingEmpty) return expr;
  const v = expanded(b.name, b.start, scope);
  const c = expanded(second.name, second.start, scope);
  if (v === undefined || c === undefined || v === c) return expr;
  return { ...expr, clauses: [{ ...first, bindings: [{ ...b, positionalVar: second.name }] }, ...expr.clauses.slice(2)] };
}
