/**
 * Path expressions, axis steps, node tests, predicates and filter expressions.
 *
 * - Steps after the first, predicates and filter predicates are evaluated with XPath's own
 *   (native) focus.
 * - A path is written for the native focus; with a focus held in parameters or a multi-document
 *   context it becomes `($item ! (child::a/…))`. A leading `/` is
 *   `(root(self::node()) treat as document-node())` — `treat` raises XPDY0050 when the root is
 *   not a document node, as XQuery requires for a leading `/`.
 * - Every name test is an EQName (`child::Q{}a`, `attribute::Q{u}b`, `Q{u}*`, `*:l`).
 * - `E//name` with an element-name step without positional predicates calls the worker's
 *   element-name index (`Q{urn:xmldb-rest:engine}descendants`) instead of the two axis steps,
 *   `E//*[p]` calls the list of descendant elements, and `E//node()[p]` and the like are one
 *   `descendant::` step: see paths-index.ts. Leading predicates that compare leaves (`price`,
 *   `@id`, `text()`, `.`) with focus-free values are answered by a scan of per-document leaf
 *   columns (paths-leaf-predicates.ts); a first predicate `text() = $v`, `@a = $v`, `. = $v` or
 *   `contains-token(@a, $v)` is answered from the value indexes where a database has them
 *   (paths-value-index.ts), and otherwise like the others. Leading predicates of `E//*[p]` that
 *   read only the element's name are evaluated once per name (paths-name-predicates.ts). These
 *   selections of a `//` step are built in descendant-selections.ts.
 * - `/a/…/name[P]` and `//a/…/name[P]` from a document node (the root or a head that may be one,
 *   `$doc//a/b[P]`) run as `//name[P]` where the data
 *   shows that the steps reach every `name` element (`covered`); `E//a/../b` is `E//b[../a]`
 *   (parent-steps.ts).
 * - `//name[P]` with a positional P runs on the parents of the index's elements, `//@a[p]` on the
 *   document's element list, `descendant::name[p]` written out as `//name[p]` does; an attribute
 *   or child step compared with a value lends that comparison to the element step before it
 *   (owner-predicates.ts); steps after `..` and other axes that reach one node from many run once
 *   per node (`joinSteps`).
 */
import type { AxisStep, Expr, FilterExpr, NodeTest, PathExpr } from '../../syntax';
import { translateExpr } from '../expressions';
import { ownerPredicate, withOwnerPredicates } from './owner-predicates';
import { withParentStepsFolded } from './parent-steps';
import { NS, eqname, localNameTest, nameTest, nameTestPredicate, nodeNameInXPath } from '../names';
import { anyElementPredicates, childrenNamedCall, descendantAttributeStep, descendantElementsCall, descendantStep, descendantTextsCall, descendantsCall, indexedName, isAnyNameTest, parentsOfNamedCall, positionalName, positionFree, textPredicates } from '../../../accelerators/name-index/paths-index';
import { translateLeafTuplePredicates } from '../flwor/leaf-tuples';
import { rangeItem, rangeOf } from '../range-expression';
import { descendantsMatchingCall, valuePredicate, type ValuePredicate } from '../../../accelerators/value-index/paths-value-index';
import { anyElements, indexed, textNodes } from './descendant-selections';
import { childPathCoversCall, childPathFrom, childPathStep, childRun, coveredStep, documentLike, parentPathCoversCall, predicatedChildRun } from '../../../accelerators/child-paths/paths-child';
import { tempVar } from '../flwor/tuples';
import type { Scope } from '../scope';
import { translateKindTest } from '../types';
import type { TranslationUnit } from '../unit';
import { braced, uriWildcard } from '../emit';

export function translatePath(expr: PathExpr | AxisStep | FilterExpr, scope: Scope, unit: TranslationUnit): string {
  switch (expr.kind) {
    case 'PathExpr':
      return pathExpr(expr, scope, unit);
    case 'AxisStep':
      return firstStep(expr, scope, unit);
    case 'FilterExpr': {
      const range = rangeOf(expr.base);
      const item = range && rangeItem(range, expr.predicate, scope, unit);
      if (item) return item;
      const base = translateExpr(expr.base, scope, unit);
      const native = scope.withFocus({ kind: 'native' });
      const written = `[${translateExpr(expr.predicate, native, unit)}]`;
      // `$items[P]`, P over leaves of each item (translate/flwor/leaf-tuples.ts)
      return translateLeafTuplePredicates(`(${base})`, [expr.predicate], [written], native, unit)?.expr ?? `(${base})${written}`;
    }
  }
}

