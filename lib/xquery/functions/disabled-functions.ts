/**
 * Functions a query may name but not use, in the engine's namespace; the translator sends the
 * fn function here (translate/functions.ts):
 * - `Q{urn:xmldb-rest:engine}transform($options)` for fn:transform: FOXT0004, "the
 *   transformation has been disabled for security reasons" (F&O 3.1 §17.5.4). A stylesheet
 *   of the query's choosing would be compiled without the translator's allow-list.
 * Raised when called, not when compiled: a call in a branch that never runs is no error.
 */
import { ENGINE_NS } from '../constants';
import { registerFunctions, xpathError } from '../../saxon';

/** Registers the refusing engine:transform with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerDisabledFunctions(): void {
  registerFunctions(ENGINE_NS, {
    transform: {
      sig: '1F r[1FM] a[1FM]',
      impl: () => {
        throw xpathError('fn:transform is disabled: queries may not run stylesheets.', 'FOXT0004');
      },
    },
  });
}
