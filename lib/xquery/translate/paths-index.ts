/**
 * `E//name` through the worker's element-name index (documents/name-index.ts).
 *
 * The parser expands every `//` into an abbreviated `descendant-or-self::node()` step. When that
 * step is followed by a `child::` step whose node test is a concrete element name (no wildcard,
 * no kind test), the two steps select exactly the descendant elements of that name of each
 * context node, which `Q{urn:xmldb-rest:engine}descendants(., "Q{uri}local")` answers (from an
 * index when the context node is a document node). A predicate on the child step is evaluated
 * per parent (`//b[1]` is every first b child, not the first b), so predicates are allowed only
 * when they cannot see the difference (`positionFree`): they then filter the call's result.
 * With another node test (`//text()`, `//p:*[…]`) and such predicates, the pair is one
 * `descendant::` step (`descendantStep`), which saxon-js walks without sorting per parent; with
 * `*` (`//*[…]`) it is a call answering every descendant element, from a list kept per
 * document when the context node is a document node (`anyElementPredicates`).
 *
 * Order and duplicates: the call answers each context node's descendants in document order
 * without duplicates. It stands as a step of the path (`E/descendants(., n)`), so when E
 * yields several nodes the `/` operator sorts and deduplicates as the axis steps did; when the
 * pair starts a path at the root it is called on the root directly (one node: nothing to sort).
 */
import { childNodes, type AxisStep, type Expr, type GeneralComp, type Node } from '../syntax';
import { NS, eqname, xpathString } from './names';
import type { Scope } from './scope';
import { braced } from './emit';

/** The index's function in the generated XPath. */
const DESCENDANTS = `${braced(NS.engine)}descendants`;
/** The element list's function (documents/name-index.ts). */
const DESCENDANT_ELEMENTS = `${braced(NS.engine)}descendant-elements`;
/** The numeric-leaf filter (documents/leaf-values.ts). */
const DESCENDANTS_WHERE = `${braced(NS.engine)}descendants-where`;

/**
 * When `steps[i]` is a `//` followed by an unpredicated element-name child step at `steps[i+1]`:
 * the expanded name (`Q{uri}local`) that step selects; otherwise undefined.
 */
export function indexedName(steps: readonly Expr[], i: number, scope: Scope): string | undefined {
  const dos = steps[i];
  const child = steps[i + 1];
  if (!dos || !child || dos.kind !== 'AxisStep' || child.kind !== 'AxisStep') return undefined;
  if (!isAbbreviatedDescendantOrSelf(dos)) return undefined;
  if (child.axis !== 'child' || !positionFree(child.predicates, scope) || child.test.kind !== 'NameTest') return undefined;
  return eqname(scope.elementName(child.test.name, child.test.start));
}

/**
 * When `steps[i]` is a `//` followed by a `child::` step with another node test than a name and
 * position-free predicates: that step on the descendant axis (`//*[p]` is `descendant::*[p]`).
 */
export function descendantStep(steps: readonly Expr[], i: number, scope: Scope): AxisStep | undefined {
  const dos = steps[i];
  const child = steps[i + 1];
  if (!dos || !child || dos.kind !== 'AxisStep' || child.kind !== 'AxisStep') return undefined;
  if (!isAbbreviatedDescendantOrSelf(dos) || child.axis !== 'child' || child.test.kind === 'NameTest') return undefined;
  return positionFree(child.predicates, scope) ? { ...child, axis: 'descendant' } : undefined;
}

/**
 * When `steps[i]` is a `//` followed by `child::*` (any element in any namespace) with
 * position-free predicates: those predicates, which then filter the call of
 * `descendantElementsCall` (`//*[p]` is `descendant::*[p]`, every element of a document from its
 * kept list). Otherwise undefined.
 */
export function anyElementPredicates(steps: readonly Expr[], i: number, scope: Scope): readonly Expr[] | undefined {
  const step = descendantStep(steps, i, scope);
  if (!step) return undefined;
  const t = step.test;
  return t.kind === 'Wildcard' && t.uri === undefined && t.prefix === undefined && t.local === undefined ? step.predicates : undefined;
}

/** The descendant elements of the node `context` (an XPath expression), in document order. */
export function descendantElementsCall(context: string): string {
  return `${DESCENDANT_ELEMENTS}(${context})`;
}

/** fn functions that return one xs:boolean. */
const BOOLEAN_FUNCTIONS = new Set(['not', 'exists', 'empty', 'boolean', 'true', 'false', 'contains', 'contains-token', 'starts-with', 'ends-with', 'matches', 'deep-equal']);

