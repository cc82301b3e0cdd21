/**
 * Static "needs focus" analysis: does an expression, evaluated where it stands, use the focus
 * (context item, position or last)? A lifted function takes the focus as parameters only when
 * its body needs it.
 *
 * Looks at the expression itself and its sub-expressions that are evaluated with the same
 * focus; does not descend into step predicates, the right-hand side of `/` and `!`, filter
 * predicates, or inline function bodies (they get a focus of their own or none).
 */
import { childNodes, type Node } from '../syntax';
import { NS } from './names';

/** fn functions whose zero-argument form uses the context item (`name()` = `name(.)`). */
export const CONTEXT_ARG_FUNCTIONS = new Set([
  'name', 'local-name', 'namespace-uri', 'string', 'data', 'number', 'normalize-space', 'string-length',
  'base-uri', 'document-uri', 'root', 'node-name', 'nilled', 'has-children', 'path', 'generate-id',
]);

/** fn functions whose one-argument form takes the context item as the (missing) second argument. */
export const CONTEXT_SECOND_ARG_FUNCTIONS = new Set(['lang', 'id', 'idref', 'element-with-id']);

/** Whether a call of fn:`local` with `arity` arguments depends on the focus. */
export function isFocusFunction(uri: string, local: string, arity: number): boolean {
  if (uri !== NS.fn) return false;
  if (arity === 0) return CONTEXT_ARG_FUNCTIONS.has(local) || local === 'position' || local === 'last';
  return arity === 1 && CONTEXT_SECOND_ARG_FUNCTIONS.has(local);
}

/**
 * Whether `expr` uses the focus. Function names are checked by local name in the fn namespace
 * when unprefixed or prefixed `fn` (a conservative answer — true — is always safe).
 */
export function needsFocus(expr: Node): boolean {
  switch (expr.kind) {
    case 'ContextItemExpr':
    case 'AxisStep':
    case 'UnaryLookup':
      return true;
    case 'PathExpr':
      return expr.root === '/' || (expr.steps.length > 0 && needsFocus(expr.steps[0]));
    case 'SimpleMapExpr':
      return needsFocus(expr.operands[0]);
    case 'FilterExpr':
      return needsFocus(expr.base);
    case 'InlineFunctionExpr':
      return false;
    case 'FunctionCall': {
      const fnLike = expr.name.uri === NS.fn || expr.name.prefix === 'fn' || (expr.name.prefix === undefined && expr.name.uri === undefined);
      if (fnLike && (isFocusFunction(NS.fn, expr.name.local, expr.args.length) || expr.name.local === 'function-lookup')) return true;
      return expr.args.some((a) => needsFocus(a));
    }
    case 'NamedFunctionRef': {
      const fnLike = expr.name.uri === NS.fn || expr.name.prefix === 'fn' || (expr.name.prefix === undefined && expr.name.uri === undefined);
      return fnLike && (isFocusFunction(NS.fn, expr.name.local, expr.arity) || expr.name.local === 'function-lookup');
    }
    default:
      return childNodes(expr).some(needsFocus);
  }
}
