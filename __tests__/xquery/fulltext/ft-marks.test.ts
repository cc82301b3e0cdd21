/**
 * BaseX's ft:mark, ft:extract, ft:count and ft:score over REST (functions/ft-marks.ts,
 * translate/ft-calls.ts): the examples of BaseX's documentation ("Full-Text Functions") and of its
 * own tests with their exact results, how matches are tied to the `contains text` expressions of
 * the argument, and the errors.
 */
import { getQuery, queryBody, startTestServer, type TestServer } from '../../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.put('/rest/DB', '<XML>hello world</XML>', 'application/xml');
  await s.put('/rest/input', '<html><ul><li>Exercise 1</li><li>Exercise 2</li></ul><p>welcome to the <b>welcome</b> page</p></html>', 'application/xml');
  await s.put('/rest/ns', "<a:a xmlns:a='A'>C</a:a>", 'application/xml');
});
afterAll(() => s.close());

const answer = (query: string): Promise<string> => queryBody(s, query);

describe('ft:mark', () => {
  test.each([
    // docs.basex.org, Full-Text Functions, ft:mark examples 1 and 3
    ["ft:mark(db:get('DB')//*[text() contains text 'hello'])", '<XML><mark>hello</mark> world</XML>'],
    ["copy $p := <xml>hello word</xml> modify () return ft:mark($p[text() contains text 'word'], 'b')", '<xml>hello <b>word</b></xml>'],
    // BaseX's FtModuleTest
    ["ft:mark(db:get('input')//*[text() contains text '1'])", '<li>Exercise <mark>1</mark></li>'],
    ["ft:mark(db:get('input')//*[text() contains text '2'], 'b')", '<li>Exercise <b>2</b></li>'],
    ["copy $a := text { 'ab' } modify () return ft:mark($a[. contains text 'ab'], 'b')", '<b>ab</b>'],
    ["count(ft:mark(db:get('input')//*[text() contains text '1']/../..))", '1'],
    ["ft:mark(db:get('ns')/descendant::*[text() contains text 'C'], 'b')", '<a:a xmlns:a="A"><b>C</b></a:a>'],
  ])('%s', async (query, expected) => {
    expect(await answer(query)).toBe(expected);
  });

  test('a marked text node given itself becomes its parts, one marker per token of a phrase', async () => {
    expect(await answer("copy $a := text { 'a b' } modify () return ft:mark($a[. contains text 'a b'], 'b')")).toBe('<b>a</b>\n \n<b>b</b>');
  });

  test('a function called in the argument records its matches too (docs example 2)', async () => {
    const q = `let $term := 'welcome'
      let $test := function($node) { $node/text() contains text { $term } }
      for $ft in (db:get('input')//*[$test(.)])[position() = 1 to 10]
      return element hit { ft:mark($ft[$test(.)]) }`;
    expect(await answer(q)).toBe('<hit><p><mark>welcome</mark> to the <b>welcome</b> page</p></hit>\n<hit><b><mark>welcome</mark></b></hit>');
  });

  test('an element searched as a whole is marked in its text nodes; elements, attributes and namespaces stay', async () => {
    expect(await answer("ft:mark(<p a='fox'>the quick <i>brown</i> fox</p>[. contains text {'quick', 'fox'} all])"))
      .toBe('<p a="fox">the <mark>quick</mark> <i>brown</i> <mark>fox</mark></p>');
    expect(await answer("ft:mark(<a xmlns='A'>x <b>y</b> A</a>[. contains text 'A'])")).toBe('<a xmlns="A">x <b>y</b> <mark>A</mark></a>');
    expect(await answer("ft:mark(<p>the <i>quick</i> fox</p>[. contains text 'quick fox'], 'em')")).toBe('<p>the <i><em>quick</em></i> <em>fox</em></p>');
    expect(await answer("ft:mark(<p>X<b/>Z</p>[. contains text 'XZ'])")).toBe('<p><mark>X</mark><b/><mark>Z</mark></p>');
  });

  test('only the searched nodes are marked, and only with what matched', async () => {
    expect(await answer("ft:mark(db:get('input')//p[b contains text 'welcome'])")).toBe('<p>welcome to the <b><mark>welcome</mark></b> page</p>');
    expect(await answer("ft:mark(<p>a fox, a dog</p>[. contains text 'fox' ftor 'cat'])")).toBe('<p>a <mark>fox</mark>, a dog</p>');
    expect(await answer("ft:mark(<p>a fox</p>[. contains text 'fox' ftand ftnot 'dog'])")).toBe('<p>a <mark>fox</mark></p>');
  });

  test('without a contains text in the argument, the copies are unmarked (BaseX)', async () => {
    expect(await answer('ft:mark(<p>fox</p>)')).toBe('<p>fox</p>');
    expect(await answer("for $p in <p>fox dog</p>[. contains text 'fox'] return ft:mark($p)")).toBe('<p>fox dog</p>');
    expect(await answer("ft:mark(db:get('DB'))")).toBe('<XML>hello world</XML>');
  });

  test('a function item sees no matches: its argument is evaluated before the call', async () => {
    expect(await answer("ft:mark#1(<p>fox</p>[. contains text 'fox'])")).toBe('<p>fox</p>');
    expect(await answer("ft:mark(?, 'b')(<p>fox</p>[. contains text 'fox'])")).toBe('<p>fox</p>');
    expect(await answer("ft:extract(?, 'b', 1)(<p>fox</p>)")).toBe('<p>fox</p>');
    expect(await answer("ft:count(?)(<p>fox</p>[. contains text 'fox'])")).toBe('0');
    expect(await answer('ft:score#1((1 = 1, 1 = 2, 3))')).toBe('1\n0\n0');
  });

  test('each call sees the matches of its own evaluation', async () => {
    const q = "let $p := <p>a b</p> for $t in ('a', 'b') return ft:mark($p[. contains text { $t }])";
    expect(await answer(q)).toBe('<p><mark>a</mark> b</p>\n<p>a <mark>b</mark></p>');
  });

  test('a collection left open by a caught error takes nothing from later calls', async () => {
    const q = "try { ft:mark(<p>fox</p>[. contains text 'fox'][error()]) } catch * { 'caught' }, ft:mark(<p>dog</p>[. contains text 'dog'])";
    expect(await answer(q)).toBe('caught\n<p><mark>dog</mark></p>');
  });

  test('nested calls: each sees its own argument', async () => {
    expect(await answer("ft:mark(ft:mark(<p>fox dog</p>[. contains text 'fox'])[. contains text 'dog'])")).toBe('<p><mark>fox</mark> <mark>dog</mark></p>');
    expect(await answer("ft:count(ft:mark(<p>fox dog</p>[. contains text 'fox' ftor 'dog'])[. contains text 'dog'])")).toBe('1');
  });

  test('the copies are new nodes', async () => {
    expect(await answer("let $m := ft:mark(db:get('DB')/XML[text() contains text 'hello']) return (exists($m/..), $m/mark/string())")).toBe('false\nhello');
  });
});

