/**
 * if, switch, typeswitch (pure XPath) and try/catch (lifted into `xsl:try`).
 *
 *   if (T) then A else B  → (if (T) then A else B), each branch conditionally evaluated
 *
 *   switch (E) case C1 case C2 return R1 … default return D
 *     → let $v := data(E) return if (count($v) gt 1) then error(XPTY0004)
 *       else if (deep-equal($v, one(C1)) or deep-equal($v, one(C2))) then R1 … else D
 *   (deep-equal on zero or one atomic values: () matches (), NaN matches NaN, values of
 *   incomparable types do not match; `one` is XPTY0004 for more than one item)
 *
 *   typeswitch (E) case $x as T1 | T2 return R1 … default $d return D
 *     → let $v := E return if ($v instance of T1 or $v instance of T2) then (let $x := $v return R1) …
 *       else (let $d := $v return D)
 *
 *   try { B } catch N1 | N2 { C } …  → a generated function whose body is
 *     <xsl:try><xsl:sequence select="B"/><xsl:catch errors="N1 N2">…C…</xsl:catch></xsl:try>
 *   (B runs inside the function, so saxon cannot fold an error of B out of the xsl:try.)
 *   The catch variables `$err:code`, `$err:description`, `$err:value`, `$err:module`,
 *   `$err:line-number`, `$err:column-number`, `$err:additional` are bound from XSLT's own, but
 *   for the position, which is the try body's in the query (`errorPosition`).
 *
 *   Where it lets the query run as one expression (StaticContext.tryAsCall), instead a call of
 *   the runtime library's fixed function lib.try (library.ts), which catches every error of its
 *   first argument and passes XSLT's err variables to its second:
 *     lib.try(function() { B }, function($err:code, …) { if (N1 or N2 matches) then C … else error(…) })
 *   An error no clause names is raised again with its code, description and value, which is all
 *   a query or a client sees of an error. The function items capture the variables in scope; a
 *   native focus the body needs is bound to variables first (an inline function has none).
 */
import { lineColumn, someNode, type CatchClause, type EQName, type IfExpr, type NameTest, type SwitchExpr, type TryCatchExpr, type TypeswitchExpr, type Wildcard } from '../syntax';
import { translateExpr } from './expressions';
import { needsFocus } from './focus';
import { liftFunction, liftScope } from './lift';
import { NS, xmlAttr, xpathString } from './names';
import type { Scope } from './scope';
import { translateSequenceType } from './types';
import type { TranslationUnit } from './unit';
import { braced, eqname, localWildcard, uriWildcard } from './emit';

export type ConditionalExpr = IfExpr | SwitchExpr | TypeswitchExpr | TryCatchExpr;

const F = braced(NS.fn);

/** Translates typeswitch, switch or try/catch to an XPath expression. */
export function translateConditional(expr: ConditionalExpr, scope: Scope, unit: TranslationUnit): string {
  switch (expr.kind) {
    case 'IfExpr':
      return translateIf(expr, scope, unit);
    case 'SwitchExpr':
      return translateSwitch(expr, scope, unit);
    case 'TypeswitchExpr':
      return translateTypeswitch(expr, scope, unit);
    case 'TryCatchExpr':
      return translateTryCatch(expr, scope, unit);
  }
}

function translateIf(expr: IfExpr, scope: Scope, unit: TranslationUnit): string {
  const t = (e: IfExpr['test']) => translateExpr(e, scope, unit);
  return `(if (${t(expr.test)}) then ${scope.ctx.conditionally(() => t(expr.then))} else ${scope.ctx.conditionally(() => t(expr.else))})`;
}

function tempName(scope: Scope, what: string): string {
  return `$${braced(NS.vars)}${what}.${scope.ctx.nextId()}`;
}

const xpty0004 = (message: string): string => `${F}error(${F}QName(${xpathString(NS.err)}, "XPTY0004"), ${xpathString(message)})`;

