/**
 * `E//name` through the worker's element-name index (accelerators/name-index/name-index.ts).
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
 * document when the context node is a document node (`anyElementPredicates`); with `text()` one
 * answering every descendant text node alike (`descendantTextsCall`).
 *
 * Order and duplicates: the call answers each context node's descendants in document order
 * without duplicates. It stands as a step of the path (`E/descendants(., n)`), so when E
 * yields several nodes the `/` operator sorts and deduplicates as the axis steps did; when the
 * pair starts a path at the root it is called on the root directly (one node: nothing to sort).
 */
import { childNodes, isGeneralComparison, type AxisStep, type EQName, type Expr, type GeneralComp, type NameTest, type Node, type NodeTest } from '../../language/syntax';
import { callsFunctionItems } from '../../language/analysis/function-item-calls';
import { NS, eqname, xpathString } from '../../language/translate/names';
import { leafComparisons } from '../leaf-filter/paths-leaf-predicates';
import type { Scope } from '../../language/translate/scope';
import { braced } from '../../language/translate/emit';

/** The index's function in the generated XPath. */
const DESCENDANTS = `${braced(NS.engine)}descendants`;
/** The children of indexed elements (accelerators/name-index/name-index.ts). */
const CHILDREN_NAMED = `${braced(NS.engine)}children-named`;
/** The element list's function (accelerators/name-index/name-index.ts). */
const DESCENDANT_ELEMENTS = `${braced(NS.engine)}descendant-elements`;
/** The text list's function (accelerators/name-index/name-index.ts). */
const DESCENDANT_TEXTS = `${braced(NS.engine)}descendant-texts`;

/** When `steps[i]` is the `descendant-or-self::node()` that a `//` stands for: the axis step after it. */
function stepAfterDescendants(steps: readonly Expr[], i: number): AxisStep | undefined {
  const dos = steps[i];
  const next = steps[i + 1];
  return dos?.kind === 'AxisStep' && next?.kind === 'AxisStep' && isAbbreviatedDescendantOrSelf(dos) ? next : undefined;
}

/** When `steps[i]` is a `//` followed by a child step with an element name test (`//item[…]`): that step. */
function namedChildAfterDescendants(steps: readonly Expr[], i: number): (AxisStep & { test: NameTest }) | undefined {
  const child = stepAfterDescendants(steps, i);
  return child?.axis === 'child' && child.test.kind === 'NameTest' ? (child as AxisStep & { test: NameTest }) : undefined;
}

/**
 * When `steps[i]` is a `//` followed by an element-name child step with position-free
 * predicates at `steps[i+1]`: the expanded name (`Q{uri}local`) that step selects; otherwise undefined.
 */
export function indexedName(steps: readonly Expr[], i: number, scope: Scope): string | undefined {
  const child = namedChildAfterDescendants(steps, i);
  if (!child || !positionFree(child.predicates, scope)) return undefined;
  return eqname(scope.elementName(child.test.name, child.test.start));
}

/**
 * When `steps[i]` is a `//` followed by an element-name child step whose predicates may select
 * by position (`//item[2]`, `//b[last()]`): the expanded name. Such a step is evaluated per
 * parent, so it runs on the parents of the descendants of that name (`parentsOfNamedCall`).
 */
export function positionalName(steps: readonly Expr[], i: number, scope: Scope): string | undefined {
  const child = namedChildAfterDescendants(steps, i);
  if (!child || positionFree(child.predicates, scope)) return undefined;
  return eqname(scope.elementName(child.test.name, child.test.start));
}

/**
 * The nodes that have children named `name` below the node `context` (or it itself): the parents
 * of its descendants of that name from the index, without duplicates, in document order (the
 * `/` before `..` sorts them). `//name[P]` is `child::name[P]` of exactly these nodes, each
 * evaluated once, instead of the same step on every node of the document.
 */
