/**
 * Element content written as a simple FLWOR that returns a constructor
 * (`<ul>{for $x in E where W return <li>{$x}</li>}</ul>`): built in place with
 * `xsl:for-each`/`xsl:variable`/`xsl:if`, so each constructed node goes straight into its
 * parent instead of being built by a call, returned and copied.
 *
 * Only for, let and where clauses without types, positional variables or `allowing empty`.
 * Inside a constructor body the XQuery focus is never the native one (lift.ts: parameters,
 * a value, or absent), so the `xsl:for-each` focus does not disturb it.
 */
import type { Expr, FLWORExpr } from '../../syntax';
import { translateExpr } from '../expressions';
import { xmlAttr } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';

/** Whether `e` can be built in place; `returnsInline` tells whether its return expression can. */
export function isInlineFlwor(e: Expr, returnsInline: (r: Expr) => boolean): e is FLWORExpr {
  if (e.kind !== 'FLWORExpr' || !returnsInline(e.return)) return false;
  return e.clauses.every((c) => {
    switch (c.kind) {
      case 'ForClause':
        return c.bindings.every((b) => !b.type && !b.positionalVar && !b.allowingEmpty);
      case 'LetClause':
        return c.bindings.every((b) => !b.type);
      case 'WhereClause':
        return true;
      default:
        return false;
    }
  });
}

/** The instructions of an inline FLWOR; `body` builds the return expression in its scope. */
export function inlineFlwor(e: FLWORExpr, scope: Scope, unit: TranslationUnit, body: (r: Expr, s: Scope) => string): string {
  const open: string[] = [];
  const close: string[] = [];
  let inner = scope;
  for (const c of e.clauses) {
    switch (c.kind) {
      case 'ForClause':
        for (const b of c.bindings) {
          const domain = translateExpr(b.in, inner, unit);
          const bound = inner.bind(b.name, b.start);
          open.push(`${unit.marker(b)}<xsl:for-each select="${xmlAttr(domain)}">`, `<xsl:variable name="${xmlAttr(bound.variable.param)}" select="."/>`);
          close.unshift('</xsl:for-each>');
          inner = bound.scope;
        }
        break;
      case 'LetClause':
        for (const b of c.bindings) {
          const value = translateExpr(b.value, inner, unit);
          const bound = inner.bind(b.name, b.start);
          open.push(`${unit.marker(b)}<xsl:variable name="${xmlAttr(bound.variable.param)}" select="${xmlAttr(value)}"/>`);
          inner = bound.scope;
        }
        break;
      case 'WhereClause':
        open.push(`${unit.marker(c)}<xsl:if test="${xmlAttr(translateExpr(c.test, inner, unit))}">`);
        close.unshift('</xsl:if>');
        break;
      default:
        throw new Error(`inline FLWOR: unexpected ${c.kind}`);
    }
  }
  return [...open, body(e.return, inner), ...close].join('\n');
}