function translateSwitch(expr: SwitchExpr, scope: Scope, unit: TranslationUnit): string {
  const v = tempName(scope, 'switch');
  const c = tempName(scope, 'case');
  const one = (operand: string): string =>
    `(let ${c} := ${F}data(${operand}) return if (${F}count(${c}) gt 1) then ${xpty0004('A switch case operand must be a single atomic value.')} else ${c})`;
  const later = (e: typeof expr.default): string => scope.ctx.conditionally(() => translateExpr(e, scope, unit));
  let out = `(${later(expr.default)})`;
  for (let i = expr.cases.length - 1; i >= 0; i--) {
    const clause = expr.cases[i];
    const test = clause.operands.map((o) => `${F}deep-equal(${v}, ${one(i === 0 ? translateExpr(o, scope, unit) : later(o))})`).join(' or ');
    out = `if (${test}) then (${later(clause.result)}) else ${out}`;
  }
  const operand = `${F}data(${translateExpr(expr.operand, scope, unit)})`;
  return `(let ${v} := ${operand} return if (${F}count(${v}) gt 1) then ${xpty0004('The switch operand must be a single atomic value.')} else ${out})`;
}

function translateTypeswitch(expr: TypeswitchExpr, scope: Scope, unit: TranslationUnit): string {
  const v = tempName(scope, 'typeswitch');
  const branch = (name: EQName | null, offset: number, result: typeof expr.default): string => {
    if (!name) return `(${scope.ctx.conditionally(() => translateExpr(result, scope, unit))})`;
    const bound = scope.bind(name, offset);
    return `(let ${bound.variable.ref} := ${v} return ${scope.ctx.conditionally(() => translateExpr(result, bound.scope, unit))})`;
  };
  let out = branch(expr.defaultVar, expr.start, expr.default);
  for (let i = expr.cases.length - 1; i >= 0; i--) {
    const clause = expr.cases[i];
    const test = clause.types.map((t) => `${v} instance of ${translateSequenceType(t, scope)}`).join(' or ');
    out = `if (${test}) then ${branch(clause.variable, clause.start, clause.result)} else ${out}`;
  }
  return `(let ${v} := ${translateExpr(expr.operand, scope, unit)} return ${out})`;
}

/**
 * saxon-js 2.7 keeps only the first item of fn:error's third argument and drops the prefix of
 * the error QName. A call of fn:error that wants both exact passes `errorEnvelope(code, value)`
 * as the third argument: a map the catch clause unwraps into `$err:code` and `$err:value`.
 */
export const ERROR_ENVELOPE_KEY = `${braced(NS.gen)}error`;

/** XPath of the envelope for fn:error's third argument (see ERROR_ENVELOPE_KEY). */
export function errorEnvelope(code: string, value: string): string {
  return `map{${xpathString(ERROR_ENVELOPE_KEY)}: true(), "code": ${code}, "value": ${value}}`;
}

/** XSLT error codes saxon raises for XQuery errors (as in engine.ts), and the XQuery code. */
const XSLT_CODES: Readonly<Record<string, string>> = {
  XTTE0570: 'XPTY0004',
  XTTE0590: 'XPTY0004',
  XTTE0780: 'XPTY0004',
  XTTE0790: 'XPTY0004',
  XTDE0640: 'XQDY0054',
  XTDE0700: 'XPDY0002',
};

/** XPath: saxon's `$err:code` with XSLT codes mapped to the XQuery ones. */
const SAXON_CODE = (() => {
  const c = `$${braced(NS.err)}code`;
  const entries = Object.entries(XSLT_CODES).map(([k, v]) => `${xpathString(k)}: ${xpathString(v)}`).join(', ');
  return `(let $${braced(NS.vars)}m := map{${entries}}(${braced(NS.fn)}local-name-from-QName(${c})) return if (${c} instance of xs:QName and ${braced(NS.fn)}namespace-uri-from-QName(${c}) eq ${xpathString(NS.err)} and ${braced(NS.fn)}exists($${braced(NS.vars)}m)) then ${braced(NS.fn)}QName(${xpathString(NS.err)}, "err:" || $${braced(NS.vars)}m)
    else if (${c} instance of xs:QName and ${braced(NS.fn)}namespace-uri-from-QName(${c}) eq ${xpathString(NS.err)}) then ${braced(NS.fn)}QName(${xpathString(NS.err)}, "err:" || ${braced(NS.fn)}local-name-from-QName(${c})) else ${c})`;
})();

const XSLT_VALUE = `$${braced(NS.err)}value`;
const ENVELOPED = `(${XSLT_VALUE} instance of map(*) and ${braced(NS.map)}contains(${XSLT_VALUE}, ${xpathString(ERROR_ENVELOPE_KEY)}))`;

