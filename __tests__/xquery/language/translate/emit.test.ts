/** The emitter (lib/xquery/language/translate/emit.ts): what it writes, and what it refuses to write. */
import { avt, braced, eqname, lexicalQName, localWildcard, uriWildcard, xmlAttr, xpathString } from '../../../../lib/xquery/language/translate/emit';

const code = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code;
  }
};

describe('emit: EQNames', () => {
  it('writes Q{uri}local, Q{uri}* and *:local', () => {
    expect(eqname({ uri: 'urn:a', local: 'b' })).toBe('Q{urn:a}b');
    expect(eqname({ uri: '', local: 'é-1' })).toBe('Q{}é-1');
    expect(eqname({ uri: 'http://x/<"&\'> y', local: 'b' })).toBe('Q{http://x/<"&\'> y}b');
    expect(braced('urn:a')).toBe('Q{urn:a}');
    expect(uriWildcard('urn:a')).toBe('Q{urn:a}*');
    expect(localWildcard('b')).toBe('*:b');
    expect(lexicalQName('p', 'b')).toBe('p:b');
    expect(lexicalQName(undefined, 'b')).toBe('b');
  });

  it.each(['x}a), (Q{urn:evil}f(', 'a{b', '}', '\u00a0urn:a', 'urn:a\t', 'urn:\na', 'urn:a\u2028', '\ufeffurn:a'])('refuses the URI %j: XQST0046', (uri) => {
    expect(code(() => eqname({ uri, local: 'a' }))).toBe('XQST0046');
    expect(code(() => braced(uri))).toBe('XQST0046');
    expect(code(() => uriWildcard(uri))).toBe('XQST0046');
  });

  it.each(['', 'a b', 'a:b', '1a', 'a(', 'a)', 'a}', '-a', 'a,b', "a'"])('refuses the name %j: XPST0003', (local) => {
    expect(code(() => eqname({ uri: 'urn:a', local }))).toBe('XPST0003');
    expect(code(() => localWildcard(local))).toBe('XPST0003');
    expect(code(() => lexicalQName(undefined, local))).toBe('XPST0003');
    if (local !== '') expect(code(() => lexicalQName(local, 'a'))).toBe('XPST0003');
  });
});

describe('emit: literals and attribute values', () => {
  it('doubles the delimiter of an XPath string literal', () => {
    expect(xpathString(`a"b'c`)).toBe(`"a""b'c"`);
    expect(xpathString('')).toBe('""');
  });

  it('escapes attribute values so that attribute-value normalization keeps them', () => {
    expect(xmlAttr('a&b<c"d\te\nf\rg>')).toBe('a&amp;b&lt;c&quot;d&#x9;e&#xA;f&#xD;g>');
  });

  it('doubles braces in attribute value templates, then escapes', () => {
    expect(avt('{a}&"')).toBe('{{a}}&amp;&quot;');
  });
});
