/**
 * Value joins that are only counted (XMark Q8, Q11, Q12):
 *
 *   for $p in //person let $l := for $i in //initial where $p/profile/@income > 5000 * $i return $i
 *   return <items>{count($l)}</items>
 *
 * The items `$l` holds are never needed: only their number is. When the value of a `let` is a
 * join site of the shape `for $b in B where L op R return $b`, and the rest of the FLWOR refers
 * to the variable only as the argument of fn:count, fn:empty or fn:exists, the variable is bound
 * to that number, and the calls read it. A range join (join-range.ts) gives it by a binary
 * search (the length of the run of sorted keys on the right side of the bound), a hash join
 * (join.ts) by its table (functions/join-tables.ts join-count). Where the join's candidates are
 * not exact (a range join's key or value of L that is no xs:double, so that the comparison is
 * not the one the bounds make, or may raise an error; a hash join's numbers on both sides, or
 * values of kinds its keys do not cover) the candidates pass the `where` clause as written and
 * are counted, so answers and errors are those of the nested loop.
 */
import { childNodes, type Expr, type FLWORClause, type FunctionCall, type LetBinding, type Node } from '../../syntax';
import { translateExpr } from '../expressions';
import { hashJoinCount, hoistedJoin, type JoinState } from './join';
import { joinRangeCandidates } from './join-range';
import type { JoinPlan } from './join-sites';
import { expanded } from './filter';
import { NS } from '../names';
import type { Scope, Variable } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';

const F = braced(NS.fn);

/** What a counted variable's calls become, given the variable holding the number. */
const CALLS: Readonly<Record<string, (n: string) => string>> = {
  count: (n) => n,
  empty: (n) => `(${n} eq 0)`,
  exists: (n) => `(${n} gt 0)`,
};

/** The let variables bound to the number of items of their join (by the Variable object of their scope). */
const counted = new WeakSet<Variable>();

/**
 * For the let binding `b` of a FLWOR whose clauses and return after it are `later`: the join
 * its value is, when the value is `for $b in B where L op R return $b` over the join's
 * candidates and `later` reads the variable only through fn:count, fn:empty and fn:exists.
 */
export function countedJoin(b: LetBinding, later: readonly Node[], scope: Scope): { plan: JoinPlan; state: JoinState } | undefined {
  if (b.type) return undefined;
  const value = b.value;
  if (value.kind !== 'FLWORExpr' || value.clauses.length !== 2) return undefined;
  const [f, w] = value.clauses as [FLWORClause, FLWORClause];
  if (f.kind !== 'ForClause' || f.bindings.length !== 1 || w.kind !== 'WhereClause') return undefined;
  const join = hoistedJoin(scope.ctx, f.bindings[0]);
  if (join === undefined || join.plan.where !== w) return undefined;
  const inner = expanded(f.bindings[0].name, f.bindings[0].start, scope);
  if (value.return.kind !== 'VarRef' || inner === undefined || expanded(value.return.name, value.return.start, scope) !== inner) return undefined;
  const name = expanded(b.name, b.start, scope);
  if (name === undefined || !later.every((n) => onlyCounted(n, name, scope))) return undefined;
  return { plan: join.plan, state: join.state };
}

/** Whether every reference to the variable `name` below `n` is the argument of a call in CALLS. */
function onlyCounted(n: Node, name: string, scope: Scope): boolean {
  if (countingCall(n, scope) !== undefined) return true;
  if (n.kind === 'VarRef' && expanded(n.name, n.start, scope) === name) return false;
  return childNodes(n).every((c) => onlyCounted(c, name, scope));
}

/** The local name of the fn function in CALLS that `n` calls with one argument, a variable reference. */
function countingCall(n: Node, scope: Scope): string | undefined {
  if (n.kind !== 'FunctionCall' || n.args.length !== 1 || n.args[0].kind !== 'VarRef') return undefined;
  try {
    const fn = scope.functionName(n.name, n.start);
    return fn.uri === NS.fn && fn.local in CALLS ? fn.local : undefined;
  } catch {
    return undefined; // an unknown prefix: the translation reports it
  }
}

/**
 * `let $v := …` binding `b`'s variable to the number of items of the join: the number of its
 * candidates when they are exact, else the candidates that pass the `where` clause, counted.
 */
export function countedJoinBinding(b: LetBinding, join: { plan: JoinPlan; state: JoinState }, scope: Scope, unit: TranslationUnit): { text: string; scope: Scope } {
  const { plan, state } = join;
  const item = scope.bind(plan.inner.name, plan.inner.start);
  const test = translateExpr(plan.where.test, item.scope, unit);
  const passing = (domain: string): string => `${F}count(for ${item.variable.ref} in ${domain} return if (${test}) then ${item.variable.ref} else ())`;
  let value: string;
  if (state.kind === 'range') {
    const range = joinRangeCandidates(plan, state, scope, unit);
    value = `${range.prefix}if (${range.exact}) then ${range.count} else ${passing(range.domain)}`;
  } else {
    const hash = hashJoinCount(plan, state, scope, unit);
    const n = `$${braced(NS.vars)}join-count.${scope.ctx.nextId()}`;
    value = `let ${n} := ${hash.count} return if (${n} ge 0) then ${n} else ${passing(hash.domain)}`;
  }
  const bound = scope.bind(b.name, b.start, true);
  counted.add(bound.variable);
  return { text: `let ${bound.variable.ref} := (${value}) return `, scope: bound.scope };
}

/** A call of fn:count, fn:empty or fn:exists on a counted variable, read from the number. */
export function countedCall(expr: FunctionCall, scope: Scope): string | undefined {
  const local = countingCall(expr, scope);
  if (local === undefined) return undefined;
  const arg = expr.args[0] as Extract<Expr, { kind: 'VarRef' }>;
  const variable = scope.lookupVariable(arg.name, arg.start);
  return counted.has(variable) ? CALLS[local](variable.ref) : undefined;
}
