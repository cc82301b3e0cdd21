/**
 * Source patch (saxon-js 2.7.0), applied with the other source patches (source.ts): a regular
 * expression of `fn:matches`, `fn:replace`, `fn:tokenize` and `fn:analyze-string` is translated
 * from XPath's syntax to JavaScript's once per pattern and flags, not on every call.
 *
 * saxon-js's `prepareRegex` (`Ma.prepareRegex` in SaxonJS2N.js) reads the pattern character by
 * character, checks it against XPath's regex grammar (F&O 3.1 §5.6.1), rewrites escapes such as
 * `\i`, `\c` and `\p{…}` into character ranges, and builds a RegExp. The functions call it for
 * every item they are applied to: `//description[tokenize(., " ") = "alpha"]` translated the
 * pattern `" "` once per description, most of the time of the query.
 *
 * The patched export keeps, per pattern and flags, the RegExp's source and flags and its number
 * of capturing groups (which `fn:replace` reads through the callback), and answers a new RegExp
 * made from them: a RegExp with the `g` flag carries state (`lastIndex`), so none is shared
 * between calls. A pattern that is not valid is not kept: every call raises its error again.
 * Where the platform has no Unicode regexes (`A` false), whether to raise SXJS0002 depends on the
 * input too, and every call is translated as before. At most KEPT patterns are kept per thread;
 * when full, the map starts again. The original text is found character for character, or the
 * patch throws.
 */
import { replaceOnce } from './replace-once';

/** Patterns kept per thread. */
const KEPT = 256;

/** saxon-js 2.7.0's export of its regex translation `b` from the regex module. */
const ORIGINAL = 'jk:a,prepareRegex:b,';

/** The same, through the translations kept by pattern and flags (on `b` itself: no name added to the script's scope). */
const PATCHED =
  'jk:a,prepareRegex:(b.kept=new Map,(g,e,l=null,z=null)=>{' +
  'if(!A)return b(g,e,l,z);' +
  'const k=String(g)+"\\u0000"+String(e??"");let r=b.kept.get(k);' +
  'if(r===undefined){let n=0;const x=b(g,e,l,c=>{n=c});' +
  `b.kept.size>=${KEPT}&&b.kept.clear();r={s:x.source,f:x.flags,n};b.kept.set(k,r)}` +
  'z&&z(r.n);return new RegExp(r.s,r.f)}),';

/** `source` (SaxonJS2N.js of 2.7.0) with regex translations kept; throws for another text. */
export function patchKeptRegexes(source: string): string {
  return replaceOnce(source, ORIGINAL, PATCHED, 'saxon-js kept regexes patch: the regex translation export of saxon-js 2.7.0 was not found; review lib/saxon/patches/kept-regexes.ts for this saxon-js version');
}
