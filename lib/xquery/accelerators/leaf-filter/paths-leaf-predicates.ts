/**
 * `E//name[P]…` where the leading predicates compare leaves of each element with values that do
 * not depend on the element: answered by a scan of per-document leaf columns
 * (accelerators/leaf-columns/leaf-values.ts `leaf-filter`) instead of evaluating the predicates per element.
 *
 * A predicate qualifies when it is a conjunction (`and`, or consecutive predicates: the step's
 * predicates are position-free, paths-index.ts, so `[A][B]` selects what `[A and B]` does) of
 * comparisons `leaf op V` or `V op leaf`, where
 *
 * - leaf is a child element name (`price`), an attribute (`@id`), `text()` or `.`, unpredicated;
 * - op is a general (`=`, `!=`, `<`, …) or value (`eq`, `ne`, `lt`, …) comparison;
 * - V cannot see the focus and is deterministic (`comparand`): literals, variable references,
 *   paths from a variable, arithmetic, concatenation, casts and a few pure fn/xs functions of
 *   those. Its value is the same for every element, so it is evaluated once, before the scan,
 *   atomized (as the comparison atomizes it).
 *
 * The scan answers false() whenever the comparison's rules on untyped values (XPath 3.1 §3.7.1,
 * §3.7.2) would do something it does not model (a cast that may fail, a type error, a collation:
 * see accelerators/leaf-filter/leaf-filter.ts); the predicates as written are then evaluated, so answers and
 * errors stay saxon-js's. Below another node than a document node (no columns) the predicates
 * are evaluated as written directly, and a document without such elements answers the empty
 * sequence without evaluating V, as the predicates would.
 */
import type { Expr, GeneralComp, Node, ValueComp } from '../../language/syntax';
import { translateExpr } from '../../language/translate/expressions';
import { NS, eqname, xpathString } from '../../language/translate/names';
import type { Scope } from '../../language/translate/scope';
import type { TranslationUnit } from '../../language/translate/unit';
import { braced } from '../../language/translate/emit';

const ENGINE = braced(NS.engine);

/** What a comparison reads of each element. */
export type LeafKind = 'child' | 'attribute' | 'text' | 'self';

/** One comparison of a leaf with a focus-free value. */
export interface LeafComparison {
  readonly kind: LeafKind;
  /** The child's or attribute's expanded name (`Q{uri}local`); '' for text() and `.`. */
  readonly leaf: string;
  /** The operator with the leaf on its left. */
  readonly op: GeneralComp | ValueComp;
  readonly value: Expr;
}

const FLIPPED: Readonly<Record<string, GeneralComp | ValueComp>> = {
  '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=',
  eq: 'eq', ne: 'ne', lt: 'gt', le: 'ge', gt: 'lt', ge: 'le',
};

/**
 * fn functions of one or more arguments that read neither the focus nor anything that changes
 * within a query, and give the same result for the same arguments.
 */
const PURE_FUNCTIONS = new Set([
  'string', 'number', 'data', 'concat', 'string-join', 'upper-case', 'lower-case', 'normalize-space', 'substring',
  'substring-before', 'substring-after', 'translate', 'abs', 'round', 'floor', 'ceiling', 'round-half-to-even', 'string-length',
]);

/** Whether `expr` is a comparand (see the file comment). */
function comparand(expr: Node, scope: Scope): boolean {
  switch (expr.kind) {
    case 'StringLiteral':
    case 'IntegerLiteral':
    case 'DecimalLiteral':
    case 'DoubleLiteral':
    case 'VarRef':
      return true;
    case 'ParenthesizedExpr':
      return expr.expr === null || comparand(expr.expr, scope);
    case 'SequenceExpr':
      return expr.items.every((e) => comparand(e, scope));
    case 'AdditiveExpr':
    case 'MultiplicativeExpr':
    case 'StringConcatExpr':
      return comparand(expr.left, scope) && comparand(expr.right, scope);
    case 'UnaryExpr':
      return comparand(expr.operand, scope);
    case 'CastExpr':
      return comparand(expr.expr, scope);
    case 'PathExpr':
      // `$v/a/@b`: the later steps have the first step's nodes as their focus (axis steps only:
      // another step, or a predicate, might call a function that answers otherwise each time)
      return (
        expr.root === null &&
        expr.steps[0]?.kind === 'VarRef' &&
        expr.steps.slice(1).every((step) => step.kind === 'AxisStep' && step.predicates.length === 0)
      );
    case 'FunctionCall': {
      if (expr.args.length === 0 || expr.args.some((a) => a.kind === 'ArgumentPlaceholder' || !comparand(a, scope))) return false;
      const name = scope.functionName(expr.name, expr.start);
      return (name.uri === NS.fn && PURE_FUNCTIONS.has(name.local)) || (name.uri === NS.xs && expr.args.length === 1);
    }
    default:
      return false;
  }
}

/** One unpredicated step `expr` (alone or as a one-step relative path). */
function singleStep(expr: Expr): Expr {
  return expr.kind === 'PathExpr' && expr.root === null && expr.steps.length === 1 ? expr.steps[0] : expr;
}

