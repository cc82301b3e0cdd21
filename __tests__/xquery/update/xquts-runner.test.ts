/** The XQUTS runner's own rules (scripts/xquts/): the result comparators and the baseline check. */
type Verdict = { ok: boolean; whitespace?: boolean; reason?: string };
const { compareResult } = require('../../../scripts/xquts/compare') as { compareResult(compare: string, expected: string, actual: string): Verdict };
const { checkAgainst } = require('../../../scripts/xquts/baseline') as {
  checkAgainst(b: { failures: Record<string, string> }, results: { name: string; ok: boolean }[]): { regressions: string[]; fixed: string[] };
};

describe('comparators', () => {
  test.each([
    ['XML', '<?xml version="1.0"?>\n<a x="1" y="2"><b/></a>', '<a y="2" x="1"><b/></a>'],
    ['XML', '<a xmlns="urn:x"><b/></a>', '<a xmlns="urn:x"><b xmlns="urn:x"/></a>'],
    ['Fragment', '<a/>\r\n<b>t</b>', '<a/>\n<b>t</b>'],
    ['Text', 'true false', 'true false'],
  ])('%s: %s equals %s', (compare, expected, actual) => {
    expect(compareResult(compare, expected, actual)).toEqual({ ok: true });
  });

  test('whitespace-only text counts, except in the lenient pass it is reported by', () => {
    expect(compareResult('XML', '<a>\n  <b/>\n</a>', '<a><b/></a>')).toEqual({ ok: true, whitespace: true });
    expect(compareResult('XML', '<a> x</a>', '<a>x</a>').ok).toBe(false);
  });

  test('in-scope namespaces, names and kinds of nodes must match', () => {
    expect(compareResult('XML', '<a xmlns:p="urn:p"/>', '<a/>').ok).toBe(false);
    expect(compareResult('XML', '<a xmlns="urn:x"/>', '<a/>').ok).toBe(false);
    expect(compareResult('Fragment', '<!--c--><?p d?>', '<!--c--><?p e?>').ok).toBe(false);
    expect(compareResult('XML', '<a/>', 'text').reason).toMatch(/^result is not a document/);
  });
});

test('a failing case outside the known failures is a regression; a known failure that passes is progress', () => {
  const baseline = { failures: { known: 'wrong-result: …', fixed: 'error: …' } };
  const results = [
    { name: 'known', ok: false },
    { name: 'fixed', ok: true },
    { name: 'new', ok: false },
    { name: 'fine', ok: true },
  ];
  expect(checkAgainst(baseline, results)).toEqual({ regressions: ['new'], fixed: ['fixed'] });
});
