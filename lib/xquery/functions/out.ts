/**
 * BaseX's Output Module (`http://basex.org/modules/out`, prefix `out`), kept for the queries written
 * for BaseX 9 that use it: BaseX 10 removed the module and moved `out:format` to `string:format`
 * (docs.basex.org, Module Library changelog, version 10). Here both names work:
 *
 *   out:cr() as xs:string        a carriage return (&#13;)
 *   out:nl() as xs:string        a newline (&#10;)
 *   out:tab() as xs:string       a tab (&#9;)
 *   out:format($pattern as xs:string, $values as item()...) as xs:string   string:format (string.ts)
 */
import { registerFunctions, stringValue } from '../../saxon';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { format, MAX_VALUES } from './string';

/** Registers the out: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerOutFunctions(): void {
  registerFunctions(MODULE_NAMESPACES.out, {
    cr: { sig: '1F r[1AS] a[]', impl: () => [stringValue('\r')] },
    nl: { sig: '1F r[1AS] a[]', impl: () => [stringValue('\n')] },
    tab: { sig: '1F r[1AS] a[]', impl: () => [stringValue('\t')] },
    format: {
      sig: `1F r[1AS] a[1AS${',*'.repeat(MAX_VALUES)}]`,
      arity: Array.from({ length: MAX_VALUES + 1 }, (_, i) => i + 1),
      impl: format,
    },
  });
}
