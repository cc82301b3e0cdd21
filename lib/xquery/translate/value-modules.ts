/**
 * Function items for the functions of BaseX's value modules, and util:if called by name.
 *
 * The modules whose functions compute values only (no updates, databases or focus): util:,
 * string:, bin:, convert:, hash:, random:. saxon-js has no function items for extension functions
 * (a reference or a partial application of one is SXJS0002), so a named reference to one of
 * theirs is an inline function that calls it, and a partial application one that calls it with
 * the fixed arguments, evaluated first (XQuery 3.1 §3.1.5.1, §3.1.6). fn:function-lookup, whose name is known only at run time,
 * finds none of them (the empty sequence, as for an unknown function), rather than failing.
 */
import type { Expr, FunctionCall, IfExpr, ParenthesizedExpr } from '../syntax';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { braced } from './emit';
import { NS, eqname, type QName } from './names';
import type { Scope } from './scope';

/** A function item that calls `callee` (an EQName) with `arity` arguments. */
export function functionItem(callee: string, arity: number): string {
  const ps = Array.from({ length: arity }, (_, i) => `$${braced(NS.vars)}a${i}`);
  return `function(${ps.join(', ')}) { ${callee}(${ps.join(', ')}) }`;
}

/** Modules whose functions compute values only (no updates, databases or focus). */
const VALUE_MODULES: ReadonlySet<string> = new Set([
  MODULE_NAMESPACES.util, MODULE_NAMESPACES.string, MODULE_NAMESPACES.out, MODULE_NAMESPACES.bin, MODULE_NAMESPACES.convert, MODULE_NAMESPACES.hash, MODULE_NAMESPACES.random,
]);

export function isValueModuleFunction(name: QName, arity: number, scope: Scope): boolean {
  return VALUE_MODULES.has(name.uri) && !scope.ctx.functions.has(`${eqname(name)}#${arity}`);
}

/**
 * `util:if($condition, $then, $else)` called by name is the conditional expression
 * `if ($condition) then $then else $else`: only the chosen branch is evaluated (docs.basex.org,
 * "util:if"), which an extension function, whose arguments saxon-js may evaluate before the
 * call, cannot promise. As a function item it is the extension function.
 */
export function utilIf(name: QName, expr: FunctionCall, scope: Scope): IfExpr | undefined {
  const [test, then, otherwise] = expr.args;
  if (name.uri !== MODULE_NAMESPACES.util || name.local !== 'if' || (expr.args.length !== 2 && expr.args.length !== 3)) return undefined;
  if (!isValueModuleFunction(name, expr.args.length, scope) || expr.args.some((a) => a.kind === 'ArgumentPlaceholder')) return undefined;
  const empty: ParenthesizedExpr = { kind: 'ParenthesizedExpr', expr: null, start: expr.end, end: expr.end };
  return { kind: 'IfExpr', test: test as Expr, then: then as Expr, else: (otherwise as Expr | undefined) ?? empty, start: expr.start, end: expr.end };
}

export function partialApplication(callee: string, args: readonly string[], scope: Scope): string {
  const fixed: string[] = [];
  const params: string[] = [];
  const call = args.map((arg) => {
    const v = `$${braced(NS.vars)}${arg === '?' ? 'param' : 'fixed'}.${scope.ctx.nextId()}`;
    if (arg === '?') params.push(v);
    else fixed.push(`${v} := ${arg}`);
    return v;
  });
  const fn = `function(${params.join(', ')}) { ${callee}(${call.join(', ')}) }`;
  return fixed.length > 0 ? `(let ${fixed.join(', ')} return ${fn})` : fn;
}
