/**
 * Which functions a query may name: the translator's allow-list.
 *
 * Queries are untrusted code. saxon-js binds host JavaScript to function names in its own
 * namespaces (`http://saxonica.com/ns/globalJS`, `.../interactiveXSLT`), and the engine's
 * extension functions live in `urn:xmldb-rest:*`; a name the translator passes through reaches
 * whatever saxon-js finds under it. So a static function name (a call, a named function
 * reference, an arrow, a partial application; XQuery 3.1 §3.1.5, §3.1.6) must be:
 * - in a standard namespace: fn, math, map, array, xs (F&O 3.1 §1.1, constructor functions §18.1);
 * - in the namespace of a module this server implements (module-namespaces.ts);
 * - or a function the query declares (which never is in one of the hidden namespaces below).
 * Anything else is XPST0017, as an unknown function. fn:function-lookup obeys the same list at
 * run time (functions.ts `lookupFunction`).
 */
import { MODULE_NAMESPACES } from '../../module-namespaces';
import { INTERNAL_NAMESPACE_PREFIX, NS } from './names';

const STANDARD_NAMESPACES: readonly string[] = [NS.fn, NS.math, NS.map, NS.array, NS.xs];

/** Namespaces whose functions any query may call. */
export const CALLABLE_NAMESPACES: ReadonlySet<string> = new Set([...STANDARD_NAMESPACES, ...Object.values(MODULE_NAMESPACES)]);

/** saxon-js's own namespaces: its host bindings and extensions (`http://saxonica.com/ns/...`, `http://saxon.sf.net/`). */
const SAXON_NAMESPACE_PREFIXES: readonly string[] = ['http://saxonica.com/ns/', 'http://saxon.sf.net'];

/**
 * Whether `uri` belongs to the engine or to saxon-js: a query may neither call functions nor
 * declare functions or variables in it (XQST0045, as for the namespaces XQuery 3.1 §4.18
 * reserves), so generated names cannot be shadowed or reached.
 */
export function isHiddenNamespace(uri: string): boolean {
  return uri.startsWith(INTERNAL_NAMESPACE_PREFIX) || SAXON_NAMESPACE_PREFIXES.some((p) => uri.startsWith(p));
}

/** Whether a function in namespace `uri` may be called without being declared by the query. */
export function isCallableNamespace(uri: string): boolean {
  return CALLABLE_NAMESPACES.has(uri);
}
