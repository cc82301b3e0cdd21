/**
 * String functions the engine answers itself instead of saxon-js 2.7.0.
 *
 * - `Q{urn:xmldb-rest:engine}codepoints-to-string($codepoints)`, which the translator emits for
 *   fn:codepoints-to-string: saxon-js builds the string with one `String.fromCodePoint(...all)`
 *   call, so a sequence of more than about 100,000 codepoints overflows the JS stack (reported
 *   as XPDY0130). Here the string is built in bounded chunks; every codepoint is still checked
 *   to be an XML character (FOCH0001, F&O 3.1 §5.2.1).
 */
import { ENGINE_NS } from '../constants';
import { registerFunctions, stringValue, xpathError, type XdmAtomic, type XdmValue } from '../../saxon';

/** Codepoints converted per `String.fromCodePoint` call: far below any engine's argument limit. */
const CHUNK = 4096;

/** Whether `cp` is a character of XML 1.0 (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]). */
export function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** fn:codepoints-to-string over any number of codepoints. */
export function codepointsToString(codepoints: readonly number[]): string {
  const parts: string[] = [];
  for (let start = 0; start < codepoints.length; start += CHUNK) {
    const chunk = codepoints.slice(start, start + CHUNK);
    for (const cp of chunk) {
      if (!Number.isInteger(cp) || !isXmlChar(cp)) throw xpathError(`Invalid XML character: codepoint ${cp}`, 'FOCH0001');
    }
    parts.push(String.fromCodePoint(...chunk));
  }
  return parts.join('');
}

/** An xs:integer as a JS number (saxon keeps integers beyond 2^53 as big decimals). */
function codepointOf(item: XdmValue[number]): number {
  const atomic = item as XdmAtomic;
  return typeof atomic.value === 'number' ? atomic.value : Number(atomic.toString());
}

/** Registers engine:codepoints-to-string with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerCodepointFunctions(): void {
  registerFunctions(ENGINE_NS, {
    'codepoints-to-string': {
      sig: '1F r[1AS] a[*ADI]',
      impl: ([codepoints]) => [stringValue(codepointsToString(codepoints.map(codepointOf)))],
    },
  });
}
