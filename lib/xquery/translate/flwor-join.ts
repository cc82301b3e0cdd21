/**
 * Value joins as hash joins:
 *
 *   for $a in A, $b in B where L = R return …      (R reads only $b, B and L do not read $b)
 *
 * evaluated as written compares every `$b` with every `$a`: |A|·|B| comparisons. Here B is
 * evaluated once, before the loop (it reads no variable of the FLWOR, and the focus does not
 * change inside a FLWOR), and the atomized values of R are put in a map from a key to the
 * positions of the `$b` they come from. For each `$a`, the atomized values of L are looked up
 * and `$b` ranges over the matching items only, in B's order; the `where` clause stays, so every
 * pair still passes the general comparison itself (a key only narrows the candidates).
 *
 * The keys keep general comparison's rules (XQuery 3.1 §3.7.2): an xs:untypedAtomic compares
 * as a string with strings and untyped values and as an xs:double with numbers; numbers compare
 * after promotion, which equal values survive as xs:double keys; NaN equals nothing. A string
 * key is the string itself (the default collation is the codepoint collation, otherwise no
 * rewrite). Where the nested loop could raise an error (a string against a number, an untyped
 * value that is no number against a number) or values of other types take part, the probe
 * yields all of B and the loop runs as written.
 *
 * B is evaluated only when A is not empty, as the nested loop does. The rewrite applies when the
 * join variable is the second for binding of the FLWOR, directly followed by the `where`, B is
 * built from paths and fn functions without variables or constructors, and R is a path of axis
 * steps without predicates from `$b`.
 */
import { childNodes, type Expr, type FLWORClause, type FLWORExpr, type ForBinding, type Node } from '../syntax';
import { translateExpr } from './expressions';
import { SIMPLE_CLAUSES } from './flwor-advanced';
import { NS } from './names';
import type { Scope, StaticContext, Variable } from './scope';
import type { TranslationUnit } from './unit';

export interface JoinPlan {
  readonly outer: ForBinding;
  readonly inner: ForBinding;
  /** The side of `=` read from the inner variable (keys of the map). */
  readonly build: Expr;
  /** The other side (looked up for each outer item). */
  readonly probe: Expr;
}

/** Names of the generated variables of one join. */
export interface JoinState {
  readonly seq: string;
  readonly map: string;
  /** The kinds of keys B has: `untyped`, `badu` (untyped, no number), `str`, `num`, `other`. */
  readonly kinds: string;
}

const F = `Q{${NS.fn}}`;
const XS = `Q{${NS.xs}}`;
const MAP = `Q{${NS.map}}`;

/** Node kinds allowed in the inner domain B: deterministic, no variables, no new nodes. */
const DOMAIN_KINDS = new Set([
  'PathExpr',
  'AxisStep',
  'FilterExpr',
  'ContextItemExpr',
  'ParenthesizedExpr',
  'StringLiteral',
  'IntegerLiteral',
  'ComparisonExpr',
  'AndExpr',
  'OrExpr',
  'FunctionCall',
  'Wildcard',
]);

/**
 * The joins whose map the FLWOR's first binding builds: its second binding joined by the
 * following `where`, or, in the `let` clauses right after a first `for` clause of one binding, a
 * FLWOR (or an fn function of one) starting `for $b in B where L = R` (a join per outer item:
 * `let $bought := for $t in //closed_auction where $t/buyer/@person = $p/@id return $t`).
 */
export function findJoins(expr: FLWORExpr, scope: Scope): JoinPlan[] {
  if (scope.ctx.defaultCollation !== null && scope.ctx.defaultCollation !== `${NS.fn}/collation/codepoint`) return [];
  const [c0, c1, c2] = expr.clauses;
  if (c0?.kind !== 'ForClause' || !plain(c0.bindings[0])) return [];
  const outer = c0.bindings[0];
  if (c0.bindings.length === 2) return joinOn(outer, c0.bindings[1], c1, scope);
  if (c0.bindings.length > 2) return [];
  if (c1?.kind === 'ForClause' && c1.bindings.length === 1) return joinOn(outer, c1.bindings[0], c2, scope);
  const plans: JoinPlan[] = [];
  for (const clause of expr.clauses.slice(1)) {
    if (clause.kind !== 'LetClause') break;
    for (const b of clause.bindings) {
      let v = b.value;
      if (v.kind === 'FunctionCall' && v.args.length === 1 && v.args[0].kind === 'FLWORExpr' && scope.functionName(v.name, v.start).uri === NS.fn) v = v.args[0];
      if (v.kind !== 'FLWORExpr' || !v.clauses.every((c) => SIMPLE_CLAUSES.has(c.kind))) continue;
      const [f0, f1] = v.clauses;
      if (f0.kind === 'ForClause' && f0.bindings.length === 1) plans.push(...joinOn(outer, f0.bindings[0], f1, scope));
    }
  }
  return plans;
}