/**
 * Where a try expression's errors are reported to its catch clauses (`$err:line-number`,
 * `$err:column-number`): the start of its body in the query. XSLT's own values are lines of the
 * generated stylesheet or of the runtime library, which the query does not have; saxon-js keeps
 * no position inside an expression, so the body's start is the nearest position the query has.
 */
interface ErrorPosition {
  readonly line: number;
  readonly column: number;
}

/** The err: variables of a catch clause, with the XPath value of each. */
const ERR_VARIABLES: readonly { local: string; value: (at: ErrorPosition) => string }[] = [
  // the envelope's code, else saxon's mapped: SAXON_CODE written once, as it is the longest part
  // of a catch clause, and the compile time of a stylesheet grows with its length
  { local: 'code', value: () => `((if (${ENVELOPED}) then ${XSLT_VALUE}?code else ()), ${SAXON_CODE})[1]` },
  { local: 'description', value: () => `$${braced(NS.err)}description` },
  { local: 'value', value: () => `(if (${ENVELOPED}) then ${XSLT_VALUE}?value else ${XSLT_VALUE})` },
  { local: 'module', value: () => `$${braced(NS.err)}module` },
  { local: 'line-number', value: (at) => String(at.line) },
  { local: 'column-number', value: (at) => String(at.column) },
  { local: 'additional', value: () => '()' },
];

/** The position `ERR_VARIABLES` report for the errors of `expr`'s body. */
function errorPosition(expr: TryCatchExpr, scope: Scope): ErrorPosition {
  return lineColumn(scope.ctx.source, expr.body.expr?.start ?? expr.body.start);
}

function translateTryCatch(expr: TryCatchExpr, scope: Scope, unit: TranslationUnit): string {
  if (scope.ctx.tryAsCall) return tryCall(expr, scope, unit);
  const focus = needsFocus(expr);
  const inner = liftScope(scope, focus);
  const body = expr.body.expr ? translateExpr(expr.body.expr, inner, unit) : '()';
  const lines = [`<xsl:try>`, `${unit.marker(expr.body)}<xsl:sequence select="${xmlAttr(body)}"/>`];
  const at = errorPosition(expr, scope);
  for (const clause of expr.catches) lines.push(scope.ctx.conditionally(() => catchClause(clause, at, inner, unit)));
  lines.push('</xsl:try>');
  return liftFunction(unit, scope, lines.join('\n'), focus, expr);
}

function catchClause(clause: CatchClause, at: ErrorPosition, scope: Scope, unit: TranslationUnit): string {
  const errors = clause.tests.map((t) => nameTest(t, scope)).join(' ');
  let inner = scope;
  const bindings: string[] = [];
  for (const v of ERR_VARIABLES) {
    const bound = inner.bind({ uri: NS.err, local: v.local }, clause.start);
    inner = bound.scope;
    bindings.push(`<xsl:variable name="${xmlAttr(bound.variable.param)}" select="${xmlAttr(v.value(at))}"/>`);
  }
  const body = clause.body.expr ? translateExpr(clause.body.expr, inner, unit) : '()';
  return [
    `${unit.marker(clause)}<xsl:catch errors="${xmlAttr(errors)}">`,
    ...bindings,
    `${unit.marker(clause.body)}<xsl:sequence select="${xmlAttr(body)}"/>`,
    '</xsl:catch>',
  ].join('\n');
}

/** The runtime library's try/catch (see the module comment). */
export const TRY_FUNCTION = `${braced(NS.gen)}lib.try`;

/** XSLT's err variables, in the order lib.try passes them to the handler. */
const XSLT_ERR = ['code', 'description', 'value', 'module', 'line-number', 'column-number'].map((local) => `$${braced(NS.err)}${local}`);

/** The text of lib.try, a declaration of the runtime library. */
export function tryFunctionText(): string {
  const V = braced(NS.vars);
  return [
    `<xsl:function name="${TRY_FUNCTION}">`,
    `<xsl:param name="${V}body" as="function(*)"/>`,
    `<xsl:param name="${V}catch" as="function(*)"/>`,
    '<xsl:try>',
    `<xsl:sequence select="$${V}body()"/>`,
    `<xsl:catch errors="*"><xsl:sequence select="$${V}catch(${XSLT_ERR.join(', ')})"/></xsl:catch>`,
    '</xsl:try>',
    '</xsl:function>',
  ].join('\n');
}