/** The document root of the native focus (a leading `/`); XPDY0050 when it is not a document. */
const ROOT = `(${braced(NS.fn)}root(self::node()) treat as document-node())`;

function pathExpr(source: PathExpr, scope: Scope, unit: TranslationUnit): string {
  const native = scope.withFocus({ kind: 'native' });
  const written = withParentStepsFolded(source);
  const expr = withOwnerPredicates(written, native);
  const rest = (steps: Expr[]): PathPart[] => nextSteps(steps, native, unit);
  const free = (predicates: readonly Expr[]): boolean => positionFree(predicates, native);
  let path: string;
  if (expr.root === '/') {
    // `//name` from the root: the index answers it for the root itself (one node, no sorting)
    // and `//*[p]` from the root: the document's element list, filtered
    const name = indexedName(expr.steps, 0, native);
    const anyElement = name === undefined ? anyElementPredicates(expr.steps, 0, native) : undefined;
    const attribute = name === undefined && !anyElement ? descendantAttributeStep(expr.steps, 0) : undefined;
    const texts = name === undefined && !anyElement ? textPredicates(expr.steps, 0, native) : undefined;
    // `//a/…/name[P]…` as written (before owner predicates lend P to `a`): as `//name[P]` where
    // every `name` element has those parents (`covered`)
    const run = name !== undefined ? coveredStep(written.steps, 1, native, free) : undefined;
    if (name !== undefined) {
      const indexedFrom = (from: string, end: number): string => {
        const [found, used] = indexedSteps(from, name, expr.steps, 1, native, unit);
        return joinSteps(found, rest(expr.steps.slice(1 + used, end)));
      };
      path = run
        ? `(${joinSteps(covered(ROOT, run, (c) => indexedFrom(c, run.end), native, unit, parentPathCoversCall), rest(expr.steps.slice(run.end)))})`
        : `(${indexedFrom(ROOT, expr.steps.length)})`;
    } else if (anyElement) path = `(${joinSteps(anyElements(ROOT, anyElement, native, unit), rest(expr.steps.slice(2)))})`;
    else if (texts) path = `(${joinSteps(textNodes(ROOT, texts, native, unit), rest(expr.steps.slice(2)))})`;
    else if (attribute) path = `(${joinSteps(rootAttributes(attribute, native, unit), rest(expr.steps.slice(2)))})`;
    else {
      // `/a/b/name[P]…`: as `//name[P]` where the data allows (`covered`)
      const run = coveredStep(expr.steps, 0, native, free);
      const plain = (from: string): string => joinSteps(from, rest(expr.steps.slice(0, run?.end)));
      path = expr.steps.length === 0 ? ROOT : run ? `(${joinSteps(covered(ROOT, run, plain, native, unit, childPathCoversCall), rest(expr.steps.slice(run.end)))})` : `(${plain(ROOT)})`;
    }
  } else {
    const [first, ...others] = expr.steps;
    if (first.kind !== 'AxisStep') {
      const head = `(${translateExpr(first, scope, unit)})`;
      // only from a head that may be a document (`$doc/a/b[P]`, `./a/b[P]`): not in every turn of a loop over elements
      const document = documentLike(first, scope);
      const run = document ? coveredStep(others, 0, native, free) : undefined;
      if (run) return `(${joinSteps(covered(head, run, (from) => fromHead(from, others.slice(0, run.end), native, unit), native, unit, childPathCoversCall), rest(others.slice(run.end)))})`;
      // `$doc//a/…/name[P]`, as written (before owner predicates): as `$doc//name[P]` where every `name` element has those parents
      const below = document && indexedName(others, 0, native) !== undefined ? coveredStep(written.steps.slice(1), 1, native, free) : undefined;
      if (below) return `(${joinSteps(covered(head, below, (from) => fromHead(from, others.slice(0, below.end), native, unit), native, unit, parentPathCoversCall), rest(others.slice(below.end)))})`;
      return `(${fromHead(head, others, native, unit)})`;
    }
    path = `(${joinSteps(firstDescendantStep(first, native, unit) ?? axisStep(first, native, unit), rest(others))})`;
  }
  return withFocus(path, scope);
}

