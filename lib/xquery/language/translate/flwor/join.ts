/**
 * Value joins (found by join-sites.ts) as hash joins:
 *
 *   for $a in A, $b in B where L = R return …      (R reads only $b, B and L do not read $b)
 *
 * evaluated as written compares every `$b` with every `$a`: |A|·|B| comparisons. Here B is
 * evaluated once, before the loop (it reads no variable bound by the loop, and the focus is the
 * same), and the atomized values of R are put in a table from a key to the positions of the `$b`
 * they come from. For each `$a`, the atomized values of L are looked up and `$b` ranges over the
 * matching items only, in B's order; the `where` clause stays, so every pair still passes the
 * general comparison itself (a key only narrows the candidates). Order comparisons are range
 * joins (join-range.ts) on the same plan.
 *
 * The table and its probes are functions/join-tables.ts: its keys keep general comparison's
 * rules (XQuery 3.1 §3.7.2) for the codepoint collation (with another default collation, no
 * rewrite), and where the nested loop could raise an error or compare otherwise, the probe
 * yields all of B and the loop runs as written.
 *
 * B is evaluated only when A is not empty, as the nested loop does.
 */
import type { ForBinding, WhereClause } from '../../syntax';
import { translateExpr } from '../expressions';
import { joinRangeCandidates, joinRangeMap, type RangeState } from './join-range';
import type { JoinPlan } from './join-sites';
import { NS } from '../names';
import type { Scope, StaticContext, Variable } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';
import { JOIN_COUNT_FUNCTION, JOIN_PROBE_FUNCTION } from '../../../functions/join-tables';

export { findJoins, type JoinPlan } from './join-sites';

/** Names of the generated variables of one hash join, and its key table's entries. */
export interface HashState {
  readonly kind: 'hash';
  readonly seq: string;
  /** B as an array. */
  readonly items: string;
  /** XPath of the keys of B's items (`hashMap`), evaluated where the table is first asked for. */
  readonly keys: string;
}

export type JoinState = HashState | RangeState;

const F = braced(NS.fn);
const JOIN_PROBE = `${braced(NS.engine)}${JOIN_PROBE_FUNCTION}`;
const JOIN_COUNT = `${braced(NS.engine)}${JOIN_COUNT_FUNCTION}`;

/** The joins of each translation by inner binding, once their inner domains are bound. */
const registry = new WeakMap<StaticContext, Map<ForBinding, { plan: JoinPlan; state: JoinState }>>();

/** The variable telling whether the candidates of a join pass its `where` clause as they are, by clause. */
const exactWheres = new WeakMap<StaticContext, Map<WhereClause, string>>();

/** For the `where` clause of a join whose candidates are bound: an xs:boolean variable, true when the clause holds for every candidate. */
export function joinExactWhere(ctx: StaticContext, where: WhereClause): string | undefined {
  return exactWheres.get(ctx)?.get(where);
}

/** The join whose candidates `b` ranges over, if its map is bound. */
export function hoistedJoin(ctx: StaticContext, b: ForBinding): { plan: JoinPlan; state: JoinState } | undefined {
  return registry.get(ctx)?.get(b);
}

/**
 * The outer binding, with each join's inner domain (and a range join's index) computed after the
 * outer domain and before the loop: `let $s := A return if (empty($s)) then () else let $seq :=
 * B, $items := … return for $a in $s return `. `hoisted`: the join the outer binding is itself the inner
 * binding of (A is then its candidates).
 */
export function joinOuterBinding(
  plans: readonly JoinPlan[],
  scope: Scope,
  unit: TranslationUnit,
  hoisted?: { plan: JoinPlan; state: JoinState },
): { text: string; scope: Scope } {
  const outer = plans[0].outer;
  const outerSeq = `$${braced(NS.vars)}join-outer.${scope.ctx.nextId()}`;
  const candidates = hoisted ? joinCandidates(hoisted.plan, hoisted.state, scope, unit) : { prefix: '', domain: translateExpr(outer.in, scope, unit) };
  let joins = registry.get(scope.ctx);
  if (!joins) registry.set(scope.ctx, (joins = new Map()));
  const lets: string[] = [];
  for (const plan of plans) {
    const built = plan.op === '=' ? hashMap(plan, scope, unit) : joinRangeMap(plan, scope, unit);
    joins.set(plan.inner, { plan, state: built.state });
    lets.push(built.text);
  }
  const bound = scope.bind(outer.name, outer.start);
  const text =
    `${candidates.prefix}let ${outerSeq} := ${candidates.domain} return if (${F}empty(${outerSeq})) then () else ` +
    `let ${lets.join(', ')} return for ${bound.variable.ref} in ${outerSeq} return `;
  return { text, scope: bound.scope };
}