function joinOn(outer: ForBinding, inner: ForBinding, where: FLWORClause | undefined, scope: Scope): JoinPlan[] {
  if (where?.kind !== 'WhereClause' || !plain(inner)) return [];
  let test = where.test;
  while (test.kind === 'ParenthesizedExpr' && test.expr) test = test.expr;
  if (test.kind !== 'ComparisonExpr' || test.op !== '=') return [];
  if (!pureDomain(inner.in, scope)) return [];
  const v = scope.variableName(inner.name, inner.start);
  const isV = (n: Node): boolean => {
    if (n.kind !== 'VarRef') return false;
    const q = scope.variableName(n.name, n.start);
    return q.uri === v.uri && q.local === v.local;
  };
  const readsV = (n: Node): boolean => isV(n) || descendants(n).some(isV);
  for (const [build, probe] of [
    [test.right, test.left],
    [test.left, test.right],
  ] as const) {
    if (keyPath(build, isV) && !readsV(probe)) return [{ outer, inner, build, probe }];
  }
  return [];
}

/** The joins of each translation by inner binding, once their maps are bound. */
const registry = new WeakMap<StaticContext, Map<ForBinding, { plan: JoinPlan; state: JoinState }>>();

/** The join whose candidates `b` ranges over, if its map is bound. */
export function hoistedJoin(ctx: StaticContext, b: ForBinding): { plan: JoinPlan; state: JoinState } | undefined {
  return registry.get(ctx)?.get(b);
}

function plain(b: ForBinding): boolean {
  return !b.type && !b.positionalVar && !b.allowingEmpty;
}

function descendants(n: Node): Node[] {
  const out: Node[] = [];
  const visit = (x: Node): void => {
    for (const c of childNodes(x)) {
      out.push(c);
      visit(c);
    }
  };
  visit(n);
  return out;
}

/** Nodes (the last step is an axis step) from paths and fn functions, reading no variable. */
function pureDomain(e: Expr, scope: Scope): boolean {
  const last = e.kind === 'PathExpr' ? e.steps[e.steps.length - 1] : e;
  if (last?.kind !== 'AxisStep') return false;
  return [e, ...descendants(e)].every((n) => {
    if (!DOMAIN_KINDS.has(n.kind) && !n.kind.endsWith('Test')) return false; // node tests (`node()`, `element(e)`) are no expressions
    return n.kind !== 'FunctionCall' || scope.functionName(n.name, n.start).uri === NS.fn;
  });
}

/** `$b`, or `$b/step/…/step` of axis steps without predicates. */
function keyPath(e: Expr, isV: (n: Node) => boolean): boolean {
  if (isV(e)) return true;
  if (e.kind !== 'PathExpr' || e.root !== null || e.steps.length < 2 || !isV(e.steps[0])) return false;
  return e.steps.slice(1).every((s) => s.kind === 'AxisStep' && s.predicates.length === 0 && (s.test.kind === 'NameTest' || s.test.kind === 'Wildcard'));
}

/** A key for an xs:double (−0 and 0 are equal). */
const numberKey = (d: string): string => `(if (${d} eq 0) then "0" else ${F}string(${d}))`;

const isString = (k: string): string => `(${k} instance of ${XS}string or ${k} instance of ${XS}anyURI)`;
const isNumber = (k: string): string => `(${k} instance of ${XS}decimal or ${k} instance of ${XS}double or ${k} instance of ${XS}float)`;

/**
 * The outer binding, with each join's inner domain and map computed after the outer domain and
 * before the loop: `let $s := A return if (empty($s)) then () else let $seq := B, $map := …
 * return for $a in $s return `.
 */
export function joinOuterBinding(plans: readonly JoinPlan[], scope: Scope, unit: TranslationUnit): { text: string; scope: Scope } {
  const outer = plans[0].outer;
  const outerSeq = `$Q{${NS.vars}}join-outer.${scope.ctx.nextId()}`;
  const outerDomain = translateExpr(outer.in, scope, unit);
  const lets = plans.map((plan) => joinMap(plan, scope, unit));
  const bound = scope.bind(outer.name, outer.start);
  const text =
    `let ${outerSeq} := ${outerDomain} return if (${F}empty(${outerSeq})) then () else ` +
    `let ${lets.join(', ')} return for ${bound.variable.ref} in ${outerSeq} return `;
  return { text, scope: bound.scope };
}

