/** URI literals (lib/xquery/language/syntax/uri-literals.ts) and where the parser applies them. */
import { parseQuery } from '../../../../lib/xquery/language/syntax';
import { normalizeUriLiteral, uriLiteralProblem } from '../../../../lib/xquery/language/syntax/uri-literals';

describe('uri-literals: whitespace normalization of xs:anyURI (collapse)', () => {
  it.each([
    [' http://a/ ', 'http://a/'],
    ['\t\n\r http://a/\r\n', 'http://a/'],
    ['a  \t b', 'a b'],
    ['', ''],
    ['   ', ''],
    // only XML whitespace collapses: a no-break space is a character of the URI
    ['\u00a0a', '\u00a0a'],
  ])('%j → %j', (raw, normalized) => {
    expect(normalizeUriLiteral(raw)).toBe(normalized);
  });

  it.each(['a}b', '{', '\u00a0a', 'a\u2028', '\ufeffa', 'a\u3000b'])('refuses %j', (uri) => {
    expect(uriLiteralProblem(uri)).toMatch(/^Invalid URI /);
  });

  it.each(['http://example.com/<>"\'', 'urn:a b', 'é', '%7B'])('accepts %j', (uri) => {
    expect(uriLiteralProblem(uri)).toBeUndefined();
  });
});

describe('uri-literals in the parser', () => {
  it('normalizes namespace declarations, default namespaces, imports, EQNames and xmlns attributes', () => {
    const m = parseQuery(
      'declare namespace p = " urn:a\t"; declare default element namespace "&#10;urn:b "; declare default function namespace " urn:c"; <p:x xmlns:q=" urn:d&#9;">{ Q{ urn:e&#13;}f }</p:x>',
    );
    const text = JSON.stringify(m);
    for (const uri of ['urn:a', 'urn:b', 'urn:c', 'urn:d', 'urn:e']) expect(text).toContain(`"${uri}"`);
    expect(text).not.toMatch(/" urn|urn:[a-e]\s/);
  });

  it.each([
    ['declare namespace p = "a}b"; 1', 23],
    ['declare default element namespace "{"; 1', 35],
    ['import module namespace p = "a}"; 1', 29],
    ['Q{&#xA0;a}b', 1],
    ['<a xmlns:p="x{{"/>', 4],
    ['for $x in 1 order by $x collation "a}" return $x', 35],
  ])('%s: XQST0046 at column %d', (query, column) => {
    expect(() => parseQuery(query)).toThrow(expect.objectContaining({ code: 'XQST0046', column }));
  });

  it('keeps "{" and "}" of a braced URI literal (the translator decides where they can go)', () => {
    expect(JSON.stringify(parseQuery('element Q{&#x7B;&#x7D;}x {}'))).toContain('"uri":"{}"');
  });
});
