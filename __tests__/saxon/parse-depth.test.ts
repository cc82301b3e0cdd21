/**
 * The parse depth source patch (lib/saxon/patches/parse-depth.ts): found once in saxon-js 2.7.0's
 * script and refused elsewhere; with it (the test runner loads saxon-js patched:
 * scripts/jest-saxon.js), saxon-js's XML parser builds documents up to the nesting limit of stored
 * documents and refuses the first element past it, before it reads further.
 */
import { XML_LIMITS } from '../../lib/convert/xml-limits';
import { saxon } from '../../lib/saxon';
import { patchParseDepth } from '../../lib/saxon/patches/parse-depth';
import { SAXON_SOURCE } from '../helpers/saxon-instance';

const nested = (depth: number, inside = '') => '<a>'.repeat(depth) + inside + '</a>'.repeat(depth);
const parse = (xml: string) => saxon().getPlatform().parseXmlFromString(xml);

describe('the parse depth patch', () => {
  it("changes saxon-js 2.7.0's start tag handler once, and refuses a text without it or with it twice", () => {
    expect(patchParseDepth(SAXON_SOURCE)).not.toBe(SAXON_SOURCE);
    expect(() => patchParseDepth('function f(){}')).toThrow(/parse depth patch/);
    expect(() => patchParseDepth('c(na);m=na;u++;c(na);m=na;u++;')).toThrow(/parse depth patch/);
  });

  it('builds a document at the limit', () => {
    const document = parse(nested(XML_LIMITS.depth, 'x'));
    expect(saxon().XPath.evaluate('count(//a), string(.)', document)).toEqual([XML_LIMITS.depth, 'x']);
  });

  it('refuses the first element past it, before the rest of the input is read: fn:parse-xml fails with FODC0006', () => {
    const message = `Elements are nested deeper than ${XML_LIMITS.depth} levels.`;
    expect(() => parse(nested(XML_LIMITS.depth + 1))).toThrow(message);
    // what follows the deep element is not well-formed: the parser never got there
    expect(() => parse('<a>'.repeat(XML_LIMITS.depth + 1) + '</b>')).toThrow(message);
    const parseXml = () => saxon().XPath.evaluate('parse-xml($xml)', null, { params: { xml: nested(XML_LIMITS.depth + 1) } });
    expect(parseXml).toThrow(expect.objectContaining({ code: 'FODC0006', message }));
  });
});