/** `head/steps…`, `head` a path's first expression (XPath) and `steps` the steps after it. */
function fromHead(head: string, steps: readonly Expr[], native: Scope, unit: TranslationUnit): string {
  // `$doc/a/b/…`: the head's nodes go to the run's call itself (paths-child.ts), unless the run ends in a value predicate the indexes answer
  const run = childPathMatch(steps, 0, native) ? undefined : childRun(steps, 0, native);
  if (run) return joinSteps(childPathFrom(head, run), nextSteps(steps.slice(run.length), native, unit));
  return joinSteps(head, nextSteps([...steps], native, unit));
}

/**
 * The steps `run` (paths-child.ts `coveredStep`: `a/…/name[P]`, P position-free) from `context`
 * (XPath): as `//name[P]` (`indexed`, with the indexes and leaf columns) when the context is a
 * document node where the steps reach every `name` element (`covers`: `childPathCoversCall` for
 * `a/…/name` from the document node, `parentPathCoversCall` for `//a/…/name`), else `plain(c)`,
 * the steps as written from the context bound to `c`. Which one is decided by the data, per
 * document, when the query runs; both select the same nodes in the same order where the first is taken.
 */
function covered(
  context: string,
  run: { names: string[]; step: AxisStep },
  plain: (c: string) => string,
  native: Scope,
  unit: TranslationUnit,
  covers: (c: string, names: readonly string[]) => string,
): string {
  const c = tempVar(native, 'context');
  const name = run.names[run.names.length - 1];
  // the call only for a document node: an element in a loop's turn costs no call
  return `(let ${c} := ${context} return if (${c} instance of document-node() and ${covers(c, run.names)}) then ${indexed(c, name, run.step, native, unit)} else ${plain(c)})`;
}

/**
 * A path written for the native focus, evaluated against the scope's focus. With a focus in
 * parameters or a multi-document context, `!` keeps the order of the context documents
 * (their order relative to each other is not document order in saxon-js).
 */
function withFocus(path: string, scope: Scope): string {
  switch (scope.focus.kind) {
    case 'absent':
    case 'native':
      return path;
    case 'params':
    case 'value':
      return `(${scope.focus.item} ! ${path})`;
  }
}

/** A step evaluated against the scope's focus. */
function firstStep(step: AxisStep, scope: Scope, unit: TranslationUnit): string {
  const native = scope.withFocus({ kind: 'native' });
  return withFocus(firstDescendantStep(step, native, unit) ?? axisStep(step, native, unit), scope);
}

/**
 * `descendantAxisStep` as the first step, whose focus may be an atomic value: `self::node()`
 * raises XPTY0020 for it as the axis step would (the calls would raise another error); after a
 * `/` the focus is a node.
 */
function firstDescendantStep(step: Expr, native: Scope, unit: TranslationUnit): string | undefined {
  const found = descendantAxisStep(step, native, unit, true);
  return found === undefined ? undefined : `(self::node() ! (${found}))`;
}

/**
 * `descendant::name[p]` or `descendant::*[p]` written out, from the context node: the element-name
 * index or the element list, as `//name[p]` (`indexed`) and `//*[p]` (`anyElements`) are when p is
 * position-free. Otherwise their answer filtered by p as written: from one context node, the step's
 * predicates see its descendants of that name in document order, which is what the calls answer.
 */
function descendantAxisStep(step: Expr, native: Scope, unit: TranslationUnit, first = false): string | undefined {
  if (step.kind !== 'AxisStep' || step.axis !== 'descendant') return undefined;
  const test = step.test;
  const free = positionFree(step.predicates, native);
  if (test.kind === 'TextTest' && first) return free ? textNodes('.', step.predicates, native, unit) : `${descendantTextsCall('.')}${predicates(step, native, unit)}`;
  if (test.kind !== 'NameTest' && !isAnyNameTest(test)) return undefined;
  if (test.kind !== 'NameTest') return free ? anyElements('.', step.predicates, native, unit) : `${descendantElementsCall('.')}${predicates(step, native, unit)}`;
  const name = eqname(native.elementName(test.name, test.start));
  return free ? indexed('.', name, step, native, unit) : `${descendantsCall('.', name)}${predicates(step, native, unit)}`;
}