/**
 * `$seq := B, $items := …` of one hash join, and the keys of its table (functions/join-tables.ts):
 * for each item of B in order, an array holding its atomized keys. The first probe reads them; as
 * a FLWOR, saxon-js evaluates them only as they are read, so later probes pay nothing for them,
 * and a nested FLWOR that engine:leaf-tuples answers, which never probes, never computes them.
 */
function hashMap(plan: JoinPlan, scope: Scope, unit: TranslationUnit): { text: string; state: HashState } {
  const id = scope.ctx.nextId();
  const name = (n: string): string => `$${braced(NS.vars)}join-${n}.${id}`;
  const [seq, items] = ['seq', 'items'].map(name);
  const innerDomain = translateExpr(plan.inner.in, scope, unit);
  const item = scope.bind(plan.inner.name, plan.inner.start);
  const keys = `for ${item.variable.ref} in ${seq} return [${F}data(${translateExpr(plan.build, item.scope, unit)})]`;
  // B as an array too: the candidates are fetched by position, and saxon-js's `$seq[$p]` and
  // `subsequence($seq, $p, 1)` walk the sequence up to $p when $p is not statically an integer
  const text = `${seq} := ${innerDomain}, ${items} := array {${seq}}`;
  return { text, state: { kind: 'hash', seq, items, keys } };
}

/** The inner binding over the candidates. */
export function joinInnerBinding(plan: JoinPlan, state: JoinState, scope: Scope, unit: TranslationUnit): { text: string; scope: Scope } {
  const { prefix, domain } = joinCandidates(plan, state, scope, unit);
  const bound: { scope: Scope; variable: Variable } = scope.bind(plan.inner.name, plan.inner.start);
  return { text: `${prefix}for ${bound.variable.ref} in ${domain} return `, scope: bound.scope };
}

/** The items of B whose keys may satisfy the comparison with L's, in B's order, after `prefix` (`let … return ` or nothing). */
function joinCandidates(plan: JoinPlan, state: JoinState, scope: Scope, unit: TranslationUnit): { prefix: string; domain: string } {
  if (state.kind === 'range') {
    const range = joinRangeCandidates(plan, state, scope, unit);
    let wheres = exactWheres.get(scope.ctx);
    if (!wheres) exactWheres.set(scope.ctx, (wheres = new Map()));
    wheres.set(plan.where, range.exact);
    return range;
  }
  return { prefix: '', domain: hashCandidates(state, translateExpr(plan.probe, scope, unit), scope) };
}

/** The candidates of a hash join for the values of L, `probe` (translated), in B's order. */
function hashCandidates({ items, keys }: HashState, probe: string, scope: Scope): string {
  const p = `$${braced(NS.vars)}join-pos.${scope.ctx.nextId()}`;
  return `(for ${p} in ${JOIN_PROBE}(${items}, ${keys}, ${F}data(${probe})) return ${items}(${p}))`;
}

/**
 * For a hash join whose items are only counted (join-count.ts): `count`, the number of its items
 * when its candidates are exact, else -1; `domain`, the candidates, which must then pass the
 * `where` clause (functions/join-tables.ts join-count).
 */
export function hashJoinCount(plan: JoinPlan, state: HashState, scope: Scope, unit: TranslationUnit): { count: string; domain: string } {
  const probe = translateExpr(plan.probe, scope, unit);
  return { count: `${JOIN_COUNT}(${state.items}, ${state.keys}, ${F}data(${probe}))`, domain: hashCandidates(state, probe, scope) };
}
