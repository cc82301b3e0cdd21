/**
 * Where value joins are (join.ts evaluates them): the FLWOR clauses whose nested loop
 *
 *   for $a in A … for $b in B where L op R …      (R reads $b, B and L do not)
 *
 * compares every `$b` with every `$a`. The join's map over B is built once where the outer
 * binding `$a` is bound (the first for clause of a FLWOR), instead of scanning B for each `$a`:
 * - the second binding of that clause, or the next for clause, followed by the `where`;
 * - a FLWOR starting `for $b in B where L op R` anywhere in the later clauses or the return,
 *   reached through let values, for domains, returns, parentheses, sequences and fn function
 *   arguments (a join per outer item: `let $a := for $t in //closed_auction where
 *   $t/buyer/@person = $p/@id return $t`, and the one nested in its return in XMark Q9). Such a
 *   site is never inside a conditional branch, a predicate, a path step, a constructor or a
 *   function body: its focus is the outer binding's and it is not guarded by an `if` (XQuery 3.1
 *   §2.3.4: only conditional and typeswitch expressions keep their unselected branches from
 *   raising errors; an earlier evaluation of B is allowed otherwise).
 *
 * B must mean the same wherever it is evaluated: paths and fn functions without constructors,
 * reading no variable bound at or after the outer binding (the variables bound before it, such
 * as `$auction` or a `let $ca := …` in front of the for clause, are in scope there). `op` is `=`
 * (a hash join) or an order comparison (a range join); all other comparisons stay nested loops.
 * A site belongs to the outermost FLWOR that finds it, so its map is built once per query when
 * its B reads no variable of an enclosing loop.
 */
import { childNodes, type Expr, type FLWORClause, type FLWORExpr, type ForBinding, type Node, type WhereClause } from '../../syntax';
import { SIMPLE_CLAUSES } from './advanced';
import { NS } from '../names';
import type { Scope, StaticContext } from '../scope';

/** A general comparison, read as `probe op build`. */
export type JoinOp = '=' | '<' | '<=' | '>' | '>=';

export interface JoinPlan {
  readonly outer: ForBinding;
  readonly inner: ForBinding;
  /** The side of the comparison read from the inner variable (keys of the map). */
  readonly build: Expr;
  /** The other side (looked up for each outer item). */
  readonly probe: Expr;
  readonly op: JoinOp;
  /** The `where` clause comparing them (it stays, after the inner binding). */
  readonly where: WhereClause;
}

/** Node kinds allowed in the inner domain B: deterministic, no new nodes, no binders. */
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
  'VarRef',
]);

/** Node kinds allowed in a range join's build side besides DOMAIN_KINDS: arithmetic on literals. */
const KEY_KINDS = new Set([...DOMAIN_KINDS, 'AdditiveExpr', 'MultiplicativeExpr', 'UnaryExpr', 'DecimalLiteral', 'DoubleLiteral']);

/** Namespaces of the functions allowed in B and in keys: fn functions and casts (constructor functions). */
const PURE_FUNCTIONS: ReadonlySet<string> = new Set([NS.fn, NS.xs]);

/** Binding nodes and the properties naming the variables they bind. */
const BINDERS: Readonly<Record<string, readonly string[]>> = {
  ForBinding: ['name', 'positionalVar'],
  LetBinding: ['name'],
  WindowClause: ['name'],
  WindowCondition: ['current', 'positional', 'previous', 'next'],
  GroupingSpec: ['name'],
  CountClause: ['name'],
  QuantifiedBinding: ['name'],
  Param: ['name'],
  TypeswitchCaseClause: ['variable'],
};

/** The FLWOR that found each site (by its inner binding), per translation. */
const owners = new WeakMap<StaticContext, Map<ForBinding, FLWORExpr>>();

/** The joins whose maps the first for binding of `expr` builds. */
export function findJoins(expr: FLWORExpr, scope: Scope): JoinPlan[] {
  if (scope.ctx.defaultCollation !== null && scope.ctx.defaultCollation !== `${NS.fn}/collation/codepoint`) return [];
  const i = expr.clauses.findIndex((c) => c.kind === 'ForClause');
  const first = expr.clauses[i];
  if (first?.kind !== 'ForClause' || !plain(first.bindings[0]) || first.bindings.length > 2) return [];
  const outer = first.bindings[0];
  const later = [...expr.clauses.slice(i), expr.return];
  const bound = boundNames(later);
  const join = (inner: ForBinding, where: FLWORClause | undefined): JoinPlan[] => joinOn(outer, inner, where, scope, bound);
  let plans: JoinPlan[];
  if (first.bindings.length === 2) plans = join(first.bindings[1], expr.clauses[i + 1]);
  else {
    const next = expr.clauses[i + 1];
    if (next?.kind === 'ForClause' && next.bindings.length === 1) plans = join(next.bindings[0], expr.clauses[i + 2]);
    else plans = nestedSites(later.slice(1), scope).flatMap((site) => join((site.clauses[0] as Extract<FLWORClause, { kind: 'ForClause' }>).bindings[0], site.clauses[1]));
  }
  let claimed = owners.get(scope.ctx);
  if (!claimed) owners.set(scope.ctx, (claimed = new Map()));
  const mine = plans.filter((p) => (claimed.get(p.inner) ?? expr) === expr);
  for (const p of mine) claimed.set(p.inner, expr);
  return mine;
}