/**
 * Steps after the first; `//name` (unpredicated) becomes one step calling the name index on each
 * context node — the `/` before it sorts and deduplicates as the axis steps did (paths-index.ts).
 */
function nextSteps(steps: Expr[], native: Scope, unit: TranslationUnit): PathPart[] {
  const out: PathPart[] = [];
  for (let i = 0; i < steps.length; i++) {
    const name = indexedName(steps, i, native);
    const anyElement = name === undefined ? anyElementPredicates(steps, i, native) : undefined;
    const positional = name === undefined && !anyElement ? positionalName(steps, i, native) : undefined;
    const descendant = name === undefined && !anyElement ? descendantStep(steps, i, native) : undefined;
    const valuePath = name === undefined && !anyElement && !descendant ? childPathMatch(steps, i, native) : undefined;
    const run = name === undefined && !anyElement && !descendant ? childRun(steps, i, native) : undefined;
    if (valuePath) {
      const { names, step, match } = valuePath;
      // as written, should the indexes not answer: the plain steps (one call for a run of them), then the step with its predicate
      const plain = run ? [childPathStep(run)] : steps.slice(i, i + names.length - 1).map((s) => nextStep(s, native, unit));
      const fallback = `(${[...plain, axisStep(step, native, unit)].join('/')})`;
      out.push({ text: descendantsMatchingCall('.', names[names.length - 1], match, translateExpr(match.values, native, unit), fallback, names) });
      i += names.length - 1;
    } else if (run) {
      out.push({ text: childPathStep(run) });
      i += run.length - 1;
    } else if (name !== undefined) {
      const [found, used] = indexedSteps('.', name, steps, i + 1, native, unit);
      out.push({ text: found });
      i += used;
    } else if (anyElement) {
      out.push({ text: anyElements('.', anyElement, native, unit) });
      i++;
    } else if (positional !== undefined) {
      out.push({ text: `${parentsOfNamedCall('.', positional)}/${nextStep(steps[i + 1], native, unit)}` });
      i++;
    } else if (descendant) {
      out.push({ text: axisStep(descendant, native, unit) });
      i++;
    } else {
      out.push({ text: descendantAxisStep(steps[i], native, unit) ?? nextStep(steps[i], native, unit), repeats: repeatsNodes(steps[i]) });
    }
  }
  return out;
}

/**
 * `a/…/b/c[P]` from `steps[i]`: child steps by name, the last with one predicate that the value
 * indexes answer (paths-value-index.ts `valuePredicate`), the others with none; at least two
 * steps, so that a lone `c[P]` below an element (in a loop over many, say) does not pay for the
 * call that finds its context is no document. Its names, the last step and the predicate.
 */
function childPathMatch(steps: readonly Expr[], i: number, native: Scope): { names: string[]; step: AxisStep; match: ValuePredicate } | undefined {
  const run = predicatedChildRun(steps, i, native);
  const match = run?.step.predicates.length === 1 ? valuePredicate(run.step.predicates[0], native, true) : undefined;
  return run && match ? { names: run.names, step: run.step, match } : undefined;
}

/**
 * The index call for `//name[p]…` (the child step `steps[at]`) and, when the step after it is an
 * unpredicated `child::c`, that step too, through the name index (paths-index.ts
 * `childrenNamedCall`): the expression, and how many steps it stands for.
 */
function indexedSteps(context: string, name: string, steps: readonly Expr[], at: number, native: Scope, unit: TranslationUnit): [string, number] {
  const found = indexed(context, name, steps[at], native, unit);
  const next = steps[at + 1];
  if (!next || next.kind !== 'AxisStep' || next.axis !== 'child' || next.predicates.length > 0 || next.test.kind !== 'NameTest') return [found, 1];
  const child = eqname(native.elementName(next.test.name, next.test.start));
  return [childrenNamedCall(context, name, found, child, axisStep(next, native, unit)), 2];
}

