/**
 * Integer ranges (`A to B`, XQuery 3.1 §3.5), around two limits of saxon-js 2.7:
 * - its big-integer arithmetic gets ranges wrong that start at a negative integer beyond nine
 *   digits (`-2147483649 to -2147483647` answers nothing). A range whose start is not an
 *   integer literal of at most nine digits is written as offsets from its start
 *   (`for $i in 0 to $b - $a return $a + $i`), which saxon computes correctly;
 * - a range is an iterator, so `count()` and positional access walk it item by item
 *   (`count(1 to 10000000000)` never ends). `count(A to B)`, `(A to B)[N]` for an integer literal
 *   N and `(A to B)[last()]` are computed from the bounds instead.
 * The bounds are checked as `to` checks them: atomized, untypedAtomic cast to xs:integer, any
 * other type or more than one item XPTY0004; an empty bound gives an empty range.
 */
import type { Expr, RangeExpr } from '../syntax';
import { translateExpr } from './expressions';
import { NS, xpathError } from './names';
import type { Scope } from './scope';
import type { TranslationUnit } from './unit';
import { braced } from './emit';

const F = braced(NS.fn);
const XS = braced(NS.xs);

/** The range `e` is, through parentheses; undefined if it is none. */
export function rangeOf(e: Expr): RangeExpr | undefined {
  while (e.kind === 'ParenthesizedExpr' && e.expr) e = e.expr;
  return e.kind === 'RangeExpr' ? e : undefined;
}

/** Whether saxon-js computes ranges from this start correctly (a literal of at most nine digits). */
function nativeStart(e: Expr): boolean {
  if (e.kind === 'IntegerLiteral') return true;
  return e.kind === 'UnaryExpr' && e.operand.kind === 'IntegerLiteral' && e.operand.value.replace(/^0+/, '').length <= 9;
}

export function translateRange(expr: RangeExpr, scope: Scope, unit: TranslationUnit): string {
  const t = (e: Expr): string => translateExpr(e, scope, unit);
  if (nativeStart(expr.left)) return `(${t(expr.left)} to ${t(expr.right)})`;
  const { head, a, b } = bounds(expr, scope, unit);
  const i = `$${braced(NS.vars)}range-offset.${scope.ctx.nextId()}`;
  return `(${head}if (${F}empty(${a}) or ${F}empty(${b})) then () else for ${i} in 0 to ${b} - ${a} return ${a} + ${i})`;
}

/** `count(range)`: the number of integers between the bounds. */
export function rangeCount(expr: RangeExpr, scope: Scope, unit: TranslationUnit): string {
  const { head, a, b } = bounds(expr, scope, unit);
  return `(${head}if (${F}empty(${a}) or ${F}empty(${b}) or ${a} gt ${b}) then 0 else ${b} - ${a} + 1)`;
}

/**
 * `(range)[predicate]` computed from the bounds when the predicate is an integer literal or
 * `last()`; undefined for any other predicate.
 */
export function rangeItem(expr: RangeExpr, predicate: Expr, scope: Scope, unit: TranslationUnit): string | undefined {
  const last = predicate.kind === 'FunctionCall' && predicate.args.length === 0 && predicate.name.local === 'last' && isFn(predicate.name, scope, predicate.start);
  if (!last && predicate.kind !== 'IntegerLiteral') return undefined;
  const { head, a, b } = bounds(expr, scope, unit);
  const empty = `${F}empty(${a}) or ${F}empty(${b})`;
  if (last) return `(${head}if (${empty} or ${a} gt ${b}) then () else ${b})`;
  const n = (predicate as { value: string }).value;
  return `(${head}if (${empty} or ${n} lt 1 or ${a} + ${n} - 1 gt ${b}) then () else ${a} + ${n} - 1)`;
}

function isFn(name: { prefix?: string; uri?: string; local: string }, scope: Scope, offset: number): boolean {
  return scope.functionName(name, offset).uri === NS.fn;
}

/** `let $a := …, $b := … return ` binding the checked bounds, and the two references. */
function bounds(expr: RangeExpr, scope: Scope, unit: TranslationUnit): { head: string; a: string; b: string } {
  const id = scope.ctx.nextId();
  const a = `$${braced(NS.vars)}range-start.${id}`;
  const b = `$${braced(NS.vars)}range-end.${id}`;
  const v = `$${braced(NS.vars)}range-bound.${id}`;
  const bound = (e: Expr): string =>
    `(let ${v} := ${F}data(${translateExpr(e, scope, unit)}) return ` +
    `if (${v} instance of ${XS}untypedAtomic) then ${XS}integer(${v}) else if (${v} instance of ${XS}integer?) then ${v} ` +
    `else ${xpathError('XPTY0004', 'An operand of "to" is not one integer.')})`;
  return { head: `let ${a} := ${bound(expr.left)}, ${b} := ${bound(expr.right)} return `, a, b };
}