/** The FLWORs starting `for $b in B where …` below `nodes`, through expressions that keep the focus and are no conditional. */
function nestedSites(nodes: readonly Node[], scope: Scope): FLWORExpr[] {
  const out: FLWORExpr[] = [];
  const visit = (n: Node): void => {
    switch (n.kind) {
      case 'FLWORExpr': {
        const [f0, f1] = n.clauses;
        if (n.clauses.every((c) => SIMPLE_CLAUSES.has(c.kind)) && f0.kind === 'ForClause' && f0.bindings.length === 1 && f1?.kind === 'WhereClause') out.push(n);
        n.clauses.forEach(visit);
        visit(n.return);
        return;
      }
      case 'ForClause':
        for (const b of n.bindings) visit(b.in);
        return;
      case 'LetClause':
        for (const b of n.bindings) visit(b.value);
        return;
      case 'ParenthesizedExpr':
        if (n.expr) visit(n.expr);
        return;
      case 'SequenceExpr':
        n.items.forEach(visit);
        return;
      case 'FunctionCall':
        if (scope.functionName(n.name, n.start).uri === NS.fn) for (const a of n.args) if (a.kind !== 'ArgumentPlaceholder') visit(a);
        return;
      default:
        return;
    }
  };
  nodes.forEach(visit);
  return out;
}

function joinOn(outer: ForBinding, inner: ForBinding, where: FLWORClause | undefined, scope: Scope, bound: ReadonlySet<string>): JoinPlan[] {
  if (where?.kind !== 'WhereClause' || !plain(inner)) return [];
  let test = where.test;
  while (test.kind === 'ParenthesizedExpr' && test.expr) test = test.expr;
  if (test.kind !== 'ComparisonExpr' || !['=', '<', '<=', '>', '>='].includes(test.op)) return [];
  if (!invariant(inner.in, scope, bound)) return [];
  const v = scope.variableName(inner.name, inner.start);
  const isV = (n: Node): boolean => {
    if (n.kind !== 'VarRef') return false;
    const q = scope.variableName(n.name, n.start);
    return q.uri === v.uri && q.local === v.local;
  };
  const readsV = (n: Node): boolean => isV(n) || descendants(n).some(isV);
  const flipped: Record<string, JoinOp> = { '=': '=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
  for (const [build, probe, op] of [
    [test.right, test.left, test.op as JoinOp],
    [test.left, test.right, flipped[test.op]],
  ] as const) {
    if (readsV(probe)) continue;
    if (op === '=' ? keyPath(build, isV) : rangeKey(build, readsV, scope, bound, v.local)) return [{ outer, inner, build, probe, op, where }];
  }
  return [];
}

function plain(b: ForBinding | undefined): b is ForBinding {
  return b !== undefined && !b.type && !b.positionalVar && !b.allowingEmpty;
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

/** Local names of the variables bound in `nodes` (compared by local name: a superset is safe). */
function boundNames(nodes: readonly Node[]): Set<string> {
  const names = new Set<string>();
  for (const n of nodes.flatMap((x) => [x, ...descendants(x)])) {
    for (const prop of BINDERS[n.kind] ?? []) {
      const name = (n as unknown as Record<string, { local?: unknown } | null>)[prop];
      if (name && typeof name.local === 'string') names.add(name.local);
    }
  }
  return names;
}

/** Made of `kinds` only, with fn functions and casts, and no variable of `bound` but `allowed`. */
function pure(e: Expr, scope: Scope, kinds: ReadonlySet<string>, bound: ReadonlySet<string>, allowed?: string): boolean {
  return [e, ...descendants(e)].every((n) => {
    if (!kinds.has(n.kind) && !n.kind.endsWith('Test')) return false; // node tests (`node()`, `element(e)`) are no expressions
    if (n.kind === 'VarRef') return n.name.local === allowed || !bound.has(n.name.local);
    return n.kind !== 'FunctionCall' || PURE_FUNCTIONS.has(scope.functionName(n.name, n.start).uri);
  });
}

/** B: nodes from paths and fn functions, or a variable, reading no variable bound at or after the outer binding. */
function invariant(e: Expr, scope: Scope, bound: ReadonlySet<string>): boolean {
  const last = e.kind === 'PathExpr' ? e.steps[e.steps.length - 1] : e;
  if (last?.kind !== 'AxisStep' && last?.kind !== 'VarRef') return false;
  return pure(e, scope, DOMAIN_KINDS, bound);
}

/** `$b`, or `$b/step/…/step` of axis steps without predicates. */
function keyPath(e: Expr, isV: (n: Node) => boolean): boolean {
  if (isV(e)) return true;
  if (e.kind !== 'PathExpr' || e.root !== null || e.steps.length < 2 || !isV(e.steps[0])) return false;
  return e.steps.slice(1).every((s) => s.kind === 'AxisStep' && s.predicates.length === 0 && (s.test.kind === 'NameTest' || s.test.kind === 'Wildcard'));
}

/** A range join's key: reads `$b`, made of paths, fn functions and arithmetic, no other variable of the loop. */
function rangeKey(e: Expr, readsV: (n: Node) => boolean, scope: Scope, bound: ReadonlySet<string>, v: string): boolean {
  return readsV(e) && pure(e, scope, KEY_KINDS, bound, v);
}
