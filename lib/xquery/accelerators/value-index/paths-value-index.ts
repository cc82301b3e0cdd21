/**
 * `E//name[P]` and `E//*[P]` through the value indexes, where BaseX's optimizer uses its text,
 * attribute and token indexes (functions/db-index.ts `descendants-matching`, which answers false()
 * when it cannot answer exactly; the predicate as written is then evaluated instead). P, the first
 * predicate of the step, is one of:
 *
 *   text() = V          an element with a text child equal to a value (text index)
 *   @a = V              an element with attribute a equal to a value (attribute index); `@*`: any attribute
 *   . = V               an element whose string value equals a value (text index; named steps only)
 *   contains-token(@a, V)   an element whose attribute a (or any, `@*`) holds the token (token index)
 *
 * either way round for `=`. V is an expression that cannot see the focus: string literals,
 * variable references, and parenthesised sequences of those; it is evaluated once, outside the
 * predicate, which is what the predicate would compare against for every element.
 */
import { everyMember, type Expr } from '../../language/syntax';
import { NS, eqname, xpathString } from '../../language/translate/names';
import type { Scope } from '../../language/translate/scope';
import { isAnyNameTest } from '../name-index/paths-index';
import { braced } from '../../language/translate/emit';

const DESCENDANTS_MATCHING = `${braced(NS.engine)}descendants-matching`;

export interface ValuePredicate {
  readonly kind: 'text' | 'attribute' | 'self' | 'token';
  /** The attribute's expanded name (`Q{uri}local`, or `*` for any) for attribute and token; '' otherwise. */
  readonly key: string;
  /** The values' expression. */
  readonly values: Expr;
}

/** Whether `expr` is a focus-free value list: literals, variables, and sequences of them. */
function focusFree(expr: Expr): boolean {
  return everyMember(expr, (member) => member.kind === 'StringLiteral' || member.kind === 'VarRef');
}

/** One unpredicated step `expr` (alone or as a one-step relative path). */
function singleStep(expr: Expr): Expr {
  return expr.kind === 'PathExpr' && expr.root === null && expr.steps.length === 1 ? expr.steps[0] : expr;
}

/** The expanded name of an unpredicated `@name` step, or `*` for `@*` (any attribute). */
function attributeStep(expr: Expr, scope: Scope): string | undefined {
  const step = singleStep(expr);
  if (step.kind !== 'AxisStep' || step.axis !== 'attribute' || step.predicates.length > 0) return undefined;
  const { test } = step;
  if (test.kind === 'Wildcard') return isAnyNameTest(test) ? '*' : undefined;
  return test.kind === 'NameTest' ? eqname(scope.attributeName(test.name, test.start)) : undefined;
}

/** What the side of a comparison selects: text children, an attribute, the element itself. */
function target(expr: Expr, scope: Scope, named: boolean): Omit<ValuePredicate, 'values'> | undefined {
  const step = singleStep(expr);
  if (step.kind === 'ContextItemExpr') return named ? { kind: 'self', key: '' } : undefined;
  if (step.kind === 'AxisStep' && step.axis === 'child' && step.predicates.length === 0 && step.test.kind === 'TextTest') return { kind: 'text', key: '' };
  const attribute = attributeStep(expr, scope);
  return attribute === undefined ? undefined : { kind: 'attribute', key: attribute };
}

/** The predicate's parts when the value indexes can answer it (see the file comment); `named`: the step tests a name. */
export function valuePredicate(predicate: Expr, scope: Scope, named: boolean): ValuePredicate | undefined {
  if (predicate.kind === 'ComparisonExpr' && predicate.op === '=') {
    const left = focusFree(predicate.right) ? target(predicate.left, scope, named) : undefined;
    if (left) return { ...left, values: predicate.right };
    const right = focusFree(predicate.left) ? target(predicate.right, scope, named) : undefined;
    if (right) return { ...right, values: predicate.left };
    return undefined;
  }
  if (predicate.kind === 'FunctionCall' && predicate.name.local === 'contains-token' && predicate.args.length === 2) {
    if (scope.functionName(predicate.name, predicate.start).uri !== NS.fn) return undefined;
    const [input, token] = predicate.args;
    if (input.kind === 'ArgumentPlaceholder' || token.kind === 'ArgumentPlaceholder' || !focusFree(token)) return undefined;
    const key = attributeStep(input, scope);
    return key === undefined ? undefined : { kind: 'token', key, values: token };
  }
  return undefined;
}

/**
 * The descendant elements named `name` (or ANY_ELEMENT, tree/name-rows.ts) of `context` that satisfy `test`, from the value
 * indexes when they can answer, else `fallback` (the same selection with the predicate); with
 * `path`, only those at that child path below the context (a document node).
 */
export function descendantsMatchingCall(context: string, name: string, test: ValuePredicate, values: string, fallback: string, path?: readonly string[]): string {
  const r = `$${braced(NS.gen)}matching`;
  const through = path ? `, (${path.map(xpathString).join(', ')})` : '';
  const call = `${DESCENDANTS_MATCHING}(${context}, ${xpathString(name)}, ${xpathString(test.kind)}, ${xpathString(test.key)}, ${values}${through})`;
  return `(let ${r} := ${call} return if (${r} instance of ${braced(NS.xs)}boolean) then ${fallback} else ${r})`;
}