/** `$seq := B, $map := …, $kinds := …` of one join, registered for its inner binding. */
function joinMap(plan: JoinPlan, scope: Scope, unit: TranslationUnit): string {
  const id = scope.ctx.nextId();
  const name = (n: string): string => `$Q{${NS.vars}}join-${n}.${id}`;
  const [seq, map, kindsVar, pos, k, d] = ['seq', 'map', 'kinds', 'pos', 'key', 'double'].map(name);
  const innerDomain = translateExpr(plan.inner.in, scope, unit);
  const item = scope.bind(plan.inner.name, plan.inner.start);
  const keys = translateExpr(plan.build, item.scope, unit);
  const entry = (key: string): string => `${MAP}entry(${key}, ${pos})`;
  const each = (body: string): string =>
    `for ${pos} in 1 to ${F}count(${seq}) return let ${item.variable.ref} := ${seq}[${pos}] return for ${k} in ${F}data(${keys}) return ${body}`;
  // the map holds positions by key; the kinds of the keys seen go to a second variable (as
  // map entries, a flag repeated for every item would make map:merge combine long sequences)
  const build =
    `${MAP}merge(${each(
      `if (${k} instance of ${XS}untypedAtomic) then (${entry(`"s" || ${k}`)}, ` +
        `if (${k} castable as ${XS}double) then (let ${d} := ${XS}double(${k}) return if (${d} ne ${d}) then () else ${entry(`"u" || ${numberKey(d)}`)}) else ()) ` +
        `else if ${isString(k)} then ${entry(`"s" || ${k}`)} ` +
        `else if ${isNumber(k)} then (let ${d} := ${XS}double(${k}) return if (${d} ne ${d}) then () else ${entry(`"n" || ${numberKey(d)}`)}) ` +
        `else ()`,
    )}, map{"duplicates": "combine"})`;
  const kinds =
    `${F}distinct-values(${each(
      `if (${k} instance of ${XS}untypedAtomic) then (if (${k} castable as ${XS}double) then "untyped" else "badu") ` +
        `else if ${isString(k)} then "str" else if ${isNumber(k)} then "num" else "other"`,
    )})`;
  let joins = registry.get(scope.ctx);
  if (!joins) registry.set(scope.ctx, (joins = new Map()));
  joins.set(plan.inner, { plan, state: { seq, map, kinds: kindsVar } });
  return `${seq} := ${innerDomain}, ${map} := ${build}, ${kindsVar} := ${kinds}`;
}

/** The inner binding over the candidates: the items of B whose keys match L's, in B's order. */
export function joinInnerBinding(plan: JoinPlan, state: JoinState, scope: Scope, unit: TranslationUnit): { text: string; scope: Scope } {
  const id = scope.ctx.nextId();
  const name = (n: string): string => `$Q{${NS.vars}}join-${n}.${id}`;
  const [l, d, c, p] = ['probe', 'double', 'candidates', 'pos'].map(name);
  const { seq, map, kinds } = state;
  const has = (f: string): string => `(${kinds} = "${f}")`;
  const all = '-1';
  const probe = translateExpr(plan.probe, scope, unit);
  const numeric = (x: string, kinds: string[]): string =>
    `(let ${d} := ${XS}double(${x}) return if (${d} ne ${d}) then () else (${kinds.map((kind) => `${map}("${kind}" || ${numberKey(d)})`).join(', ')}))`;
  const candidates =
    `for ${l} in ${F}data(${probe}) return ` +
    `if (${l} instance of ${XS}untypedAtomic) then (${map}("s" || ${l}), ` +
    `if (${l} castable as ${XS}double) then ${numeric(l, ['n'])} else if (${has('num')}) then ${all} else ()) ` +
    `else if ${isString(l)} then (if (${has('num')}) then ${all} else ${map}("s" || ${l})) ` +
    `else if ${isNumber(l)} then (if (${has('str')} or ${has('badu')}) then ${all} else ${numeric(l, ['n', 'u'])}) ` +
    `else ${all}`;
  const domain =
    `(let ${c} := (${candidates}) return if (${has('other')} or ${c} = ${all}) then ${seq} ` +
    `else for ${p} in ${F}sort(${F}distinct-values(${c})) return ${seq}[${p}])`;
  const bound: { scope: Scope; variable: Variable } = scope.bind(plan.inner.name, plan.inner.start);
  return { text: `for ${bound.variable.ref} in ${domain} return `, scope: bound.scope };
}
