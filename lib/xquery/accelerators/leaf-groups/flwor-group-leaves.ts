/**
 * `for $v in P (let … | where …)* group by $k := $v/leaf, …`: the grouping keys read from the
 * per-document leaf columns of the elements `$v` takes (accelerators/leaf-groups/leaf-groups.ts,
 * `engine:group-leaves`), the tuples grouped by their nodes alone, without building a tuple per
 * node. group.ts emits the call next to the plain grouping, which stays the answer
 * whenever the function cannot give one.
 *
 * The shape (checked here; anything else is grouped as written):
 * - the FLWOR begins with a for clause of one binding, without type, `at` or `allowing empty`
 *   (those see items the grouping does not), over a path whose last step is an axis step with an
 *   element name test (so every item is an element, else the function declines);
 * - only let and where clauses follow it up to the group by, and no let binds `$v` again: then
 *   each tuple is one `$v`, and dropping or keeping it is all the where clauses do;
 * - each grouping spec, without type, of a name no other spec has, reads a leaf of `$v`
 *   (`leafSteps`): its expression is such a path or `data()` of one (the spec atomizes its value
 *   anyway), or (no expression) it names `$v` itself or one of those lets whose value, without
 *   type, is such a path;
 * - every let variable whose name is not a grouping variable's (which shadows it) and is
 *   referenced after the group by clause is bound, without type, to a leaf path of `$v`, and `$v`
 *   is no grouping variable then (`lets`): the function concatenates the nodes of that path over
 *   each group's nodes, as the plain grouping concatenates the let's values over its tuples.
 *   The values of the other lets are never read after the clause.
 *
 * Which tuples there are is decided by `nodes`: the for clause and the let and where clauses
 * after it, returning `$v`, without the lets that no where clause (nor a let it reads) reads and
 * that have no type: their values are needed neither for the tuples nor after the clause.
 * (Evaluating such a let's value nowhere, where the plain path evaluates it for each tuple, is
 * what XQuery 3.1 §2.3.4 allows for values not needed; filter.ts leaves out such lets too.)
 * As a FLWOR of for, let and where clauses it is translated as one, so a where clause comparing a
 * leaf with a number becomes a predicate of the for clause's path (filter.ts).
 * A leaf path is `$v` followed by child element name steps and optionally a last attribute name
 * step or `text()`, at least one step in all: its atomized value is the string values of the
 * leaves, as accelerators/leaf-columns/leaf-columns.ts reads them. A child step has no predicate,
 * or one that selects by position alone: an integer literal from 1 or `last()` (`bidder[1]`,
 * `bidder[last()]`: XPath 3.1 §3.3.2, the predicate counts the step's nodes below each parent).
 * Such a predicate's literal is never made a parameter (translate/literals.ts), so the position
 * is part of the translation's text.
 */
import type { Expr, FLWORClause, FLWORExpr, ForBinding, ForClause, GroupByClause, LetBinding, Node, VarRef } from '../../language/syntax';
import { LAST, type LeafStep } from '../leaf-columns/leaf-columns';
import { eqname } from '../../language/translate/emit';
import { fnCall } from '../../language/translate/fn-call';
import { expanded, refersTo } from '../../language/translate/flwor/filter';
import type { Scope } from '../../language/translate/scope';

/** A group by clause that groups by leaves of the elements of a for variable. */
export interface LeafGroupPlan {
  readonly clause: GroupByClause;
  /** The for binding whose values are grouped. */
  readonly binding: ForBinding;
  /** Per grouping spec, the steps of its leaf path below `$v` ([`self`] for `$v` itself). */
  readonly keys: readonly (readonly LeafStep[])[];
  /** The values of `$v`, one per tuple: the for clause's expression, or a FLWOR returning `$v` (see above). */
  readonly nodes: Expr;
  /** The lets whose values are read after the clause, and the steps of their leaf paths below `$v`. */
  readonly lets: readonly { readonly binding: LetBinding; readonly steps: readonly LeafStep[] }[];
}

/** The plan of the first group by clause of `expr`, when it has the shape above. */
export function leafGroupPlan(expr: FLWORExpr, scope: Scope): LeafGroupPlan | undefined {
  const [first] = expr.clauses;
  const g = expr.clauses.findIndex((c) => c.kind === 'GroupByClause');
  if (g < 0 || first.kind !== 'ForClause' || first.bindings.length !== 1) return undefined;
  const clause = expr.clauses[g] as GroupByClause;
  const binding = first.bindings[0];
  if (binding.type !== null || binding.positionalVar !== null || binding.allowingEmpty || !elementPath(binding.in)) return undefined;
  const forVar = expanded(binding.name, binding.start, scope);
  if (forVar === undefined) return undefined;
  // the lets up to the group by: name → its latest binding and leaf path below $v (null: another value)
  const lets = new Map<string, { binding: LetBinding; leaf: LeafStep[] | null }>();
  for (const c of expr.clauses.slice(1, g)) {
    if (c.kind === 'WhereClause') continue;
    if (c.kind !== 'LetClause') return undefined;
    for (const b of c.bindings) {
      const name = expanded(b.name, b.start, scope);
      if (name === undefined || name === forVar) return undefined;
      lets.delete(name); // keeps the map in binding order
      lets.set(name, { binding: b, leaf: b.type === null ? leafSteps(b.value, forVar, scope) ?? null : null });
    }
  }
  const names = new Set<string>();
  const keys: LeafStep[][] = [];
  for (const spec of clause.specs) {
    const name = expanded(spec.name, spec.start, scope);
    if (name === undefined || names.has(name) || spec.type !== null) return undefined;
    names.add(name);
    let key: LeafStep[] | null | undefined;
    if (spec.value) key = name === forVar ? undefined : leafSteps(withoutData(spec.value, scope), forVar, scope);
    else if (name === forVar) key = [{ kind: 'self', leaf: '' }];
    else key = lets.get(name)?.leaf;
    if (!key) return undefined;
    keys.push(key);
  }
  const after: Node[] = [...expr.clauses.slice(g + 1), expr.return];
  const read: { binding: LetBinding; steps: LeafStep[] }[] = [];
  for (const [name, { binding: b, leaf }] of lets) {
    if (names.has(name) || !after.some((node) => refersTo(node, name, scope))) continue;
    if (!leaf || names.has(forVar)) return undefined;
    read.push({ binding: b, steps: leaf });
  }
  return { clause, binding, keys, nodes: tupleNodes(expr, g, scope), lets: read };
}

