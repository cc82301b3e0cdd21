/** The explicit error for constructs the translator does not handle (never wrong output). */
import type { LocatedQueryError } from '../../static-errors';
import type { Span } from '../syntax';
import type { Scope } from './scope';

/** `[XMLR0001] Not supported yet: WHAT.` at the start of `node`. */
export function unsupported(scope: Scope, node: Span, what: string): LocatedQueryError {
  return scope.error('XMLR0001', node.start, what);
}
