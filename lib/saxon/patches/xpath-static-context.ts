/**
 * Source patch (saxon-js 2.7.0), applied with the other source patches (source.ts): compiling an
 * XPath expression for a stylesheet no longer builds a static context it throws away.
 *
 * saxon-js's XPath compiler (`compile` of its XPath module in SaxonJS2N.js) starts the static
 * context's functions and variables from the components of the running package, then, when the
 * caller gives the stylesheet's own functions (`globalFunctions`), replaces them with a table of
 * those. The built-in XSLT compiler gives them for every expression of a stylesheet it compiles,
 * and its own package has thousands of components: the table that was thrown away cost about 4 %
 * of compiling a query. The patched condition builds the package's table only when no functions
 * are given, which is the only case that uses it. The original text is found character for
 * character, or the patch throws.
 */
import { replaceOnce } from './replace-once';

/** saxon-js 2.7.0: the package's table `e(m.fixed.xa)`, then `m` set to the given functions. */
const ORIGINAL = 'if(!c.globalContext&&(d.Ta=e(m.fixed.xa),m=c.globalFunctions)){';

/** The same, with the package's table built only when no functions are given. */
const PATCHED = 'if(!c.globalContext&&(c.globalFunctions?(m=c.globalFunctions,!0):(d.Ta=e(m.fixed.xa),!1))){';

/** `source` (SaxonJS2N.js of 2.7.0) without the discarded static context; throws for another text. */
export function patchXPathStaticContext(source: string): string {
  return replaceOnce(source, ORIGINAL, PATCHED, 'saxon-js XPath static context patch: the static context set-up of saxon-js 2.7.0 was not found; review lib/saxon/patches/xpath-static-context.ts for this saxon-js version');
}
