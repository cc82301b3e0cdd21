/**
 * Source patch (saxon-js 2.7.0), applied with the other source patches (source.ts): `fn:tokenize`
 * with a pattern without capturing groups splits its input with the RegExp's own split.
 *
 * saxon-js tokenizes through its `fn:analyze-string` machinery (`ee.kg` in SaxonJS2N.js): an
 * `exec` loop that makes an object and an xs:string for every separator and every token, after
 * which `tokenize` drops the separators and adds the empty tokens its rules ask for. Per call
 * that was most of `//description[tokenize(., " ") = "alpha"]`.
 *
 * `String.prototype.split` with a RegExp answers the same tokens as F&O 3.1 §5.6.5 where the
 * pattern has no capturing group (split would insert the groups' matches between the tokens):
 * the text before the first match, between matches and after the last, an empty token where
 * two matches touch or a match starts or ends the input. The pattern is translated, its flags
 * checked, and a pattern that matches the empty string refused (FORX0003), as before and in the
 * same order; the one-argument form keeps its normalization of the input. With the `j` flag (a
 * JavaScript pattern, a saxon-js extension) the translation does not report its groups, and the
 * call takes the original way, as does any pattern with a capturing group. The original text is
 * found character for character, or the patch throws.
 */
import { replaceOnce } from './replace-once';

/** saxon-js 2.7.0's call of the analyze-string machinery in `tokenize`, input `d`, pattern `n`, arguments `c`. */
const ORIGINAL = 'n=ee.kg(d,n,c[2]?c[2].next().toString():"",!1,!0);';

/** The split first, for a pattern without capturing groups. */
const PATCHED =
  'const f$=c[2]?c[2].next().toString():"";' +
  'if(!/j/.test(f$)){let g$=0;const r$=Ma.prepareRegex(n,Ma.Yg(f$)+"g",d,x=>{g$=x});' +
  'if(r$.test(""))throw new J("Regular expression matches zero-length string","FORX0003");' +
  'if(0===g$)return Pb(d.split(r$).map(x=>D.string.fromString(x)))}' +
  'n=ee.kg(d,n,f$,!1,!0);';

/** `source` (SaxonJS2N.js of 2.7.0) with `tokenize` splitting; throws for another text. */
export function patchTokenizeSplit(source: string): string {
  return replaceOnce(source, ORIGINAL, PATCHED, 'saxon-js tokenize split patch: the tokenize of saxon-js 2.7.0 was not found; review lib/saxon/patches/tokenize-split.ts for this saxon-js version');
}
