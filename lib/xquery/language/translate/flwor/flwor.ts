/**
 * FLWOR expressions made of for (with `at` and `allowing empty`), let and where clauses, and
 * typed bindings, in pure XPath 3.1:
 *
 *   for $x at $i allowing empty in E  →  let $s := E return
 *                                        for $i in (if (empty($s)) then 0 else 1 to count($s))
 *                                        return let $x := $s[$i] return …
 *   where W                           →  if (W) then … else ()
 *
 * A typed binding checks its value with SequenceType matching (XPTY0004, no conversion).
 * FLWORs with order by, group by, count or window clauses go to advanced.ts.
 */
import { documentLike } from '../../../accelerators/child-paths/paths-child';
import type { Expr, FLWORClause, FLWORExpr, ForBinding } from '../../syntax';
import { translateExpr } from '../expressions';
import { SIMPLE_CLAUSES, translateFlworAdvanced } from './advanced';
import { pushWhereIntoFor } from './filter';
import { countAsPosition } from './count-position';
import { countedJoin, countedJoinBinding } from './join-count';
import { findJoins, hoistedJoin, joinExactWhere, joinInnerBinding, joinOuterBinding, type JoinPlan } from './join';
import { yieldsAtomics } from '../atomic-values';
import { NS } from '../names';
import type { Scope } from '../scope';
import { checkedValue, translateSequenceType } from '../types';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';
import { translateLeafReturns } from './leaf-returns';
import { translateLeafTuples } from './leaf-tuples';

/** `some`/`every` … `satisfies` (XQuery 3.1 §3.15): an XPath quantified expression, the bindings' types checked. */
export function translateQuantified(expr: Extract<Expr, { kind: 'QuantifiedExpr' }>, scope: Scope, unit: TranslationUnit): string {
  let inner = scope;
  const bindings: string[] = [];
  for (const b of expr.bindings) {
    let domain = translateExpr(b.in, inner, unit);
    const bound = inner.bind(b.name, b.start);
    if (b.type) {
      const type = translateSequenceType(b.type, scope);
      domain = `(for $${braced(NS.vars)}q in ${domain} return ${checkedValue(`$${braced(NS.vars)}q`, type, `$${bound.variable.name.local}`)})`;
    }
    inner = bound.scope;
    bindings.push(`${bound.variable.ref} in ${domain}`);
  }
  return `(${expr.quantifier} ${bindings.join(', ')} satisfies ${translateExpr(expr.satisfies, inner, unit)})`;
}

export function translateFlwor(written: FLWORExpr, scope: Scope, unit: TranslationUnit): string {
  const pushed = pushWhereIntoFor(written, scope);
  return translateLeafTuples(pushed, written, scope, unit, () => translateClauses(pushed, scope, unit)) ?? translateClauses(pushed, scope, unit);
}

/** The FLWOR, where clauses already pushed into its for clause, in XPath (advanced.ts when it needs a tuple stream). */
function translateClauses(pushed: FLWORExpr, scope: Scope, unit: TranslationUnit): string {
  const expr = countAsPosition(pushed, scope);
  if (!expr.clauses.every((c) => SIMPLE_CLAUSES.has(c.kind))) return translateFlworAdvanced(expr, scope, unit);
  const leaves = translateLeafReturns(expr, scope, unit, (nodes) => `(${clauses(nodes, 0, scope, unit, findJoins(nodes, scope))})`);
  if (leaves !== undefined) return leaves;
  return `(${clauses(expr, 0, scope, unit, findJoins(expr, scope))})`;
}

