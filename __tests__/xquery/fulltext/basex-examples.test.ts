/**
 * The full-text examples of BaseX's documentation (docs.basex.org: "Full-Text", "Full-Text
 * Functions"), run through the REST router with their exact results, and the refusals and errors
 * of full text in this server.
 */
import { getQuery, startTestServer, type TestServer } from '../../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.put('/rest/factbook', '<mondial><country><name>Oman</name><religions>Sunni Muslim, Shia Muslim</religions></country>'
    + '<country><name>Chile</name><religions>Roman Catholic, Protestant</religions></country>'
    + '<country><name>Iraq</name><religions>Muslim (Shia, Sunni)</religions></country></mondial>', 'application/xml');
  await s.put('/rest/ftres');
  await s.put('/rest/ftres/stop.txt', 'a\nthe\n', 'text/plain');
  await s.put('/rest/ftres/thesaurus.xml', '<thesaurus xmlns="http://www.w3.org/2007/xqftts/thesaurus"><entry><term>car</term>'
    + '<synonym><term>automobile</term><relationship>UF</relationship></synonym>'
    + '<synonym><term>vehicle</term><relationship>BT</relationship><synonym><term>conveyance</term><relationship>BT</relationship></synonym></synonym>'
    + '</entry></thesaurus>', 'application/xml');
  await s.put('/rest/fuzzy', '<doc>\n<a>foo bar</a>\n<a>foa bar</a>\n<a>faa bar</a>\n</doc>', 'application/xml');
});
afterAll(() => s.close());

async function answer(query: string): Promise<string> {
  const r = await getQuery(s, query);
  if (r.status !== 200) throw new Error(`${query}: ${r.status} ${r.text}`);
  return r.text;
}

describe('Full-Text: introduction', () => {
  test.each([
    ['"This is YOUR World" contains text "your world"', 'true'],
    ['"Well... Done!" contains text "well, done"', 'true'],
    ['"one and two and three" contains text "and" occurs at least 2 times', 'true'],
    ['"one and two and three" contains text "and" occurs exactly 1 times', 'false'],
  ])('%s', async (query, expected) => {
    expect(await answer(query)).toBe(expected);
  });

  test('curly braces combine keywords, and ftor does the same', async () => {
    const braces = "for $country in db:get('factbook')//country where $country//religions[text() contains text { 'Sunni', 'Shia' } any] return $country/name";
    const ftor = "db:get('factbook')//country[descendant::religions contains text 'sunni' ftor 'shia']/name";
    expect(await answer(braces)).toBe('<name>Oman</name>\n<name>Iraq</name>');
    expect(await answer(ftor)).toBe('<name>Oman</name>\n<name>Iraq</name>');
  });

  test('fuzzy querying: at most a quarter of the token length wrong, and one error at least', async () => {
    expect(await answer("db:get('fuzzy')//a[text() contains text 'foo' using fuzzy]")).toBe('<a>foo bar</a>\n<a>foa bar</a>');
  });
});

