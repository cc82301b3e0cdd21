/**
 * Calls of fn functions rewritten around faults of saxon-js 2.7 (the translation works around
 * them; saxon-js itself is never changed).
 *
 * - fn:fold-left, fn:fold-right: when the function argument is a variable bound to a function
 *   item (`let $f := function(...) {...}`) and the call is not the whole body of the `let`,
 *   saxon-js fails with an internal error (SXJS0004, "Cannot read properties of undefined"). An
 *   inline function argument does not trigger it, so any other function argument is bound once
 *   and called through one: `let $g := F return fold-left(S, Z, function($a, $i) { $g($a, $i) })`.
 *   Arity and types are still checked where XQuery checks them, by the call of `$g` (XPTY0004).
 * - fn:distinct-values: F&O 3.1 §14.1.2 compares the values with `eq`, so an xs:decimal and an
 *   xs:float are the same value when the decimal promoted to xs:float equals the float
 *   (`distinct-values((1.2, xs:float(1.2)))` is one value, QT3 fn-distinct-values-mixed-args-012);
 *   saxon-js keeps them apart. When its result holds a float, a float equal to a decimal of the
 *   result is left out (the decimal stays: which of equal values is returned is
 *   implementation-dependent).
 * - fn:concat and the constructor functions (`xs:string(…)`): saxon-js atomizes an array argument
 *   to its first member only (`concat([1, 2], "x")` gave "1x"); XQuery atomizes it to all its
 *   members (§2.4.2), so more than one is XPTY0004. The arguments are atomized with fn:data first
 *   (operators.ts does the same for `||`, `cast` and `castable`).
 * - xs:duration, xs:yearMonthDuration, xs:dayTimeDuration: the limits of duration-limits.ts.
 * - fn:format-number: the decimal-format name (third argument) is a lexical QName resolved
 *   against the statically known namespaces of the call (F&O 3.1 §4.7.2), which include the
 *   prolog's declarations and the namespace attributes of direct constructors around the call;
 *   saxon-js resolves it against its own namespace context, where neither is, and answers
 *   FODF1280. A string literal `prefix:local` whose prefix is bound there is passed as the
 *   EQName `Q{uri}local`, which format-number accepts as well.
 * - fn:serialize: methods json and csv are BaseX's (its JSON and CSV formats), written by the
 *   serializer of query results; other methods stay with saxon-js, given nodes that declare
 *   their namespaces (functions/fn-serialize.ts).
 */
import type { Argument } from '../syntax';
import { checkedDurationCast, isDurationType } from './duration-limits';
import { NS, xpathString } from './names';
import type { Scope } from './scope';
import { braced, eqname } from './emit';
import { isNCName } from '../../../convert/names';

const F = braced(NS.fn);
const XS = braced(NS.xs);
const E = braced(NS.engine);
const FOLDS = new Set(['fold-left', 'fold-right']);

/**
 * The call of fn function `name` (`callee` as written, `translated` arguments) rewritten, or
 * undefined when it needs no rewriting.
 */
export function rewrittenCall(name: { uri: string; local: string }, callee: string, args: readonly Argument[], translated: readonly string[], scope: Scope): string | undefined {
  if (args.some((a) => a.kind === 'ArgumentPlaceholder')) return undefined;
  if (name.uri === NS.xs && args.length === 1 && isDurationType(name.local)) {
    return checkedDurationCast(`${F}data(${translated[0]})`, `${XS}${name.local}?`, scope.ctx.nextId());
  }
  if ((name.uri === NS.xs && args.length === 1) || (name.uri === NS.fn && name.local === 'concat')) {
    return `${callee}(${translated.map((a) => `${F}data(${a})`).join(', ')})`;
  }
  if (name.uri !== NS.fn) return undefined;
  if (FOLDS.has(name.local) && args.length === 3 && args[2].kind !== 'InlineFunctionExpr') return fold(callee, translated, scope);
  if (name.local === 'distinct-values' && (args.length === 1 || args.length === 2)) return distinctValues(callee, translated, scope);
  if (name.local === 'format-number' && args.length === 3) return formatNumber(callee, args[2], translated, scope);
  if (name.local === 'serialize' && (args.length === 1 || args.length === 2)) return serializeCall(callee, translated, scope);
  return undefined;
}

function fold(callee: string, [seq, zero, fn]: readonly string[], scope: Scope): string {
  const id = scope.ctx.nextId();
  const g = `$${braced(NS.vars)}fold-function.${id}`;
  const [x, y] = [`$${braced(NS.vars)}fold-a.${id}`, `$${braced(NS.vars)}fold-b.${id}`];
  return `(let ${g} := ${fn} return ${callee}(${seq}, ${zero}, function(${x}, ${y}) { ${g}(${x}, ${y}) }))`;
}

function distinctValues(callee: string, translated: readonly string[], scope: Scope): string {
  const id = scope.ctx.nextId();
  const d = `$${braced(NS.vars)}distinct.${id}`;
  const x = `$${braced(NS.vars)}distinct-decimal.${id}`;
  const equalDecimal = `some ${x} in ${d} satisfies (${x} instance of ${XS}decimal and ${XS}float(${x}) eq .)`;
  return (
    `(let ${d} := ${callee}(${translated.join(', ')}) return ` +
    `if (${F}exists(${d}[. instance of ${XS}float])) then ${d}[${F}not(. instance of ${XS}float and (${equalDecimal}))] else ${d})`
  );
}

function serializeCall(callee: string, [input, options = '()']: readonly string[], scope: Scope): string {
  const id = scope.ctx.nextId();
  const [x, p] = [`$${braced(NS.vars)}serialize-input.${id}`, `$${braced(NS.vars)}serialize-options.${id}`];
  return (
    `(let ${x} := ${input}, ${p} := ${options} return ` +
    `if (${E}serializes-itself(${p})) then ${E}serialize(${x}, ${p}) else ${callee}(${E}with-namespaces(${x}), ${p}))`
  );
}

/** A lexical QName with a prefix (NCName characters beyond ASCII included, as the lexer reads them). */
const PREFIXED = /^\s*([^\s:{}]+):([^\s:{}]+)\s*$/u;

function formatNumber(callee: string, format: Argument, [value, picture]: readonly string[], scope: Scope): string | undefined {
  if (format.kind !== 'StringLiteral') return undefined;
  const m = PREFIXED.exec(format.value);
  const uri = m ? scope.namespaceOf(m[1]) : undefined;
  if (!m || uri === undefined || uri === '' || !isNCName(m[2])) return undefined;
  return `${callee}(${value}, ${picture}, ${xpathString(eqname({ uri, local: m[2] }))})`;
}