export function parentsOfNamedCall(context: string, name: string): string {
  // `! .` keeps saxon-js from joining the next step to `..` (translate/paths/paths.ts `joinSteps`)
  return `(${descendantsCall(context, name)}/parent::node() ! .)`;
}

/**
 * When `steps[i]` is a `//` followed by an attribute step (`//@id[…]`, `//@*`): that step.
 * Attributes belong to elements only, so from a document node these are the attributes of its
 * descendant elements (`descendantElementsCall`), found without walking its other nodes.
 */
export function descendantAttributeStep(steps: readonly Expr[], i: number): AxisStep | undefined {
  const attribute = stepAfterDescendants(steps, i);
  return attribute?.axis === 'attribute' ? attribute : undefined;
}

/**
 * When `steps[i]` is a `//` followed by a `child::` step with another node test than a name and
 * position-free predicates: that step on the descendant axis (`//*[p]` is `descendant::*[p]`).
 */
export function descendantStep(steps: readonly Expr[], i: number, scope: Scope): AxisStep | undefined {
  const child = stepAfterDescendants(steps, i);
  if (!child || child.axis !== 'child' || child.test.kind === 'NameTest') return undefined;
  return positionFree(child.predicates, scope) ? { ...child, axis: 'descendant' } : undefined;
}

/**
 * When `steps[i]` is a `//` followed by `child::text()` with position-free predicates: those
 * predicates, which then filter the call of `descendantTextsCall` (`//text()[p]` is
 * `descendant::text()[p]`).
 */
export function textPredicates(steps: readonly Expr[], i: number, scope: Scope): readonly Expr[] | undefined {
  const step = descendantStep(steps, i, scope);
  return step?.test.kind === 'TextTest' ? step.predicates : undefined;
}

/** Whether `test` is `*`: any name in any namespace (not `p:*`, `*:l` or `Q{u}*`), on the element or attribute axis. */
export function isAnyNameTest(test: NodeTest): boolean {
  return test.kind === 'Wildcard' && test.uri === undefined && test.prefix === undefined && test.local === undefined;
}

/**
 * When `steps[i]` is a `//` followed by `child::*` (`isAnyNameTest`) with position-free
 * predicates: those predicates, which then filter the call of `descendantElementsCall` (`//*[p]`
 * is `descendant::*[p]`, every element of a document from its kept list). Otherwise undefined.
 */
export function anyElementPredicates(steps: readonly Expr[], i: number, scope: Scope): readonly Expr[] | undefined {
  const step = descendantStep(steps, i, scope);
  return step && isAnyNameTest(step.test) ? step.predicates : undefined;
}

/** The descendant elements of the node `context` (an XPath expression), in document order. */
export function descendantElementsCall(context: string): string {
  return `${DESCENDANT_ELEMENTS}(${context})`;
}

/** The descendant text nodes of the node `context` (an XPath expression), in document order. */
export function descendantTextsCall(context: string): string {
  return `${DESCENDANT_TEXTS}(${context})`;
}

/** fn functions that return one xs:boolean. */
const BOOLEAN_FUNCTIONS = new Set(['not', 'exists', 'empty', 'boolean', 'true', 'false', 'contains', 'contains-token', 'starts-with', 'ends-with', 'matches', 'deep-equal']);

/**
 * Whether predicates filter a node the same whatever the other nodes selected with it: each is
 * boolean-valued or node-valued (only a numeric predicate is positional: XQuery 3.1 §3.3.2, a
 * node sequence counts by its effective boolean value), none calls position() or last(), and none
 * runs a function item chosen at run time, which may be `position#0` (analysis/function-item-calls.ts).
 * Node-valued are a step (`@id`, `c`, `text()`), a path whose last step is one (`c/d`, `../@n`),
 * `/`, and a union, intersection or difference (whose operands are nodes, or it raises a type
 * error either way); with `nodes` false, only boolean-valued predicates count.
 */