describe('match options, positional filters and scores', () => {
  test.each([
    ['"Häuser und Gärten" contains text "hauser"', 'true'],
    ['"Häuser" contains text "hauser" using diacritics sensitive', 'false'],
    ['"Hello" contains text "hello" using case sensitive', 'false'],
    ['"HELLO" contains text "hello" using uppercase', 'true'],
    ['"dogs and cats" contains text "dog" using stemming', 'true'],
    ['"dogs and cats" contains text "dog"', 'false'],
    ['"Häuser" contains text "Haus" using stemming using language "de"', 'true'],
    ['"databases" contains text "data.*" using wildcards', 'true'],
    ['"the quick fox" contains text "the fox" using stop words ("the", "quick")', 'true'],
    ['"the quick fox" contains text "fox the" using stop words ("the")', 'false'],
    ['"a quick fox" contains text "the quick fox" using stop words ("the")', 'true'],
    ['"one two three" contains text ("one" ftand "three") distance exactly 1 words', 'true'],
    ['"one two three" contains text ("three" ftand "one") ordered', 'false'],
    ['"one two three" contains text ("one" ftand "three") window 2 words', 'false'],
    ['"one two three" contains text "one" at start', 'true'],
    ['"one two three" contains text "two" at end', 'false'],
    ['"one two three" contains text "one two three" entire content', 'true'],
    ['"One. Two." contains text ("one" ftand "two") same sentence', 'false'],
    ['"one two" contains text "one" ftand ftnot "three"', 'true'],
    ['"new york and york" contains text "york" not in "new york"', 'true'],
    ['"new york" contains text "york" not in "new york"', 'false'],
    ['<p>foo <b>note</b> bar</p> ! (. contains text "foo bar" without content .//b)', 'true'],
    ['<p>foo <b>note</b> bar</p> ! (. contains text "note" without content .//b)', 'false'],
  ])('%s', async (query, expected) => {
    expect(await answer(query)).toBe(expected);
  });

  test('scores: higher for more matching tokens, 0 without a match', async () => {
    const q = 'for $t score $s in ("usability", "usability usability tests", "none")[. contains text "usability"] return $s > 0';
    expect(await answer(q)).toBe('true\ntrue');
    expect(await answer('let score $s := "none" contains text "usability" return $s')).toBe('0');
  });

  test.each([
    ['"a fox" contains text "the fox" using stop words at "ftres/stop.txt"', 'true'],
    ['"a fox" contains text "the fox" using stop words at "ftres/stop.txt" except ("the")', 'false'],
    ['"an automobile" contains text "car" using thesaurus at "ftres/thesaurus.xml"', 'true'],
    ['"a vehicle" contains text "car" using thesaurus at "ftres/thesaurus.xml" relationship "UF"', 'false'],
    ['"a conveyance" contains text "car" using thesaurus at "ftres/thesaurus.xml" relationship "BT" exactly 1 levels', 'false'],
    ['"a conveyance" contains text "car" using thesaurus at "ftres/thesaurus.xml" relationship "BT" at most 2 levels', 'true'],
  ])('stop words and thesauri stored in a database: %s', async (query, expected) => {
    expect(await answer(query)).toBe(expected);
  });

  test('declare ft-option sets the options every contains text starts from', async () => {
    expect(await answer('declare ft-option using stemming; "dogs" contains text "dog"')).toBe('true');
  });
});

describe('ft: functions', () => {
  test.each([
    ['ft:contains("John Doe", ("jack", "john"), map { "mode": "any" })', 'true'],
    ["(true(), false()) ! ft:contains(\"Häuser\", \"Haus\", map { 'stemming': ., 'language':'de' })", 'true\nfalse'],
    ['ft:tokenize("Häuser und Gärten!")', 'hauser\nund\ngarten'],
    ['ft:normalize("Well... Done!")', 'well done'],
    ['ft:thesaurus(<thesaurus xmlns="http://www.w3.org/2007/xqftts/thesaurus"><entry><term>happy</term><synonym><term>lucky</term><relationship>RT</relationship></synonym></entry></thesaurus>, "happy")', 'lucky'],
  ])('%s', async (query, expected) => {
    expect(await answer(query)).toBe(expected);
  });

  test('ft:search and ft:tokens need the full-text index: [db:no-index]', async () => {
    const r = await getQuery(s, 'ft:search("factbook", "shia")');
    expect([r.status, r.text]).toStrictEqual([500, "Stopped at ., 1/1:\n[db:no-index] Database 'factbook' has no full-text index."]);
    const tokens = await getQuery(s, 'ft:tokens("factbook")');
    expect([tokens.status, tokens.text]).toStrictEqual([500, "Stopped at ., 1/1:\n[db:no-index] Database 'factbook' has no full-text index."]);
  });
});

describe('errors', () => {
  test.each([
    ['"a" contains text "a" using stemming using stemming', /^\[FTST0019\] /],
    ['for $x score $x in 1 return $x', /^\[XQST0089\] /],
    ['"a" contains text "a" using option undeclared:opt "v"', /^\[XPST0081\] /],
    ['"a" contains text "a" using language "x"', /^\[FTST0009\] /],
    ['"a b" contains text ("a" ftand ftnot "b") not in "c"', /^\[FTDY0017\] /],
    ['"a" contains text "a" weight { 1001 }', /^\[FTDY0016\] /],
    ['"a" contains text { 1 }', /^\[XPTY0004\] /],
    ['"a" contains text "a" using stemming using language "xx"', /^\[FTST0009\] /],
    ['"a" contains text "a" using stop words at "nodb/none.txt"', /^\[FTST0008\] /],
    ['"a" contains text "a" using thesaurus at "nodb/none.xml"', /^\[FTST0018\] /],
    ['"a" contains text "a.{2" using wildcards', /^\[FTDY0020\] /],
  ])('%s', async (query, code) => {
    const r = await getQuery(s, query);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.text.replace(/^Stopped at [^\n]*\n/, '')).toMatch(code);
  });
});
