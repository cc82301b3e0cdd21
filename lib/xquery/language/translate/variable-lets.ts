/**
 * The prolog's variables bound around the query body, once the body is translated: the external
 * variables as `let` bindings of their parameters (with their defaults and conversions), and the
 * global variables with a value as `let` bindings inside those (TranslationUnit.withGlobals), or
 * as `xsl:variable`s where a binding would change what the query does. A query whose variables
 * are all bindings may run as one expression, without a stylesheet of its own (translation.ts).
 *
 * saxon-js evaluates a `let` binding of an XPath expression when it is bound; an `xsl:param` or
 * `xsl:variable` when it is read. So a variable is a binding only where the body is certain to
 * read it (its errors are then raised either way), or where making its value cannot fail.
 */
import { everyMember, isLiteral, type VarDecl } from '../syntax';
import { xmlAttr } from './names';
import type { ExternalVariable, GlobalValue } from './prolog';
import { variableKey, type Scope } from './scope';
import type { TranslationUnit } from './unit';

/** The declaration key under which the query body's references are noted (StaticContext.noteDependency). */
export const BODY_DECLARATION = '#body';

/**
 * Binds the prolog's variables around the body: answers the `let` bindings of the external
 * variables (none when there are none), or undefined when the query needs its stylesheet for its
 * variables; declares the globals as bindings (`declareGlobals`) or as `xsl:variable`s.
 */
export function bindVariables(globals: readonly GlobalValue[], externals: readonly ExternalVariable[], scope: Scope, unit: TranslationUnit): string[] | undefined {
  const read = reachable(scope.ctx.dependencies, BODY_DECLARATION);
  const lets = externalLets(externals, read, scope);
  return declareGlobals(globals, externals, lets, read, scope, unit) ? lets : undefined;
}

/**
 * The `let` bindings of the external variables, or undefined when the query needs its stylesheet
 * for them: a type only the stylesheet converts (`ExternalVariable.value` null), a default that
 * reads a later or a global variable (the globals are bound inside these bindings), or a default
 * or conversion the body might not need (`read`: what it is certain to read).
 */
function externalLets(externals: readonly ExternalVariable[], read: ReadonlySet<string>, scope: Scope): string[] | undefined {
  const earlier = new Set<string>();
  const lets: string[] = [];
  for (const x of externals) {
    if (x.value === null) return undefined;
    const key = variableKey(x);
    if (x.value !== undefined) {
      if (!read.has(key) || !readsOnly(key, earlier, scope)) return undefined;
      lets.push(`$${x.param} := ${x.value}`);
    }
    earlier.add(key);
  }
  return lets;
}

/**
 * Declares the global variables with a value: as bindings when the translation would otherwise
 * need no stylesheet of its own (no declared or generated functions, which read globals
 * directly), the external variables are bindings (`externalLets`; the globals are bound inside
 * them, so an initializer may read any external variable), each initializer reads only variables
 * bound before it, and the body is certain to read each of them (`read`), itself or through
 * another, unless its value cannot fail (`failsNever`). Otherwise as `xsl:variable`s, which may
 * refer to each other in any order (XQuery 3.1 §5.16). Answers whether they are bindings (true
 * when there are none).
 */
function declareGlobals(
  values: readonly GlobalValue[],
  externals: readonly ExternalVariable[],
  externalLets: readonly string[] | undefined,
  read: ReadonlySet<string>,
  scope: Scope,
  unit: TranslationUnit,
): boolean {
  if (values.length === 0) return true;
  // the external variables, bound around the globals, come before every one of them
  const earlier = new Set<string>(externalLets === undefined ? [] : externals.map(variableKey));
  const inOrder = values.every((v) => {
    const ok = readsOnly(v.key, earlier, scope);
    earlier.add(v.key);
    return ok;
  });
  // a declared or generated function reads globals directly: it needs them as xsl:variables (and makes a stylesheet anyway)
  const asLets = externalLets !== undefined && unit.libraryOnly() !== undefined && inOrder && values.every((v) => read.has(v.key) || failsNever(v.decl));
  for (const v of values) {
    if (asLets) unit.addGlobalLet(v.param, v.value);
    else unit.addDeclaration(`<xsl:variable name="${xmlAttr(v.param)}" select="${xmlAttr(v.value)}"/>`, v.decl);
  }
  return asLets;
}

/**
 * Whether evaluating the declared variable can neither fail nor cost anything worth saving: no
 * type to check, and literals for its value (one, several, or none). Such a variable is a binding
 * even where the body might not read it: that its value is made when bound is not observable.
 */
function failsNever(decl: VarDecl): boolean {
  return decl.type === null && decl.value !== null && everyMember(decl.value, isLiteral);
}

/** Whether declaration `key` refers to no variable but those in `earlier` (functions it may). */
function readsOnly(key: string, earlier: ReadonlySet<string>, scope: Scope): boolean {
  for (const r of scope.ctx.references.get(key) ?? []) if (r.startsWith('$') && !earlier.has(r)) return false;
  return true;
}

/** The declarations `from`'s evaluation certainly reaches: its certain dependencies, transitively (`from` itself only through a cycle). */
export function reachable(dependencies: ReadonlyMap<string, ReadonlySet<string>>, from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...(dependencies.get(from) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(dependencies.get(next) ?? []));
  }
  return seen;
}