/** `joins`: the value joins (join.ts) whose maps the first binding builds. */
function clauses(expr: FLWORExpr, i: number, scope: Scope, unit: TranslationUnit, joins: readonly JoinPlan[]): string {
  if (i === expr.clauses.length) return translateExpr(expr.return, scope, unit);
  const clause: FLWORClause = expr.clauses[i];
  switch (clause.kind) {
    case 'LetClause': {
      let inner = scope;
      const parts: string[] = [];
      for (const [k, b] of clause.bindings.entries()) {
        const later = [...clause.bindings.slice(k + 1), ...expr.clauses.slice(i + 1), expr.return];
        const join = countedJoin(b, later, inner);
        if (join) {
          const r = countedJoinBinding(b, join, inner, unit);
          parts.push(r.text);
          inner = r.scope;
          continue;
        }
        let value = translateExpr(b.value, inner, unit);
        const bound = inner.bind(b.name, b.start, yieldsAtomics(b.value, inner), documentLike(b.value, inner));
        if (b.type) value = checkedValue(value, translateSequenceType(b.type, scope), `$${bound.variable.name.local}`);
        parts.push(`let ${bound.variable.ref} := ${value} return `);
        inner = bound.scope;
      }
      return parts.join('') + clauses(expr, i + 1, inner, unit, joins);
    }
    case 'ForClause': {
      let inner = scope;
      const parts: string[] = [];
      for (const b of clause.bindings) {
        const hoisted = hoistedJoin(scope.ctx, b);
        let r: { text: string; scope: Scope };
        if (joins.length > 0 && b === joins[0].outer) r = joinOuterBinding(joins, inner, unit, hoisted);
        else if (hoisted) r = joinInnerBinding(hoisted.plan, hoisted.state, inner, unit);
        else r = forBinding(b, inner, unit);
        parts.push(r.text);
        inner = r.scope;
      }
      return parts.join('') + clauses(expr, i + 1, inner, unit, joins);
    }
    case 'WhereClause': {
      // the where clause of a range join holds for its candidates when they are exact (join-range.ts)
      const exact = joinExactWhere(scope.ctx, clause);
      const test = translateExpr(clause.test, scope, unit);
      return `if (${exact ? `${exact} or (${test})` : test}) then (${clauses(expr, i + 1, scope, unit, joins)}) else ()`;
    }
    default:
      throw new Error(`simple FLWOR: unexpected ${clause.kind}`);
  }
}

/** One for binding as XPath text ending in `return `, and the scope after it (advanced.ts uses it too). */
export function forBinding(b: ForBinding, scope: Scope, unit: TranslationUnit): { text: string; scope: Scope } {
  const domain = translateExpr(b.in, scope, unit);
  const type = b.type ? translateSequenceType(b.type, scope) : null;
  if (b.positionalVar && !b.allowingEmpty) {
    const vn = scope.variableName(b.name, b.start);
    const pn = scope.variableName(b.positionalVar, b.start);
    if (vn.uri === pn.uri && vn.local === pn.local) throw scope.error('XQST0089', b.start, vn.local);
  }
  const atomic = yieldsAtomics(b.in, scope);
  if (!b.positionalVar && !b.allowingEmpty) {
    const bound = scope.bind(b.name, b.start, atomic);
    if (!type) return { text: `for ${bound.variable.ref} in ${domain} return `, scope: bound.scope };
    const item = `$${braced(NS.vars)}item.${scope.ctx.nextId()}`;
    return {
      text: `for ${item} in ${domain} return let ${bound.variable.ref} := ${checkedValue(item, type, `$${bound.variable.name.local}`)} return `,
      scope: bound.scope,
    };
  }
  const seq = `$${braced(NS.vars)}seq.${scope.ctx.nextId()}`;
  let inner = scope;
  let pos: string;
  if (b.positionalVar) {
    const p = inner.bind(b.positionalVar, b.start, true);
    inner = p.scope;
    pos = p.variable.ref;
  } else {
    pos = `$${braced(NS.vars)}pos.${scope.ctx.nextId()}`;
  }
  const bound = inner.bind(b.name, b.start, atomic);
  const range = b.allowingEmpty ? `(if (${braced(NS.fn)}empty(${seq})) then 0 else 1 to ${braced(NS.fn)}count(${seq}))` : `(1 to ${braced(NS.fn)}count(${seq}))`;
  let value = `${seq}[${pos}]`;
  if (type) value = checkedValue(value, type, `$${bound.variable.name.local}`);
  // the positional variable must not see the range variable and vice versa: bind both after the domain
  return {
    text: `let ${seq} := ${domain} return for ${pos} in ${range} return let ${bound.variable.ref} := ${value} return `,
    scope: bound.scope,
  };
}
