/**
 * Source patch (saxon-js 2.7.0), applied to the script's text when it is loaded (load.ts,
 * source.ts), in every thread that loads it: unlike the runtime patches (apply.ts), what it changes is a function
 * local to the script, which no object reaches.
 *
 * Every transform begins by setting up its dynamic context from the stylesheet's SEF tree (`I` in
 * SaxonJS2N.js), and finds the tree's packages and its global context item declaration by walking
 * the whole tree, once for each of the names "package" (twice) and "glob". A compilation is a
 * transform of the built-in XSLT compiler, whose tree is large: those three walks were about 40% of
 * compiling a small query (measured: 19 ms a compilation before, 11 after, on a warm thread). A
 * query's own stylesheet is walked again on every run.
 *
 * The patched lookup walks a tree once for each name and keeps the nodes it found (by tree, in a
 * WeakMap, in the walk's order); later transforms of that tree visit the kept nodes in the same
 * order, through the same callbacks. A tree is not changed once it has run: the engine edits a
 * compiled tree only before its first run (worker/compile.ts), and saxon-js adds properties to
 * nodes, never nodes. The original walk is found character for character, or the patch throws.
 */
import { replaceOnce } from './replace-once';

/** saxon-js 2.7.0's context set-up and its lookup of the nodes named `X` in the tree `x`. */
const ORIGINAL = 'function I(x,E,B){function L(X,V){H(x,X,V)}';

/** The same lookup, kept per tree and name on the function `I` itself (no name added to the script's scope). */
const PATCHED =
  'function I(x,E,B){function L(X,V){' +
  'const walks=I.walks??=new WeakMap;' +
  'let byName=walks.get(x);if(byName===undefined)walks.set(x,byName=new Map);' +
  'let found=byName.get(X);if(found===undefined){found=[];H(x,X,function(n){found.push(n)});byName.set(X,found)}' +
  'found.forEach(function(n){V(n)})}';

/** `source` (SaxonJS2N.js of 2.7.0) with the package walk kept; throws for another text. */
export function patchPackageWalk(source: string): string {
  return replaceOnce(source, ORIGINAL, PATCHED, 'saxon-js package walk patch: the context set-up of saxon-js 2.7.0 was not found; review lib/saxon/patches/package-walk.ts for this saxon-js version');
}
