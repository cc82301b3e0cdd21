/**
 * A call of a function in the fn namespace, as the accelerators recognize them: its local name
 * and arguments, the name resolved as the translation resolves it.
 */
import type { Expr } from '../syntax';
import { NS } from './names';
import type { Scope } from './scope';

/**
 * The local name and arguments of `expr` when it calls a function of the fn namespace; undefined
 * for another expression, a call with an argument placeholder, or a name the translation refuses
 * (it raises the error itself).
 */
export function fnCall(expr: Expr, scope: Scope): { readonly local: string; readonly args: readonly Expr[] } | undefined {
  if (expr.kind !== 'FunctionCall' || expr.args.some((a) => a.kind === 'ArgumentPlaceholder')) return undefined;
  try {
    const fn = scope.functionName(expr.name, expr.start);
    return fn.uri === NS.fn ? { local: fn.local, args: expr.args as Expr[] } : undefined;
  } catch {
    return undefined;
  }
}