/** The leaf a side of a comparison reads, if it is one. */
function leafOf(expr: Expr, scope: Scope): Pick<LeafComparison, 'kind' | 'leaf'> | undefined {
  const step = singleStep(expr);
  if (step.kind === 'ContextItemExpr') return { kind: 'self', leaf: '' };
  if (step.kind !== 'AxisStep' || step.predicates.length > 0) return undefined;
  if (step.axis === 'child' && step.test.kind === 'TextTest') return { kind: 'text', leaf: '' };
  if (step.test.kind !== 'NameTest') return undefined;
  if (step.axis === 'child') return { kind: 'child', leaf: eqname(scope.elementName(step.test.name, step.test.start)) };
  if (step.axis === 'attribute') return { kind: 'attribute', leaf: eqname(scope.attributeName(step.test.name, step.test.start)) };
  return undefined;
}

function unparenthesized(expr: Expr): Expr {
  while (expr.kind === 'ParenthesizedExpr' && expr.expr) expr = expr.expr;
  return expr;
}

/** The comparisons of a predicate that is a conjunction of leaf comparisons; undefined otherwise. */
export function leafComparisons(predicate: Expr, scope: Scope): LeafComparison[] | undefined {
  const e = unparenthesized(predicate);
  if (e.kind === 'AndExpr') {
    const left = leafComparisons(e.left, scope);
    const right = left && leafComparisons(e.right, scope);
    return right && [...left!, ...right];
  }
  if (e.kind !== 'ComparisonExpr' || !(e.op in FLIPPED)) return undefined;
  const left = comparand(e.right, scope) ? leafOf(e.left, scope) : undefined;
  if (left) return [{ ...left, op: e.op as GeneralComp | ValueComp, value: e.right }];
  const right = comparand(e.left, scope) ? leafOf(e.right, scope) : undefined;
  return right && [{ ...right, op: FLIPPED[e.op], value: e.left }];
}

/** Each predicate of a step's comparisons: a conjunction of leaf comparisons, or undefined. */
export type PredicateComparisons = readonly (readonly LeafComparison[] | undefined)[];

/**
 * The comparisons of each of a step's predicates that is a conjunction of leaf comparisons (none
 * of kind `except`, when given); undefined for the others.
 */
export function predicateComparisons(predicates: readonly Expr[], scope: Scope, except?: LeafKind): PredicateComparisons {
  return predicates.map((p) => {
    const found = leafComparisons(p, scope);
    return found && !found.some((t) => t.kind === except) ? found : undefined;
  });
}

/** The leading predicates that compare leaves (of `predicateComparisons`): how many, and their comparisons together. */
export function leadingComparisons(each: PredicateComparisons): { count: number; tests: LeafComparison[] } {
  let count = 0;
  while (count < each.length && each[count] !== undefined) count++;
  return { count, tests: each.slice(0, count).flatMap((tests) => tests ?? []) };
}

/**
 * The predicates that compare leaves (of `predicateComparisons`), wherever they stand: their
 * positions, and their comparisons together. The step's predicates are position-free
 * (paths-index.ts), so the elements that pass all of them are those that pass these and then the
 * others: `leafFilterCall` answers these first when it can answer exactly, and evaluates the
 * predicates as written when it cannot.
 */
export function comparingPredicates(each: PredicateComparisons): { positions: number[]; tests: LeafComparison[] } {
  const positions = each.flatMap((tests, i) => (tests === undefined ? [] : [i]));
  return { positions, tests: positions.flatMap((i) => each[i] ?? []) };
}

/**
 * The elements named `name` below the node `context` (an XPath expression: the context item of
 * the step) that pass `tests`, and then the predicates `after`: `candidates` is the call that
 * selects all of them, `predicates` the predicates as written (`[…][…]`) that `tests` and
 * `after` stand for, evaluated when the columns cannot answer (see the file comment).
 */
export function leafFilterCall(context: string, name: string, candidates: string, tests: readonly LeafComparison[], predicates: string, native: Scope, unit: TranslationUnit, after = ''): string {
  const gen = braced(NS.gen);
  const v = (i: number): string => `$${gen}leaf-value${i}`;
  const c = `$${gen}candidates`;
  const r = `$${gen}leaf-filter`;
  const bindings = tests.map((t, i) => `${v(i)} := ${braced(NS.fn)}data(${translateExpr(t.value, native, unit)})`).join(', ');
  const specs = tests.map((t) => xpathString(`${t.kind} ${t.leaf} ${t.op}`)).join(', ');
  const values = tests.map((_, i) => v(i)).join(', ');
  const counts = tests.map((_, i) => `${braced(NS.fn)}count(${v(i)})`).join(', ');
  const call = `${ENGINE}leaf-filter(${context}, ${xpathString(name)}, (${specs}), (${values}), (${counts}))`;
  const scan = `let ${bindings} return let ${r} := ${call} return if (${r} instance of ${braced(NS.xs)}boolean) then ${c}${predicates} else ${after ? `${r}${after}` : r}`;
  return (
    `(if (${braced(NS.fn)}not(${context} instance of document-node())) then ${candidates}${predicates} ` +
    `else let ${c} := ${candidates} return if (${braced(NS.fn)}empty(${c})) then () else (${scan}))`
  );
}
