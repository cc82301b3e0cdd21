/**
 * `util:if($condition, $then, $else)` called by name is the conditional expression
 * `if ($condition) then $then else $else`: only the chosen branch is evaluated (docs.basex.org,
 * "util:if"), which an extension function, whose arguments saxon-js may evaluate before the
 * call, cannot promise. As a function item (`util:if#3`, `util:if(?, 1, 2)`) it is the extension
 * function (functions.ts `moduleFunctionItem`).
 */
import type { Expr, FunctionCall, IfExpr, ParenthesizedExpr } from '../syntax';
import { MODULE_NAMESPACES } from '../../module-namespaces';
import type { QName } from './names';
import { functionKey, type Scope } from './scope';

export function utilIf(name: QName, expr: FunctionCall, scope: Scope): IfExpr | undefined {
  const [test, then, otherwise] = expr.args;
  if (name.uri !== MODULE_NAMESPACES.util || name.local !== 'if' || (expr.args.length !== 2 && expr.args.length !== 3)) return undefined;
  if (scope.ctx.functions.has(functionKey(name, expr.args.length)) || expr.args.some((a) => a.kind === 'ArgumentPlaceholder')) return undefined;
  const empty: ParenthesizedExpr = { kind: 'ParenthesizedExpr', expr: null, start: expr.end, end: expr.end };
  return { kind: 'IfExpr', test: test as Expr, then: then as Expr, else: (otherwise as Expr | undefined) ?? empty, start: expr.start, end: expr.end };
}