function tryCall(expr: TryCatchExpr, scope: Scope, unit: TranslationUnit): string {
  scope.ctx.triedAsCall = true;
  let inner = scope;
  const lets: string[] = [];
  if (needsFocus(expr) && scope.focus.kind === 'native') {
    const [item, position, last] = ['item', 'position', 'last'].map((what) => tempName(scope, `try.${what}`));
    lets.push(`${item} := .`, `${position} := ${F}position()`, `${last} := ${F}last()`);
    inner = scope.withFocus({ kind: 'params', item, position, last });
  }
  const body = expr.body.expr ? translateExpr(expr.body.expr, inner, unit) : '()';
  let handler = `${F}error(${XSLT_ERR[0]}, ${XSLT_ERR[1]}, ${XSLT_ERR[2]})`;
  const at = errorPosition(expr, scope);
  for (let i = expr.catches.length - 1; i >= 0; i--) {
    const clause = expr.catches[i];
    const test = clause.tests.map((t) => catchTest(t, inner)).join(' or ');
    handler = `if (${test}) then (${scope.ctx.conditionally(() => catchBody(clause, at, inner, unit))}) else ${handler}`;
  }
  const call = unit.callLibrary(TRY_FUNCTION, tryFunctionText(), `function() { ${body} }, function(${XSLT_ERR.join(', ')}) { ${handler} }`);
  return lets.length > 0 ? `(let ${lets.join(', ')} return ${call})` : call;
}

/**
 * A catch clause's body with the err variables it may name bound, in lib.try's handler: a `let`
 * is evaluated (and parsed on each run of the library) where an `xsl:variable` is not, so only
 * those whose local name a variable reference of the body has. By local name alone: a prefix
 * may be bound by a constructor inside the body (`<e a="{$e:code}" xmlns:e="…"/>`), and an
 * unneeded binding is harmless.
 */
function catchBody(clause: CatchClause, at: ErrorPosition, scope: Scope, unit: TranslationUnit): string {
  const names = (local: string): boolean => someNode(clause.body, (node) => node.kind === 'VarRef' && node.name.local === local);
  let inner = scope;
  const bindings: string[] = [];
  for (const v of ERR_VARIABLES) {
    if (!names(v.local)) continue;
    const bound = inner.bind({ uri: NS.err, local: v.local }, clause.start);
    inner = bound.scope;
    bindings.push(`${bound.variable.ref} := ${v.value(at)}`);
  }
  const body = clause.body.expr ? translateExpr(clause.body.expr, inner, unit) : '()';
  return bindings.length > 0 ? `let ${bindings.join(', ')} return (${body})` : body;
}

/** XPath: whether XSLT's `$err:code` matches a catch clause's name test (as `nameTest` tokens match it). */
function catchTest(t: NameTest | Wildcard, scope: Scope): string {
  const code = XSLT_ERR[0];
  if (t.kind === 'NameTest') {
    const qn = scope.elementName(t.name, t.start);
    return `${code} = (${withAliases(qn).map((local) => `${F}QName(${xpathString(qn.uri)}, ${xpathString(local)})`).join(', ')})`;
  }
  if (t.local !== undefined) return `${F}local-name-from-QName(${code}) eq ${xpathString(t.local)}`;
  const uri = t.uri ?? (t.prefix !== undefined ? scope.resolvePrefix(t.prefix, t.start) : undefined);
  return uri === undefined ? `${F}true()` : `${F}namespace-uri-from-QName(${code}) eq ${xpathString(uri)}`;
}

/** The local names a catch clause's name test `qn` matches: its own, and the XSLT codes saxon raises for it. */
function withAliases(qn: { uri: string; local: string }): string[] {
  return qn.uri === NS.err ? [qn.local, ...Object.keys(XSLT_CODES).filter((k) => XSLT_CODES[k] === qn.local)] : [qn.local];
}

/** An XQuery catch name test as XSLT `errors` tokens (EQName syntax); XSLT aliases included. */
function nameTest(t: NameTest | Wildcard, scope: Scope): string {
  if (t.kind === 'NameTest') {
    const qn = scope.elementName(t.name, t.start);
    return withAliases(qn).map((local) => eqname({ uri: qn.uri, local })).join(' ');
  }
  if (t.local !== undefined) return localWildcard(t.local);
  if (t.uri !== undefined) return uriWildcard(t.uri);
  if (t.prefix !== undefined) return uriWildcard(scope.resolvePrefix(t.prefix, t.start));
  return '*';
}
