/**
 * Literals inside predicates written into XPath runs (literals.ts `inlinePredicateLiterals`):
 * which literals are marked, how references are replaced, and that answers and errors stay.
 */
import { inlinePredicateLiterals, xpathToRun, type LiteralParam } from '../../../../lib/xquery/language/translate';
import { translate } from '../../../helpers/translation';
import { doc, engineFixture } from '../../language/translate/helpers';

const L = 'Q{urn:xmldb-rest:lit}';
const lit = (n: number, value: string, type = 'xs:integer', inPredicate = true): LiteralParam => ({ param: `${L}p${n}`, type, value, inPredicate, start: 0 });

describe('which literal parameters stand inside predicates', () => {
  it('marks operands of comparisons in predicates, not literals elsewhere', () => {
    const t = translate('count(//a[@n > 3][. = "x"]) + 5, (1, 2)[. = 2.5]', 'single');
    expect(t.literals.map((l) => [l.value, l.inPredicate])).toEqual([
      ['3', true],
      ['x', true],
      ['5', false],
      ['1', false],
      ['2', false],
      ['2.5', true],
    ]);
  });
});

describe('inlinePredicateLiterals', () => {
  it.each([
    [`$${L}p1 + $${L}p12`, [lit(1, '3'), lit(12, '4')], '(3) + (4)'],
    [`$${L}p1 + $${L}p2`, [lit(1, '3'), lit(2, '4', 'xs:integer', false)], `(3) + $${L}p2`],
    [`$${L}p1 || $${L}p2`, [lit(1, 'a"b', 'xs:string'), lit(2, "c'd", 'xs:string')], `("a""b") || ("c'd")`],
    [`"$${L}p1" || '$${L}p1' || "x""$${L}p1" || $${L}p1`, [lit(1, '1.5', 'xs:decimal')], `"$${L}p1" || '$${L}p1' || "x""$${L}p1" || (1.5)`],
    [`Q{a'$${L}p1}f($${L}p1) + $Q{urn:xmldb-rest:var}p1`, [lit(1, '1e0', 'xs:double')], `Q{a'$${L}p1}f((1e0)) + $Q{urn:xmldb-rest:var}p1`],
    [`$${L}p1`, [], `$${L}p1`],
  ])('%s', (expression, literals, expected) => {
    expect(inlinePredicateLiterals(expression, literals)).toBe(expected);
  });

  it('writes the predicate literals of a translated path and keeps the others as parameters', () => {
    const t = translate('count(//*[string-length(local-name()) > 3]) + 1007', 'single');
    const run = inlinePredicateLiterals(xpathToRun(t, false)!, t.literals);
    expect(run).toContain('> (3))]');
    expect(run).toContain(`+ $${L}p2`);
    expect(run).not.toContain(`$${L}p1`);
  });
});

describe('XPath runs with predicate literals written in: the same answers and errors', () => {
  const e = engineFixture();
  const xml = '<r><a n="1">x</a><bb n="2.5">y</bb><ccc n="10">x</ccc><dddd m="a">z</dddd></r>';
  it.each([
    ['count(//*[string-length(local-name()) > 2]) + 10', 'ok 12'],
    ['//*[string-length(local-name()) = 1]/name()', 'ok "r"\n"a"'],
    ['//*[. = "x"]/name()', 'ok "a"\n"ccc"'],
    ['//*[@n = 2.5]/name()', 'ok "bb"'],
    ['//*[@n >= 1e1]/name()', 'ok "ccc"'],
    ['//*[@m = "a"]/name(), //*[. != "x"][@n = "2.5"]/name()', 'ok "dddd"\n"bb"'],
    ['count(//*[@m > 2])', 'error FORG0001'],
    ['//*[@n eq 2]', 'error XPTY0004'],
    ['//*[local-name() = ("a", "bb")][@n < 3]/name()', 'ok "a"\n"bb"'],
    ['//*[. = "$Q{urn:xmldb-rest:lit}p1"]', 'ok '],
    // searched strings written back in: quotes, apostrophes, braces and parameter names stay text
    ['//*[contains(., "x")]/name(), count(//*[starts-with(name(), \'d\')][contains(@m, "a")])', 'ok "r"\n"a"\n"ccc"\n1'],
    ['count(//*[contains(., \'") or true() or ("\')]), count(//*[contains(., "\'}{$Q{urn:xmldb-rest:lit}p1")])', 'ok 0\n0'],
  ])('%s', async (query, expected) => {
    expect(translate(query, 'single').xpath).toBeDefined();
    expect(await e.outcome(query, doc(xml))).toBe(expected);
  });
});
