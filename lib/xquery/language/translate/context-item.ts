/**
 * `declare context item` (XQuery 3.1 §4.17, §5.12 in a main module).
 *
 * - `declare context item := E` (not external): the value of E is the initial context item,
 *   whatever context the request supplies (a database, `context` documents);
 * - `declare context item external := E`: the request's context if it supplies one, else E;
 * - `declare context item external`: the request's context (none: XPDY0002 where `.` is used).
 * A declared value is bound to a global variable (`CONTEXT_ITEM`) that becomes the focus of the
 * query body and of global variable initializers; it must be exactly one item of the declared
 * item type (`as T`, default `item()`), else XPTY0004. A request context document is checked
 * against the declared type too. The initializer itself has no focus (XPDY0002). More than one
 * declaration is XQST0099.
 */
import type { ContextItemDecl, Prolog } from '../syntax';
import { translateExpr } from './expressions';
import { NS, xmlAttr } from './names';
import type { Focus, Scope } from './scope';
import { checkedValue, translateItemType } from './types';
import type { TranslationUnit } from './unit';
import { braced } from './emit';

/** The global variable that holds a declared context item. */
const CONTEXT_ITEM = `${braced(NS.gen)}context-item`;

/** The focus on a declared context item. */
export const DECLARED_CONTEXT_FOCUS: Focus = { kind: 'params', item: `$${CONTEXT_ITEM}`, position: '1', last: '1' };

/** The prolog's context item declaration, if any (XQST0099 for a second one). */
export function contextItemDecl(prolog: Prolog, scope: Scope): ContextItemDecl | undefined {
  const decls = prolog.decls.filter((d): d is ContextItemDecl => d.kind === 'ContextItemDecl');
  if (decls.length > 1) throw scope.error('XQST0099', decls[1].start);
  return decls[0];
}

/** Whether the declared value, not the request, gives the context item. */
export function usesDeclaredValue(decl: ContextItemDecl | undefined, requestHasContext: boolean): boolean {
  return decl !== undefined && decl.value !== null && (!decl.external || !requestHasContext);
}

/** The declared item type, as XPath (`item()` when none is declared). */
export function contextItemType(decl: ContextItemDecl | undefined, scope: Scope): string {
  return decl?.type ? translateItemType(decl.type, scope) : 'item()';
}

/** Declares CONTEXT_ITEM with the checked value of `decl` (after the prolog is translated). */
export function declareContextItem(decl: ContextItemDecl, scope: Scope, unit: TranslationUnit): void {
  const value = translateExpr(decl.value!, scope.withFocus({ kind: 'absent' }), unit);
  const checked = checkedValue(value, contextItemType(decl, scope), 'The context item');
  unit.addDeclaration(`<xsl:variable name="${CONTEXT_ITEM}" select="${xmlAttr(checked)}"/>`, decl);
}
