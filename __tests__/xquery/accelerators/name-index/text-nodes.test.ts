/**
 * `//text()[p]` and `descendant::text()[p]` as a first step from the text nodes of a document
 * (accelerators/name-index/name-index.ts `descendant-texts`, tree/name-rows.ts TEXT_NODES), with
 * leading comparisons of `.` from the column of the text nodes' values (leaf-filter.ts): every
 * query must answer, and fail, as its unrewritten form does (`descendant-or-self::node()/…`
 * written out is not abbreviated, so it keeps the axis steps), over stored documents (compact
 * trees), request contexts and constructed documents (saxon-js's DOM).
 */
import { doc, engineFixture, unabbreviated } from '../../language/translate/helpers';
import { translate } from '../../../helpers/translation';
import { getQuery, serverOfFile } from '../../../helpers/rest';

const TEXTS_CALL = 'Q{urn:xmldb-rest:engine}descendant-texts(';
const XML = '<r><a>x<b>y</b>12</a><a><b>x</b><c><![CDATA[z]]>w</c>3<!--x--></a><d/>  <b>x</b></r>';
const xslt = (query: string): string => translate(query, 'single').xslt;

/** Queries, their answers over XML. */
const CASES: readonly (readonly [string, string])[] = [
  ['count(//text()), string-join(//text(), "|")', '8\n"x|y|12|x|zw|3|  |x"'],
  ['count(//text()[. = "x"]), count(//text()[. != "x"]), count(//text()[. = ("y", "3")])', '3\n5\n2'],
  ['//text()[. eq "zw"]/string(), count(//text()[. > "x"]), count(//text()[. = ""])', '"zw"\n2\n0'],
  ['count(//text()[contains(., "x")]), //text()[string-length(.) > 1]/string()', '3\n"12"\n"zw"\n"  "'],
  ['count(//text()[text()]), count(//text()[@id]), count(//text()[. = "x"][../self::b])', '0\n0\n2'],
  ['(//text()[. = "x"])[2]/../name(), //text()[. = "x"][1]/string()', '"b"\n"x"\n"x"\n"x"'],
  ['(//text()[. = "x"])[1] is /r/a[1]/text()[1], count(//text() | /r//text()), count((//text(), //text()) / .)', 'true()\n8\n8'],
];

describe('//text()[p] over a request context (saxon-js DOM)', () => {
  const e = engineFixture();

  it.each(CASES)('%s', async (query, expected) => {
    expect(xslt(query)).toContain(TEXTS_CALL);
    expect(xslt(unabbreviated(query))).not.toContain(TEXTS_CALL);
    const [got, want] = await Promise.all([e.adaptive(query, { context: doc(XML) }), e.adaptive(unabbreviated(query), { context: doc(XML) })]);
    expect(got).toBe(want);
    expect(got).toBe(expected);
  });

  it('answers descendant::text()[p] written out as a first step from the text nodes, positional predicates per context node', async () => {
    const query = '/r ! descendant::text()[2]/string(), count(/r/a ! descendant::text()[. = "x"]), /r/a ! descendant::text()[last()]/string()';
    // the same steps unrewritten: every descendant, then the text nodes among them, then the predicates
    const unrewritten = '/r ! (descendant::node()[self::text()])[2]/string(), count(/r/a ! descendant::node()[self::text()][. = "x"]), /r/a ! (descendant::node()[self::text()])[last()]/string()';
    expect(xslt(query)).toContain(TEXTS_CALL);
    expect(xslt(unrewritten)).not.toContain(TEXTS_CALL);
    expect(await e.adaptive(query, { context: doc(XML) })).toBe(await e.adaptive(unrewritten, { context: doc(XML) }));
    expect(await e.adaptive(query, { context: doc(XML) })).toBe('"y"\n2\n"12"\n"3"');
  });

  it('keeps the axis step for //text() after another step, below each of its nodes', async () => {
    const query = 'count(//a//text()), //a[2]//text()[. = "x"]/../name(), count(//b//text()[. = "x"]), /r/a/descendant::text()[last()]/string()';
    expect(xslt(query)).not.toContain(TEXTS_CALL);
    expect(await e.adaptive(query, { context: doc(XML) })).toBe('6\n"b"\n2\n"12"\n"3"');
  });

  it('answers over constructed documents and elements, keeping node identity', async () => {
    const query = 'let $d := document { <r>a<x>b</x>a</r> }, $e := <e>a<x>a</x></e> return ($d ! count(//text()[. = "a"]), $e ! count(descendant::text()[. = "a"]), ($d ! //text()[. = "b"]) is $d/r/x/text())';
    expect(xslt(query)).toContain(TEXTS_CALL);
    expect(await e.adaptive(query)).toBe('2\n2\ntrue()');
  });

  it('raises the errors of the path and of its predicates', async () => {
    // a text that is no number, compared with a number: FORG0001 either way
    expect((await e.error('//text()[. = 1]', { context: doc(XML) })).code).toBe('FORG0001');
    expect((await e.error(unabbreviated('//text()[. = 1]'), { context: doc(XML) })).code).toBe('FORG0001');
    expect((await e.error('(1, 2)//text()')).code).toBe((await e.error(unabbreviated('(1, 2)//text()'))).code);
    expect((await e.error('//text()')).code).toBe('XPDY0002');
  });
});

describe('//text()[p] over stored documents (compact trees)', () => {
  const server = serverOfFile();

  beforeAll(async () => {
    const s = server();
    await s.put('/rest/texts').expect(201);
    await s.put('/rest/texts/one.xml', XML, 'application/xml').expect(201);
    await s.put('/rest/texts/two.xml', '<r><n>7</n><n>x</n><m>7 </m></r>', 'application/xml').expect(201);
  });

  it.each(CASES)('%s', async (query, expected) => {
    const s = server();
    const [got, want] = await Promise.all([getQuery(s, query, '/texts/one.xml'), getQuery(s, unabbreviated(query), '/texts/one.xml')]);
    expect([got.status, got.text]).toEqual([want.status, want.text]);
    expect(got.status).toBe(200);
    expect(got.text.split('\n').length).toBe(expected.split('\n').length);
  });

  it('answers over a database of several documents, numbers and strings as the comparisons read them', async () => {
    const s = server();
    for (const query of ['count(//text()[. = "x"])', 'count(/r/n/text()[. = 7])', 'count(//n//text()[. < "8"])', 'string-join(//text()[. = ("7", "y")], ",")']) {
      const [got, want] = await Promise.all([getQuery(s, query, '/texts'), getQuery(s, unabbreviated(query), '/texts')]);
      expect([query, got.status, got.text]).toEqual([query, want.status, want.text]);
    }
    expect((await getQuery(s, 'count(//text()[. = "x"])', '/texts').expect(200)).text).toBe('4');
    // "x" is no number: the comparison with 7 fails as the axis step's does (on another text that
    // is none: the axis step tests the texts parent by parent, r's own "  " first; XQuery 3.1 §2.3.4)
    const [got, want] = await Promise.all([getQuery(s, '//text()[. = 7]', '/texts'), getQuery(s, unabbreviated('//text()[. = 7]'), '/texts')]);
    expect([got.status, want.status]).toEqual([500, 500]);
    expect(got.text).toBe('Stopped at ., 1/1:\n[FORG0001] Supplied value "x" is not a valid xs:double');
    expect(want.text).toBe('Stopped at ., 1/1:\n[FORG0001] Supplied value "" is not a valid xs:double');
  });
});
