/**
 * Annotations of function and variable declarations, of inline functions and of function tests
 * (XQuery 3.1 §4.15, §2.5.5.7, Update Facility 3.0 §5.1): their names resolve like function names, except that an unprefixed
 * one is in the XQuery namespace (XPST0081 for an undeclared prefix). Checked statically:
 * - XQST0045: an annotation in a reserved namespace (names.ts RESERVED_NAMESPACES), except the
 *   ones the specifications define in the XQuery namespace: `%public`, `%private`, and the Update Facility's `%updating` and `%simple`;
 * - XQST0106 (functions) and XQST0116 (variables): `%public`/`%private` more than once;
 * - XQST0125: `%public`/`%private` on an inline function.
 * Any other annotation is accepted and has no effect.
 */
import type { Annotation } from '../syntax';
import { NS, RESERVED_NAMESPACES, displayName, type QName } from './names';
import type { Scope } from './scope';

const XQUERY_NS = NS.xquery;
const DEFINED = new Set(['public', 'private', 'updating', 'simple']);
const VISIBILITY = new Set(['public', 'private']);

export type AnnotatedKind = 'function' | 'variable' | 'inline function' | 'function test';

/** Checks the annotations of a declaration or inline function; returns their resolved names. */
export function checkAnnotations(annotations: readonly Annotation[], kind: AnnotatedKind, scope: Scope): QName[] {
  const names: QName[] = [];
  let visibility = false;
  for (const a of annotations) {
    const name: QName =
      a.name.uri !== undefined
        ? { uri: a.name.uri, local: a.name.local }
        : a.name.prefix
          ? { uri: scope.resolvePrefix(a.name.prefix, a.start), local: a.name.local, prefix: a.name.prefix }
          : { uri: XQUERY_NS, local: a.name.local };
    if (RESERVED_NAMESPACES.has(name.uri) && !(name.uri === XQUERY_NS && DEFINED.has(name.local))) {
      throw scope.error('XQST0045', a.start, 'Annotation', `%${displayName(name)}`);
    }
    if (name.uri === XQUERY_NS && VISIBILITY.has(name.local) && kind !== 'function test') {
      if (kind === 'inline function') throw scope.error('XQST0125', a.start, `%${name.local}`);
      if (visibility) throw scope.error(kind === 'function' ? 'XQST0106' : 'XQST0116', a.start);
      visibility = true;
    }
    names.push(name);
  }
  return names;
}