describe('ft:extract', () => {
  test.each([
    // BaseX's FtModuleTest
    ["ft:extract(db:get('input')//*[text() contains text '1'])", '<li>Exercise <mark>1</mark></li>'],
    ["ft:extract(db:get('input')//*[text() contains text '2'], 'b', 20)", '<li>Exercise <b>2</b></li>'],
    ["ft:extract(db:get('input')//*[text() contains text '2'], '_o_', 1)", '<li>...<_o_>2</_o_></li>'],
    ["ft:extract(db:get('input')//li[text() contains text 'Exercise'], 'b', 1)", '<li>...</li>\n<li>...</li>'],
    // docs example: with a length of 1 nothing is left of "hello world" but cuts
    ["ft:extract(db:get('DB')//*[text() contains text 'hello'], 'b', 1)", '<XML>...</XML>'],
  ])('%s', async (query, expected) => {
    expect(await answer(query)).toBe(expected);
  });

  test('texts are cut before, after and between the markers', async () => {
    // 88 characters for 40: 48 to cut; 28 of the 28 before (28 * 48 / (28 + 18), at most all),
    // then 18 of the 18 after, then the last 2 in the middle of the text between
    const text = 'one two three four five six fox seven eight nine ten eleven twelve dog thirteen fourteen';
    expect(await answer(`ft:extract(<p>${text}</p>[. contains text {'fox', 'dog'} all], 'm', 40)`))
      .toBe('<p>...<m>fox</m> seven eight nine...en eleven twelve <m>dog</m>...</p>');
    expect(await answer(`ft:extract(<p>${text}</p>[. contains text 'fox'], 'm', 200)`)).toBe(`<p>${text.replace('fox', '<m>fox</m>')}</p>`);
  });
});

describe('ft:count', () => {
  test.each([
    // BaseX's FtModuleTest
    ['ft:count(())', '0'],
    ["ft:count(db:get('input')//*[text() contains text '1'])", '1'],
    ["ft:count(db:get('input')//li[text() contains text 'exercise'])", '2'],
    ["for $i in db:get('input')//li[text() contains text 'exercise'] return ft:count($i[text() contains text 'exercise'])", '1\n1'],
    ["ft:count(<p>fox fox dog</p>[. contains text 'fox' ftor 'dog'])", '3'],
    ["ft:count(<p a='fox'/>[@a contains text 'fox'])", '1'],
    ["ft:count(<p>fox</p>)", '0'],
  ])('%s', async (query, expected) => {
    expect(await answer(query)).toBe(expected);
  });
});

describe('ft:score', () => {
  test('gives each item the score for … score gives it', async () => {
    const items = "('usability', 'usability tests', 'usability of usability tests', 'none')[. contains text 'usability']";
    const viaFor = await answer(`for $x score $s in ${items} return $s`);
    expect(await answer(`ft:score(${items})`)).toBe(viaFor);
    expect(viaFor.split('\n').map(Number).every((n) => n > 0 && n <= 1)).toBe(true);
  });

  test('a full-text expression scores itself; other booleans 1 or 0; other items 0', async () => {
    const score = await answer("let score $s := 'a b' contains text 'a' return $s");
    expect(await answer("ft:score('a b' contains text 'a')")).toBe(score);
    expect(await answer("ft:score('a' contains text 'b')")).toBe('0');
    expect(await answer('ft:score((1 = 1, 1 = 2, 3, <a/>))')).toBe('1\n0\n0\n0');
  });
});

describe('errors', () => {
  test.each([
    ["ft:mark(<p>x</p>, '1a')", '[FOCA0002] Cannot convert to xs:QName: 1a.'],
    ["ft:extract(<p>x</p>, 'a b')", '[FOCA0002] Cannot convert to xs:QName: a b.'],
    ["ft:mark(<p>x</p>[. contains text 'x'], 'u:m')", '[FONS0004] No namespace is bound to prefix u.'],
    ['ft:mark(1)', '[XPTY0004] Node expected, 1 found.'],
    ["ft:count('a')", '[XPTY0004] Node expected, a found.'],
  ])('%s', async (query, message) => {
    const r = await getQuery(s, query);
    expect([r.status, r.text]).toStrictEqual([500, `Stopped at ., 1/1:\n${message}`]);
  });
});
