/**
 * `count`, `sum`, `avg`, `min` and `max` of a path to leaves, and `count(distinct-values(…))` of
 * one, from the worker's per-document structures. The paths are
 *
 *   R//name   R//name/child   R//name/@attr      each optionally followed by /text() or /data()
 *
 * where R is the root `/` or a variable (`$doc//name`), `name` and `child` element name tests and
 * `attr` an attribute name test, none with predicates (`/text()` not after an attribute, which has
 * no children). `/data()` atomizes each node to its typed value, in the path's order: for the
 * untyped trees of this engine the same xs:untypedAtomic values the function atomizes the nodes
 * to, so it is left out.
 *
 * `//name` from the root is the descendant elements named `name` of the root of each context node
 * (paths-index.ts), concatenated in the order of the context (`$context ! …`, paths/paths.ts). The call
 * `count(//name)` is the sum of the lengths of the roots' name-index entries
 * (`Q{urn:xmldb-rest:engine}count-descendants`, accelerators/name-index/name-index.ts), without building the
 * sequence. Every other form is `Q{urn:xmldb-rest:engine}aggregate-leaves`
 * (accelerators/leaf-aggregates/leaf-aggregates.ts), which applies F&O 3.1's rules to the leaves' values when every
 * root is a document and every value is a plain number, and otherwise answers false(); the
 * function then runs on the path as written, so empty sequences, other values and errors stay
 * the function's.
 *
 * `count(//*[P…])` whose predicates all read the element only through its name counts the rows
 * of the names the predicates keep (`Q{urn:xmldb-rest:engine}count-named-as`,
 * accelerators/name-predicates/paths-name-predicates.ts), summed over the roots.
 *
 * The roots are the translation of `/` itself (or of the variable), so a context that is absent
 * or not in a document raises the errors a leading `/` raises (XPDY0002, XPDY0050).
 */
import type { AxisStep, Expr, PathExpr } from '../../language/syntax';
import { translateExpr } from '../../language/translate/expressions';
import { eqname, NS, xpathString } from '../../language/translate/names';
import { anyElementPredicates, indexedName } from '../name-index/paths-index';
import { countNamePredicatesCall, leadingNamePredicates } from '../name-predicates/paths-name-predicates';
import type { Scope } from '../../language/translate/scope';
import type { TranslationUnit } from '../../language/translate/unit';
import { braced } from '../../language/translate/emit';
import { COLLATIONS } from '../../language/translate/flwor/advanced';
import { fnCall } from '../../language/translate/fn-call';

const ENGINE = braced(NS.engine);
const FUNCTIONS = new Set(['count', 'sum', 'avg', 'min', 'max']);

/** A path to leaves, as aggregate-leaves takes it. */
interface LeafPath {
  readonly root: Expr;
  readonly name: string;
  readonly step: '' | 'child' | 'attribute';
  readonly target: string;
  readonly text: boolean;
}

/** The call `fn:local(arg)` answered from indexes; undefined when `arg` is not one of the paths above. */
export function indexedAggregate(local: string, arg: Expr, fallback: () => string, scope: Scope, unit: TranslationUnit): string | undefined {
  if (!FUNCTIONS.has(local)) return undefined;
  // `count(distinct-values(P))`: how many different values, in the codepoint collation
  const distinct = local === 'count' ? distinctValuesArgument(arg, scope) : undefined;
  if (distinct) local = 'count-distinct';
  const named = local === 'count' ? namedElementsCount(arg, scope, unit) : undefined;
  if (named) return named;
  const path = leafPath(distinct ?? arg, scope);
  if (!path) return undefined;
  const roots = translateExpr(path.root, scope, unit);
  if (local === 'count' && path.root.kind === 'PathExpr' && path.step === '' && !path.text) {
    return `${ENGINE}count-descendants(${roots}, ${xpathString(path.name)})`;
  }
  const args = [local, path.name, path.step, path.target, path.text ? 'text' : ''].map(xpathString);
  const r = `$${braced(NS.gen)}aggregate`;
  const call = `${ENGINE}aggregate-leaves(${args[0]}, ${roots}, ${args.slice(1).join(', ')})`;
  return `(let ${r} := ${call} return if (${r} instance of ${braced(NS.xs)}boolean) then ${fallback()} else ${r})`;
}

/** `count(//*[P…])` from the root, every predicate on the element's name only (paths-name-predicates.ts). */
function namedElementsCount(arg: Expr, scope: Scope, unit: TranslationUnit): string | undefined {
  if (arg.kind !== 'PathExpr' || arg.root !== '/' || arg.steps.length !== 2) return undefined;
  const native = scope.withFocus({ kind: 'native' });
  const preds = anyElementPredicates(arg.steps, 0, native);
  if (!preds || preds.length === 0 || leadingNamePredicates(preds, native) < preds.length) return undefined;
  const roots = translateExpr(rootOf(arg), scope, unit);
  return countNamePredicatesCall(roots, preds.map((p) => `[${translateExpr(p, native, unit)}]`));
}

/** The root `/` of a path that starts with it, as a path of its own. */
function rootOf(path: PathExpr): PathExpr {
  return { kind: 'PathExpr', root: '/', steps: [], start: path.start, end: path.end };
}

/** The path's parts, or undefined for another expression. */
function leafPath(arg: Expr, scope: Scope): LeafPath | undefined {
  if (arg.kind !== 'PathExpr') return undefined;
  let steps = arg.steps;
  let root: Expr;
  if (arg.root === '/') root = rootOf(arg);
  else if (arg.root === null && steps[0]?.kind === 'VarRef') [root, ...steps] = steps;
  else return undefined;
  const name = indexedName(steps, 0, scope.withFocus({ kind: 'native' }));
  if (name === undefined || (steps[1] as AxisStep).predicates.length > 0) return undefined;
  const rest = steps.slice(2);
  if (rest.length > 0 && isData(rest[rest.length - 1], scope)) rest.pop();
  let text = false;
  if (rest.length > 0 && isText(rest[rest.length - 1])) {
    rest.pop();
    text = true;
  }
  if (rest.length === 0) return { root, name, step: '', target: '', text };
  const [step] = rest;
  if (rest.length > 1 || step.kind !== 'AxisStep' || step.predicates.length > 0 || step.test.kind !== 'NameTest') return undefined;
  if (step.axis === 'child') return { root, name, step: 'child', target: eqname(scope.elementName(step.test.name, step.test.start)), text };
  if (step.axis === 'attribute' && !text) return { root, name, step: 'attribute', target: eqname(scope.attributeName(step.test.name, step.test.start)), text };
  return undefined;
}

/** The argument of `fn:distinct-values(A)` without a collation argument, when the default collation is the codepoint collation. */
function distinctValuesArgument(expr: Expr, scope: Scope): Expr | undefined {
  const collation = scope.ctx.defaultCollation;
  if (collation !== null && collation !== COLLATIONS.codepoint) return undefined;
  const call = fnCall(expr, scope);
  return call?.local === 'distinct-values' && call.args.length === 1 ? call.args[0] : undefined;
}

/** `text()` as a child step without predicates. */
function isText(step: Expr): boolean {
  return step.kind === 'AxisStep' && step.axis === 'child' && step.test.kind === 'TextTest' && step.predicates.length === 0;
}

/** A step `fn:data()`. */
function isData(step: Expr, scope: Scope): boolean {
  const call = fnCall(step, scope);
  return call?.local === 'data' && call.args.length === 0;
}
