/**
 * Literal parameters written back into an expression that runs as one XPath expression
 * (translate/library.ts `inlineLiterals`): only the parameter references change.
 */
import { parseQuery } from '../../../lib/xquery/syntax';
import { inlineLiterals, translateModule } from '../../../lib/xquery/translate';
import { engineFixture } from './helpers';

const L = 'Q{urn:xmldb-rest:lit}';
const lit = (n: number, value: string, type = 'xs:integer') => ({ param: `${L}p${n}`, type, value });

describe('inlineLiterals', () => {
  it.each([
    [`$${L}p1 + $${L}p12`, [lit(1, '3'), lit(12, '4')], '(3) + (4)'],
    [`$${L}p1 || $${L}p2`, [lit(1, 'a"b', 'xs:string'), lit(2, "c'd", 'xs:string')], `("a""b") || ("c'd")`],
    [`"$${L}p1" || '$${L}p1' || "x""$${L}p1" || $${L}p1`, [lit(1, '1.5', 'xs:decimal')], `"$${L}p1" || '$${L}p1' || "x""$${L}p1" || (1.5)`],
    [`Q{a'b}f($${L}p1) + $Q{urn:xmldb-rest:var}p1`, [lit(1, '1e0', 'xs:double')], `Q{a'b}f((1e0)) + $Q{urn:xmldb-rest:var}p1`],
    [`$${L}p1`, [], `$${L}p1`],
  ])('%s', (expression, literals, expected) => {
    expect(inlineLiterals(expression, literals)).toBe(expected);
  });
});

describe('queries run as XPath with their literals written in', () => {
  const e = engineFixture();
  it.each([
    ['count((<a/>, <bb/>, <ccc/>)[string-length(local-name()) > 1]) + 10', '12'],
    ['concat("$Q{urn:xmldb-rest:lit}p1", 2, "x""y")', '"$Q{urn:xmldb-rest:lit}p12x""y"'],
    ['for $i in (1, 2.5, 3e0) return $i * 2', '2\n5\n6.0e0'],
    ['"a" + 1', '[XPTY0004]'],
  ])('%s', async (query, expected) => {
    const t = translateModule(parseQuery(query), query, { contextMode: 'none' });
    expect(t.literals.length).toBeGreaterThan(0);
    let got: string;
    try {
      got = await e.adaptive(query);
    } catch (err) {
      got = `[${(err as { code?: string }).code}]`;
    }
    expect(got).toBe(expected);
  });
});
