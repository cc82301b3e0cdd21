/**
 * Source patch (saxon-js 2.7.0), applied with the other source patches (source.ts): saxon-js's
 * XML parser refuses elements nested deeper than the limit of stored documents
 * (convert/xml-limits.ts), with FODC0006, as soon as it reaches the first one.
 *
 * The parser (`parseXmlFromString` of its Node.js platform: fn:parse-xml, and the stylesheets it
 * compiles) builds any depth, but what saxon-js does with a deep tree does not end well: its
 * recursion overflows the stack somewhere between 5,000 and 100,000 levels (with the thread's
 * stack size), and serializing an element walks all its ancestors for the namespaces in scope,
 * so writing a tree takes time quadratic in its depth (10,000 levels: 3 s; 20,000: more than
 * 20 s). A document past the limit is refused at PUT for the same reasons; queries now meet the
 * same rule. The parser's element counter is the depth. The original text is found character for
 * character, or the patch throws.
 */
import { XML_LIMITS } from '../../convert/xml-limits';
import { replaceOnce } from './replace-once';

/** saxon-js 2.7.0: the platform parser's start tag handler appends the element and counts it open (`u`). */
const ORIGINAL = 'c(na);m=na;u++;';

/** The same, refusing the element past the limit (`J`: saxon-js's XError). */
const PATCHED = `c(na);m=na;if(++u>${XML_LIMITS.depth})throw new J("Elements are nested deeper than ${XML_LIMITS.depth} levels.","FODC0006");`;

/** `source` (SaxonJS2N.js of 2.7.0) with its XML parser held to the nesting limit; throws for another text. */
export function patchParseDepth(source: string): string {
  return replaceOnce(source, ORIGINAL, PATCHED, "saxon-js parse depth patch: the XML parser's start tag handler of saxon-js 2.7.0 was not found; review lib/saxon/patches/parse-depth.ts for this saxon-js version");
}