export function positionFree(predicates: readonly Expr[], scope: Scope, nodes = true): boolean {
  const isFn = (e: Expr & { kind: 'FunctionCall' }): boolean => scope.functionName(e.name, e.start).uri === NS.fn;
  /** Boolean-valued or node-valued: never a number, which would select by position. */
  const neverNumeric = (e: Expr): boolean => {
    while (e.kind === 'ParenthesizedExpr' && e.expr) e = e.expr;
    switch (e.kind) {
      case 'AxisStep':
      case 'UnionExpr':
      case 'IntersectExceptExpr':
        return nodes;
      case 'PathExpr':
        return nodes && (e.steps.length === 0 ? e.root === '/' : e.steps[e.steps.length - 1].kind === 'AxisStep');
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
  const calls = (name: EQName, at: number): boolean => {
    const { uri, local } = scope.functionName(name, at);
    return callsFunctionItems(uri, local);
  };
  const runsFunctionItem = (n: Node): boolean => {
    switch (n.kind) {
      case 'DynamicFunctionCall':
        return true;
      case 'ArrowExpr':
        // `$x => $f()`, `$x => (…)()`, `$x => function () {…}()`: a function item; else a name
        return 'kind' in n.function || calls(n.function, n.start);
      case 'FunctionCall':
        return calls(n.name, n.start);
      default:
        return false;
    }
  };
  const readsPosition = (n: Node): boolean =>
    (n.kind === 'FunctionCall' && (n.name.local === 'position' || n.name.local === 'last') && isFn(n)) || runsFunctionItem(n) || childNodes(n).some(readsPosition);
  return predicates.every((p) => neverNumeric(p) && !readsPosition(p));
}

/** Whether `step` is the `descendant-or-self::node()` that `//` stands for. */
export function isAbbreviatedDescendantOrSelf(step: AxisStep): boolean {
  return step.abbreviated && step.axis === 'descendant-or-self' && step.test.kind === 'AnyKindTest' && step.predicates.length === 0;
}

/** The descendant elements named `name` of the node `context` (an XPath expression). */
export function descendantsCall(context: string, name: string): string {
  return `${DESCENDANTS}(${context}, ${xpathString(name)})`;
}

/**
 * `P/child::C` where P (the XPath expression `parents`) is the index call for `//name[…]` from the
 * node `context`: the children named `child` of those elements through
 * `Q{urn:xmldb-rest:engine}children-named` (accelerators/name-index/name-index.ts), which answers false() when
 * it cannot (elements of that name nest, or `context` is no document node); then the step as
 * written (`step`).
 */
export function childrenNamedCall(context: string, name: string, parents: string, child: string, step: string): string {
  const p = `$${braced(NS.gen)}parents`;
  const c = `$${braced(NS.gen)}children`;
  const call = `${CHILDREN_NAMED}(${context}, ${xpathString(name)}, ${p}, ${xpathString(child)})`;
  return `(let ${p} := ${parents}, ${c} := ${call} return if (${c} instance of ${braced(NS.xs)}boolean) then ${p}/${step} else ${c})`;
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

const NUMBER_LITERALS = new Set(['IntegerLiteral', 'DecimalLiteral', 'DoubleLiteral']);

/**
 * When `predicate` compares a child element with a number literal by a general comparison: its
 * parts (one of the leaf comparisons of paths-leaf-predicates.ts), which the stored-text
 * summaries of accelerators/leaf-summaries/leaf-summaries.ts can count. Otherwise undefined.
 */
export function childComparison(predicate: Expr, scope: Scope): ChildComparison | undefined {
  const tests = leafComparisons(predicate, scope);
  const test = tests?.length === 1 ? tests[0] : undefined;
  if (!test || test.kind !== 'child' || !isGeneralComparison(test.op) || !NUMBER_LITERALS.has(test.value.kind)) return undefined;
  return { child: test.leaf, op: test.op as GeneralComp, literal: test.value };
}