/** The values of the for variable, one per tuple before the group by clause at `g` (see the file comment). */
function tupleNodes(expr: FLWORExpr, g: number, scope: Scope): Expr {
  const [first] = expr.clauses as [ForClause];
  const binding = first.bindings[0];
  if (g === 1) return binding.in;
  // from the group by back: the where clauses, and the lets they read or that check a type
  const uses: Expr[] = [];
  const kept: FLWORClause[] = [];
  for (const c of expr.clauses.slice(1, g).reverse()) {
    if (c.kind === 'WhereClause') {
      uses.push(c.test);
      kept.unshift(c);
    } else if (c.kind === 'LetClause') {
      const bindings: LetBinding[] = [];
      for (const b of [...c.bindings].reverse()) {
        const name = expanded(b.name, b.start, scope);
        if (b.type === null && name !== undefined && !uses.some((u) => refersTo(u, name, scope))) continue;
        uses.push(b.value);
        bindings.unshift(b);
      }
      if (bindings.length > 0) kept.unshift({ ...c, bindings });
    }
  }
  const v: VarRef = { kind: 'VarRef', name: binding.name, start: binding.start, end: binding.end };
  return { ...expr, clauses: [first, ...kept], return: v };
}

/** The argument of `fn:data(E)`, else `expr`. */
function withoutData(expr: Expr, scope: Scope): Expr {
  const call = fnCall(expr, scope);
  return call?.local === 'data' && call.args.length === 1 ? call.args[0] : expr;
}

/** Whether a path's last step is an axis step selecting elements by name. */
export function elementPath(expr: Expr): boolean {
  if (expr.kind !== 'PathExpr' || expr.steps.length === 0) return false;
  const last = expr.steps[expr.steps.length - 1];
  return last.kind === 'AxisStep' && last.test.kind === 'NameTest' && ['child', 'descendant', 'descendant-or-self', 'self'].includes(last.axis);
}

/**
 * The position a step's predicate selects when it is a positional one the leaf columns take: an
 * integer literal from 1 (`bidder[1]`), or `last()` (LAST); undefined for any other predicate.
 */
function position(predicate: Expr, scope: Scope): number | undefined {
  let p = predicate;
  while (p.kind === 'ParenthesizedExpr' && p.expr) p = p.expr;
  if (p.kind === 'IntegerLiteral') return /^0*[1-9][0-9]{0,8}$/.test(p.value) ? Number(p.value) : undefined;
  const call = fnCall(p, scope);
  return call?.local === 'last' && call.args.length === 0 ? LAST : undefined;
}

/** The steps below `$v` of a leaf path (see the file comment), when `expr` is one from the variable `forVar`. */
export function leafSteps(expr: Expr, forVar: string, scope: Scope): LeafStep[] | undefined {
  if (expr.kind !== 'PathExpr' || expr.root !== null || expr.steps.length < 2) return undefined;
  const [base, ...rest] = expr.steps;
  if (base.kind !== 'VarRef' || expanded(base.name, base.start, scope) !== forVar) return undefined;
  const steps: LeafStep[] = [];
  for (let i = 0; i < rest.length; i++) {
    const step = rest[i];
    if (step.kind !== 'AxisStep' || step.predicates.length > 1) return undefined;
    const last = i === rest.length - 1;
    const { axis, test } = step;
    const nth = step.predicates.length === 1 ? position(step.predicates[0], scope) : undefined;
    if (step.predicates.length === 1 && (nth === undefined || axis !== 'child' || test.kind !== 'NameTest')) return undefined;
    let leaf: LeafStep | undefined;
    try {
      if (axis === 'child' && test.kind === 'NameTest') leaf = { kind: 'child', leaf: eqname(scope.elementName(test.name, test.start)), ...(nth === undefined ? {} : { nth }) };
      else if (last && axis === 'attribute' && test.kind === 'NameTest') leaf = { kind: 'attribute', leaf: eqname(scope.attributeName(test.name, test.start)) };
      else if (last && axis === 'child' && test.kind === 'TextTest') leaf = { kind: 'text', leaf: '' };
    } catch {
      return undefined; // a name the translation refuses: left to it
    }
    if (!leaf) return undefined;
    steps.push(leaf);
  }
  return steps;
}