/**
 * Whether predicates filter a node the same whatever the other nodes selected with it: each is
 * boolean-valued (a numeric predicate is positional) and none calls position() or last().
 */
export function positionFree(predicates: readonly Expr[], scope: Scope): boolean {
  const isFn = (e: Expr & { kind: 'FunctionCall' }): boolean => scope.functionName(e.name, e.start).uri === NS.fn;
  const isBoolean = (e: Expr): boolean => {
    while (e.kind === 'ParenthesizedExpr' && e.expr) e = e.expr;
    switch (e.kind) {
      case 'ComparisonExpr':
      case 'AndExpr':
      case 'OrExpr':
      case 'QuantifiedExpr':
      case 'InstanceofExpr':
      case 'CastableExpr':
      case 'FTContainsExpr':
        return true;
      case 'FunctionCall':
        return BOOLEAN_FUNCTIONS.has(e.name.local) && isFn(e);
      default:
        return false;
    }
  };
  const readsPosition = (n: Node): boolean =>
    (n.kind === 'FunctionCall' && (n.name.local === 'position' || n.name.local === 'last') && isFn(n)) || childNodes(n).some(readsPosition);
  return predicates.every((p) => isBoolean(p) && !readsPosition(p));
}

function isAbbreviatedDescendantOrSelf(step: AxisStep): boolean {
  return step.abbreviated && step.axis === 'descendant-or-self' && step.test.kind === 'AnyKindTest' && step.predicates.length === 0;
}

/** The descendant elements named `name` of the node `context` (an XPath expression). */
export function descendantsCall(context: string, name: string): string {
  return `${DESCENDANTS}(${context}, ${xpathString(name)})`;
}

/** A predicate `child::C op N` (or `N op child::C`): C an element name, op general, N a number literal. */
export interface ChildComparison {
  /** The child's expanded name, `Q{uri}local`. */
  readonly child: string;
  /** The operator with the child on its left. */
  readonly op: GeneralComp;
  /** The number literal. */
  readonly literal: Expr;
}

const FLIPPED: Readonly<Record<GeneralComp, GeneralComp>> = { '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const GENERAL = new Set<string>(Object.keys(FLIPPED));
const NUMBER_LITERALS = new Set(['IntegerLiteral', 'DecimalLiteral', 'DoubleLiteral']);

/**
 * When `predicate` compares a child element with a number literal by a general comparison: its
 * parts, which documents/leaf-values.ts evaluates from typed value arrays (falling back to the
 * predicate when the values are not plain numbers). Otherwise undefined.
 */
export function childComparison(predicate: Expr, scope: Scope): ChildComparison | undefined {
  if (predicate.kind !== 'ComparisonExpr' || !GENERAL.has(predicate.op)) return undefined;
  const op = predicate.op as GeneralComp;
  const left = childName(predicate.left, scope);
  if (left !== undefined && NUMBER_LITERALS.has(predicate.right.kind)) return { child: left, op, literal: predicate.right };
  const right = childName(predicate.right, scope);
  if (right !== undefined && NUMBER_LITERALS.has(predicate.left.kind)) return { child: right, op: FLIPPED[op], literal: predicate.left };
  return undefined;
}

/** The expanded name of an unpredicated `child::name` step (alone or as a one-step relative path). */
function childName(expr: Expr, scope: Scope): string | undefined {
  const step = expr.kind === 'PathExpr' && expr.root === null && expr.steps.length === 1 ? expr.steps[0] : expr;
  if (step.kind !== 'AxisStep' || step.axis !== 'child' || step.predicates.length > 0 || step.test.kind !== 'NameTest') return undefined;
  return eqname(scope.elementName(step.test.name, step.test.start));
}

/**
 * The descendant elements named `name` of `context` that pass `test`, from typed value arrays
 * when they can answer, else `fallback` (the same selection evaluated by the predicate). The
 * array function answers false() when it cannot (documents/leaf-values.ts).
 */
export function descendantsWhereCall(context: string, name: string, test: ChildComparison, literal: string, fallback: string): string {
  const r = `$${braced(NS.gen)}where`;
  const call = `${DESCENDANTS_WHERE}(${context}, ${xpathString(name)}, ${xpathString(test.child)}, ${xpathString(test.op)}, ${literal})`;
  return `(let ${r} := ${call} return if (${r} instance of ${braced(NS.xs)}boolean) then ${fallback} else ${r})`;
}
