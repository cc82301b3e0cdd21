/**
 * Lifting: how a construct that XPath cannot express becomes a generated `xsl:function`
 * whose body uses XSLT instructions, called from the XPath at the use site.
 *
 * Recipe for a construct family (constructors, try/catch, order by, …):
 *
 *   const focus = needsFocus(expr);                   // focus.ts; or true to be safe
 *   const inner = liftScope(scope, focus);            // the scope the body is translated in
 *   const body = `<xsl:sequence select="${xmlAttr(translateExpr(e, inner, unit))}"/>` …;
 *   return liftFunction(unit, scope, body, focus);    // the XPath call for the use site
 *
 * - Every visible local variable becomes a parameter of the same generated name, so the body
 *   refers to them exactly as the use site does (`variable.ref`). Globals need nothing.
 * - The focus: if the body needs it and the use site has one, the context item, position and
 *   last are passed as three more parameters and `inner.focus` is `{kind: 'params'}` naming
 *   them; in the body, re-establish a native focus with `<xsl:for-each select="{focus.item}">`
 *   and translate inside it with `scope.withFocus({kind: 'native'})` (position()/last() then
 *   are 1/1: keep using `focus.position`/`focus.last` from the params scope where the
 *   XQuery position is meant). An absent focus stays absent; a `value` focus (a global
 *   context) needs no parameters.
 * - `liftScope` and `liftFunction` must get the same `scope` and `needsFocus`.
 * - Put `unit.marker(span)` comments on body lines to sharpen error positions.
 */
import { xmlAttr } from './names';
import type { Focus, Scope } from './scope';
import type { TranslationUnit } from './unit';
import { NS } from './names';
import { braced } from './emit';

/** Parameter names of a lifted function's focus. */
export const FOCUS_PARAMS = {
  item: `${braced(NS.vars)}focus.item`,
  position: `${braced(NS.vars)}focus.position`,
  last: `${braced(NS.vars)}focus.last`,
} as const;

/** The focus of the body of a lifted function. */
function innerFocus(outer: Focus, needsFocus: boolean): Focus {
  if (!needsFocus) return { kind: 'absent' };
  switch (outer.kind) {
    case 'absent':
    case 'value':
      return outer;
    case 'native':
    case 'params':
      return { kind: 'params', item: `$${FOCUS_PARAMS.item}`, position: `$${FOCUS_PARAMS.position}`, last: `$${FOCUS_PARAMS.last}` };
  }
}

/** The focus arguments at the use site, in parameter order. */
function focusArgs(outer: Focus, needsFocus: boolean): string[] {
  if (!needsFocus) return [];
  switch (outer.kind) {
    case 'absent':
    case 'value':
      return [];
    case 'native':
      return ['.', 'position()', 'last()'];
    case 'params':
      return [outer.item, outer.position, outer.last];
  }
}

/** The scope in which to translate the body of a function lifted from `scope`. */
export function liftScope(scope: Scope, needsFocus: boolean): Scope {
  return scope.withFocus(innerFocus(scope.focus, needsFocus));
}

/**
 * Emits an `xsl:function` with body `bodyXslt` (XSLT instructions) and returns the XPath that
 * calls it from `scope`: `Q{urn:xmldb-rest:gen}fN($v1, $v2, ., position(), last())`.
 */
export function liftFunction(unit: TranslationUnit, scope: Scope, bodyXslt: string, needsFocus: boolean, span?: { start: number; end: number }): string {
  const name = unit.newFunctionName();
  const locals = scope.locals();
  const fargs = focusArgs(scope.focus, needsFocus);
  const params = locals.map((v) => `<xsl:param name="${xmlAttr(v.param)}"/>`);
  if (fargs.length === 3) {
    params.push(`<xsl:param name="${FOCUS_PARAMS.item}"/>`, `<xsl:param name="${FOCUS_PARAMS.position}"/>`, `<xsl:param name="${FOCUS_PARAMS.last}"/>`);
  }
  const head = span ? unit.marker(span) : '';
  unit.addDeclaration(`${head}<xsl:function name="${name}">\n${params.join('\n')}\n${bodyXslt}\n</xsl:function>`, span ?? { start: 0, end: 0 });
  return `${name}(${[...locals.map((v) => v.ref), ...fargs].join(', ')})`;
}
