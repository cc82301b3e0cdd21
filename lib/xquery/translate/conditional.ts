/**
 * switch, typeswitch (pure XPath) and try/catch (lifted into `xsl:try`).
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
 *   `$err:line-number`, `$err:column-number`, `$err:additional` are bound from XSLT's own.
 */
import type { CatchClause, EQName, NameTest, SwitchExpr, TryCatchExpr, TypeswitchExpr, Wildcard } from '../syntax';
import { translateExpr } from './expressions';
import { needsFocus } from './focus';
import { liftFunction, liftScope } from './lift';
import { NS, xmlAttr, xpathString } from './names';
import type { Scope } from './scope';
import { translateSequenceType } from './types';
import type { TranslationUnit } from './unit';

export type ConditionalExpr = SwitchExpr | TypeswitchExpr | TryCatchExpr;

const F = `Q{${NS.fn}}`;

/** Translates typeswitch, switch or try/catch to an XPath expression. */
export function translateConditional(expr: ConditionalExpr, scope: Scope, unit: TranslationUnit): string {
  switch (expr.kind) {
    case 'SwitchExpr':
      return translateSwitch(expr, scope, unit);
    case 'TypeswitchExpr':
      return translateTypeswitch(expr, scope, unit);
    case 'TryCatchExpr':
      return translateTryCatch(expr, scope, unit);
  }
}

function tempName(scope: Scope, what: string): string {
  return `$Q{${NS.vars}}${what}.${scope.ctx.nextId()}`;
}

const xpty0004 = (message: string): string => `${F}error(${F}QName(${xpathString(NS.err)}, "XPTY0004"), ${xpathString(message)})`;

function translateSwitch(expr: SwitchExpr, scope: Scope, unit: TranslationUnit): string {
  const v = tempName(scope, 'switch');
  const c = tempName(scope, 'case');
  const one = (operand: string): string =>
    `(let ${c} := ${F}data(${operand}) return if (${F}count(${c}) gt 1) then ${xpty0004('A switch case operand must be a single atomic value.')} else ${c})`;
  let out = `(${translateExpr(expr.default, scope, unit)})`;
  for (let i = expr.cases.length - 1; i >= 0; i--) {
    const clause = expr.cases[i];
    const test = clause.operands.map((o) => `${F}deep-equal(${v}, ${one(translateExpr(o, scope, unit))})`).join(' or ');
    out = `if (${test}) then (${translateExpr(clause.result, scope, unit)}) else ${out}`;
  }
  const operand = `${F}data(${translateExpr(expr.operand, scope, unit)})`;
  return `(let ${v} := ${operand} return if (${F}count(${v}) gt 1) then ${xpty0004('The switch operand must be a single atomic value.')} else ${out})`;
}

function translateTypeswitch(expr: TypeswitchExpr, scope: Scope, unit: TranslationUnit): string {
  const v = tempName(scope, 'typeswitch');
  const branch = (name: EQName | null, offset: number, result: typeof expr.default): string => {
    if (!name) return `(${translateExpr(result, scope, unit)})`;
    const bound = scope.bind(name, offset);
    return `(let ${bound.variable.ref} := ${v} return ${translateExpr(result, bound.scope, unit)})`;
  };
  let out = branch(expr.defaultVar, expr.start, expr.default);
  for (let i = expr.cases.length - 1; i >= 0; i--) {
    const clause = expr.cases[i];
    const test = clause.types.map((t) => `${v} instance of ${translateSequenceType(t, scope)}`).join(' or ');
    out = `if (${test}) then ${branch(clause.variable, clause.start, clause.result)} else ${out}`;
  }
  return `(let ${v} := ${translateExpr(expr.operand, scope, unit)} return ${out})`;
}

/** The err: variables of a catch clause, with XSLT's value for each. */
const ERR_VARIABLES: readonly { local: string; xslt: string }[] = [
  { local: 'code', xslt: `$Q{${NS.err}}code` },
  { local: 'description', xslt: `$Q{${NS.err}}description` },
  { local: 'value', xslt: `$Q{${NS.err}}value` },
  { local: 'module', xslt: `$Q{${NS.err}}module` },
  { local: 'line-number', xslt: `$Q{${NS.err}}line-number` },
  { local: 'column-number', xslt: `$Q{${NS.err}}column-number` },
  { local: 'additional', xslt: '()' },
];

function translateTryCatch(expr: TryCatchExpr, scope: Scope, unit: TranslationUnit): string {
  const focus = needsFocus(expr);
  const inner = liftScope(scope, focus);
  const body = expr.body.expr ? translateExpr(expr.body.expr, inner, unit) : '()';
  const lines = [`<xsl:try>`, `${unit.marker(expr.body)}<xsl:sequence select="${xmlAttr(body)}"/>`];
  for (const clause of expr.catches) lines.push(catchClause(clause, inner, unit));
  lines.push('</xsl:try>');
  return liftFunction(unit, scope, lines.join('\n'), focus, expr);
}

function catchClause(clause: CatchClause, scope: Scope, unit: TranslationUnit): string {
  const errors = clause.tests.map((t) => nameTest(t, scope)).join(' ');
  let inner = scope;
  const bindings: string[] = [];
  for (const v of ERR_VARIABLES) {
    const bound = inner.bind({ uri: NS.err, local: v.local }, clause.start);
    inner = bound.scope;
    bindings.push(`<xsl:variable name="${xmlAttr(bound.variable.param)}" select="${xmlAttr(v.xslt)}"/>`);
  }
  const body = clause.body.expr ? translateExpr(clause.body.expr, inner, unit) : '()';
  return [
    `${unit.marker(clause)}<xsl:catch errors="${xmlAttr(errors)}">`,
    ...bindings,
    `${unit.marker(clause.body)}<xsl:sequence select="${xmlAttr(body)}"/>`,
    '</xsl:catch>',
  ].join('\n');
}

/** An XQuery catch name test as an XSLT `errors` token (EQName syntax). */
function nameTest(t: NameTest | Wildcard, scope: Scope): string {
  if (t.kind === 'NameTest') {
    const qn = scope.elementName(t.name, t.start);
    return `Q{${qn.uri}}${qn.local}`;
  }
  if (t.local !== undefined) return `*:${t.local}`;
  if (t.uri !== undefined) return `Q{${t.uri}}*`;
  if (t.prefix !== undefined) return `Q{${scope.resolvePrefix(t.prefix, t.start)}}*`;
  return '*';
}