/**
 * `//@a[p]…` from the document root: the attributes of its elements (paths-index.ts
 * `descendantAttributeStep`). When the first predicate compares the attribute with a focus-free
 * value (`//@id[. = $v]`), the elements are those for which `@id = $v` holds (`ownerPredicate`),
 * which the leaf columns and value indexes answer as for `//*[@id = $v]` (`anyElements`); the
 * step then runs, with all its predicates, on those elements only.
 */
function rootAttributes(step: AxisStep, native: Scope, unit: TranslationUnit): string {
  const owner = ownerPredicate(step, native);
  return `${anyElements(ROOT, owner ? [owner] : [], native, unit)}/${axisStep(step, native, unit)}`;
}

function predicates(step: AxisStep, scope: Scope, unit: TranslationUnit): string {
  const native = scope.withFocus({ kind: 'native' });
  return step.predicates.map((p) => `[${translateExpr(p, native, unit)}]`).join('');
}

/** A step of a path as translated, and whether it may select one node from several context nodes. */
interface PathPart {
  readonly text: string;
  readonly repeats?: boolean;
}

/**
 * Axes on which different context nodes can select the same node: children share a parent,
 * siblings share siblings, and so on. (On child, descendant, attribute and self, each node has one
 * context node it is reached from.)
 */
const REPEATING_AXES: ReadonlySet<AxisStep['axis']> = new Set(['parent', 'ancestor', 'ancestor-or-self', 'preceding', 'following', 'preceding-sibling', 'following-sibling']);

function repeatsNodes(step: Expr): boolean {
  return step.kind === 'AxisStep' && REPEATING_AXES.has(step.axis);
}

/**
 * `first/…` with the steps `parts` after it. After a step that can reach one node from several
 * context nodes, the nodes found so far go through `! .` before the next step: `(//item/.. ! .)/name`
 * for `//item/../name`. The result is the same (every `/` sorts and drops duplicates, and
 * `! .` passes its nodes on as they are), but saxon-js treats `(A/B)/C` as `A/(B/C)`, running
 * the steps after a `..` once per context node of the `..` and dropping the duplicates only at the
 * end: `//item/../item` over 400 sibling items made 160,000 nodes (40-80 ms), where the nodes
 * of the `..` taken once make 400 (0.5 ms). Parentheses alone do not keep the steps apart.
 */
function joinSteps(first: string, parts: readonly PathPart[]): string {
  let path = first;
  parts.forEach((part, i) => {
    path = i > 0 && parts[i - 1].repeats ? `(${path} ! .)/${part.text}` : `${path}/${part.text}`;
  });
  return path;
}

function nextStep(step: Expr, native: Scope, unit: TranslationUnit): string {
  if (step.kind === 'AxisStep') return axisStep(step, native, unit);
  return `(${translateExpr(step, native, unit)})`;
}

function axisStep(step: AxisStep, scope: Scope, unit: TranslationUnit): string {
  if (step.axis === 'namespace') throw scope.error('XQST0134', step.start);
  const preds = predicates(step, scope, unit);
  return `${step.axis}::${nodeTest(step.test, step.axis === 'attribute', scope)}${preds}`;
}

/** A node test; names XPath cannot write become a predicate on the node name (translate/names.ts). */
function nodeTest(test: NodeTest, attribute: boolean, scope: Scope): string {
  switch (test.kind) {
    case 'NameTest':
      return nameTest(attribute ? scope.attributeName(test.name, test.start) : scope.elementName(test.name, test.start));
    case 'Wildcard': {
      if (test.uri !== undefined) return uriWildcard(test.uri);
      if (test.prefix !== undefined) return uriWildcard(scope.resolvePrefix(test.prefix, test.start));
      if (test.local !== undefined) return localNameTest(test.local);
      return '*';
    }
    case 'ElementTest':
    case 'AttributeTest': {
      if (test.name === null || test.name === '*') return translateKindTest(test, scope);
      const name = test.kind === 'ElementTest' ? scope.elementName(test.name, test.start) : scope.attributeName(test.name, test.start);
      if (nodeNameInXPath(name) !== undefined) return translateKindTest(test, scope);
      return `${translateKindTest({ ...test, name: '*' }, scope)}${nameTestPredicate(name)}`;
    }
    default:
      return translateKindTest(test, scope);
  }
}
