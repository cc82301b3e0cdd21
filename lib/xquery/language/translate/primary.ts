/**
 * Primary and postfix expressions: literals, variable references, parentheses, the context
 * item, function calls, references and arrows (functions.ts), maps, arrays, lookups, string
 * constructors, ordered/unordered, extension and validate expressions. (`if` is translated in
 * conditional.ts and `some`/`every` in flwor/flwor.ts, as the parser's files hold them.)
 */
import type { Expr, KeySpecifier } from '../syntax';
import { translateExpr } from './expressions';
import { translateArrow, translateDynamicCall, translateFunctionCall, translateInlineFunction, translateNamedFunctionRef } from './functions';
import { NS, xpathString } from './names';
import type { Scope } from './scope';
import type { TranslationUnit } from './unit';
import { braced } from './emit';

export type PrimaryExpr = Extract<
  Expr,
  {
    kind:
      | 'ArrowExpr'
      | 'ValidateExpr'
      | 'ExtensionExpr'
      | 'DynamicFunctionCall'
      | 'Lookup'
      | 'UnaryLookup'
      | 'IntegerLiteral'
      | 'DecimalLiteral'
      | 'DoubleLiteral'
      | 'StringLiteral'
      | 'VarRef'
      | 'ParenthesizedExpr'
      | 'ContextItemExpr'
      | 'FunctionCall'
      | 'NamedFunctionRef'
      | 'InlineFunctionExpr'
      | 'MapConstructor'
      | 'SquareArrayConstructor'
      | 'CurlyArrayConstructor'
      | 'OrderedExpr'
      | 'UnorderedExpr'
      | 'StringConstructor';
  }
>;

export function translatePrimary(expr: PrimaryExpr, scope: Scope, unit: TranslationUnit): string {
  const t = (e: Expr | null): string => (e ? translateExpr(e, scope, unit) : '()');
  switch (expr.kind) {
    case 'IntegerLiteral':
    case 'DecimalLiteral':
    case 'DoubleLiteral':
      return scope.ctx.literals.reference(expr) ?? expr.value;
    case 'StringLiteral':
      return scope.ctx.literals.reference(expr) ?? xpathString(expr.value);
    case 'VarRef':
      return scope.lookupVariable(expr.name, expr.start).ref;
    case 'ParenthesizedExpr':
      return `(${t(expr.expr)})`;
    case 'ContextItemExpr':
      return contextItem(scope);
    case 'FunctionCall':
      return translateFunctionCall(expr, scope, unit);
    case 'NamedFunctionRef':
      return translateNamedFunctionRef(expr, scope, unit);
    case 'InlineFunctionExpr':
      return translateInlineFunction(expr, scope, unit);
    case 'DynamicFunctionCall':
      return translateDynamicCall(expr, scope, unit);
    case 'ArrowExpr':
      return translateArrow(expr, scope, unit);
    case 'MapConstructor':
      return `map{${expr.entries.map((e) => `(${t(e.key)}) : (${t(e.value)})`).join(', ')}}`;
    case 'SquareArrayConstructor':
      return `[${expr.members.map((m) => `(${t(m)})`).join(', ')}]`;
    case 'CurlyArrayConstructor':
      return `array{${t(expr.expr)}}`;
    case 'Lookup':
      return lookup(`(${t(expr.base)})`, expr.key, scope, unit);
    case 'UnaryLookup': {
      const focus = scope.focus;
      return lookup(focus.kind === 'params' || focus.kind === 'value' ? `(${focus.item})` : '.', expr.key, scope, unit);
    }
    case 'OrderedExpr':
    case 'UnorderedExpr':
      return `(${t(expr.expr)})`;
    case 'StringConstructor':
      return stringConstructor(expr.parts, scope, unit);
    case 'ExtensionExpr':
      for (const p of expr.pragmas) {
        if (p.name.prefix !== undefined && p.name.prefix !== '') scope.resolvePrefix(p.name.prefix, p.start);
        else if (p.name.uri === undefined) throw scope.error('XPST0081', p.start, '');
      }
      if (!expr.expr) throw scope.error('XQST0079', expr.start);
      return `(${t(expr.expr)})`;
    case 'ValidateExpr':
      throw scope.error('XQST0075', expr.start);
  }
}

/** `.` where the focus is. */
export function contextItem(scope: Scope): string {
  const focus = scope.focus;
  switch (focus.kind) {
    case 'absent':
    case 'native':
      return '.';
    case 'params':
    case 'value':
      return `(${focus.item})`;
  }
}

/**
 * `base?key`. A parenthesized key is atomized and, for an array, an xs:untypedAtomic key is
 * cast to xs:integer (XPath 3.1 §3.11.3.1: the function conversion rules of `$array($k)`);
 * saxon-js 2.7 does neither, so that form is spelled out per base item.
 */
function lookup(base: string, key: KeySpecifier, scope: Scope, unit: TranslationUnit): string {
  switch (key.type) {
    case 'name':
      return `${base}?${key.name}`;
    case 'integer':
      return `${base}?${key.value}`;
    case 'wildcard':
      return `${base}?*`;
    case 'expr': {
      if (!key.expr.expr) return `${base}?()`;
      const id = scope.ctx.nextId();
      const [keys, b, k] = [`$${braced(NS.vars)}lookup-keys.${id}`, `$${braced(NS.vars)}lookup-base.${id}`, `$${braced(NS.vars)}lookup-key.${id}`];
      const arrayKey = `(if (${k} instance of ${braced(NS.xs)}untypedAtomic) then ${braced(NS.xs)}integer(${k}) else ${k})`;
      return (
        `(let ${keys} := ${braced(NS.fn)}data(${translateExpr(key.expr.expr, scope, unit)}) return ` +
        `for ${b} in ${base} return if (${b} instance of array(*)) then (for ${k} in ${keys} return ${b}?(${arrayKey})) else ${b}?(${keys}))`
      );
    }
  }
}

function stringConstructor(parts: Extract<Expr, { kind: 'StringConstructor' }>['parts'], scope: Scope, unit: TranslationUnit): string {
  const pieces = parts.map((p) =>
    p.kind === 'StringConstructorChars'
      ? xpathString(p.value)
      : p.expr
        ? `${braced(NS.fn)}string-join(${braced(NS.fn)}data(${translateExpr(p.expr, scope, unit)}), " ")`
        : '""',
  );
  return `${braced(NS.fn)}string-join((${pieces.join(', ')}), "")`;
}
