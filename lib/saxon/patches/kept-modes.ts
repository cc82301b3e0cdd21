/**
 * Source patch (saxon-js 2.7.0), applied with the other source patches (source.ts): a mode's index
 * of template rules is built once per mode of a SEF tree, not in every transform.
 *
 * When a transform sets up its packages, saxon-js makes a mode object (`Si` in SaxonJS2N.js) for
 * every mode of the stylesheet: it reads each template rule's precedence, priority and match
 * pattern, sorts the rules and indexes them by node kind and name. The object depends on nothing
 * but the mode's SEF node (and the script's own evaluator, a constant), and none of its methods
 * changes it. The built-in XSLT compiler has many modes with many rules, and every compilation is
 * a transform of it: building them was about a tenth of compiling a small stylesheet; a query's
 * own stylesheet rebuilt its modes on every run.
 *
 * The patched set-up keeps each mode object in a WeakMap keyed by the mode's SEF node, on the
 * constructor itself (no name added to the script's scope), and later transforms of the same tree
 * reuse it. The original text is found character for character, or the patch throws.
 */
import { replaceOnce } from './replace-once';

/** saxon-js 2.7.0's construction of the mode of component `y` from its SEF node `Y`. */
const ORIGINAL = 'y.mode=new Si(Y,ld)';

/** The same, through the modes kept by SEF node. */
const PATCHED = 'y.mode=(Si.kept??=new WeakMap).get(Y)??(m=>(Si.kept.set(Y,m),m))(new Si(Y,ld))';

/** `source` (SaxonJS2N.js of 2.7.0) with modes kept; throws for another text. */
export function patchKeptModes(source: string): string {
  return replaceOnce(source, ORIGINAL, PATCHED, 'saxon-js kept modes patch: the mode set-up of saxon-js 2.7.0 was not found; review lib/saxon/patches/kept-modes.ts for this saxon-js version');
}
