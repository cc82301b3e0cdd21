/** XQuery 3.1 behaviour over REST: the context item declaration, constructors' namespaces, ranges, folds, distinct values. */
import { failureBody, getQuery, queryBody, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
  await s.put('/rest/db', '<r><i>1</i><i>2</i></r>', 'application/xml').expect(201);
  await s.put('/rest/db/x.xml', '<x>3</x>', 'application/xml').expect(201);
});
afterAll(() => s.close());

const ok = (query: string, path = '', extra = '') => queryBody(s, query, path, extra);

describe('declare context item (XQuery 3.1 §4.17)', () => {
  test.each([
    ['declare context item := 3; . + 1', '4'],
    ['declare context item as xs:integer := 3; . * 2', '6'],
    ['declare context item := <a><b>x</b></a>; b/string(), name(), position(), last()', 'x\na\n1\n1'],
    ['declare context item := <a><b>x</b></a>; declare variable $v := string(b); $v', 'x'],
    ['declare context item as element() external := <e/>; name()', 'e'],
    ['declare context item external := 5; . + 1', '6'],
  ])('%s', async (query, body) => {
    expect(await ok(query)).toBe(body);
  });

  test('the declared value replaces the database and the context documents of the request', async () => {
    expect(await ok('declare context item := document { <a><i>9</i></a> }; sum(//i)', '/db')).toBe('9');
    const context = `&context=${encodeURIComponent('<c/>')}`;
    expect(await ok('declare context item := <a/>; name()', '', context)).toBe('a');
  });

  test('an external declaration with a default takes the request context when there is one', async () => {
    expect(await ok('declare context item external := document { <a><i>9</i></a> }; sum(//i)', '/db')).toBe('3');
    expect(await ok('declare context item external := <a/>; name(*)', '', `&context=${encodeURIComponent('<c/>')}`)).toBe('c');
    expect(await ok('declare context item as document-node() external; name(*)', '', `&context=${encodeURIComponent('<c/>')}`)).toBe('c');
  });

  test('a value that is not one item of the declared type is XPTY0004', async () => {
    expect(await failureBody(s, 'declare context item as xs:string := 3; . + 1')).toBe(
      'Stopped at ., 1/41:\n[XPTY0004] The context item does not match the declared type xs:string.',
    );
    expect(await failureBody(s, 'declare context item := (1, 2); .')).toBe('Stopped at ., 1/33:\n[XPTY0004] The context item does not match the declared type item().');
    expect(await failureBody(s, 'declare context item := (); .')).toBe('Stopped at ., 1/29:\n[XPTY0004] The context item does not match the declared type item().');
    const context = `&context=${encodeURIComponent('<c/>')}`;
    expect((await getQuery(s, 'declare context item as xs:integer external; .', '', context).expect(500)).text).toMatch(
      /^Stopped at .*\n\[XPTY0004\] The context item does not match the declared type xs:integer\.$/,
    );
  });

  test('without a value and without a request context, the focus is absent; functions never see it', async () => {
    expect(await failureBody(s, 'declare context item external; .')).toMatch(/\[XPDY0002\]/);
    expect(await failureBody(s, 'declare context item := 1; declare function local:f() { . }; local:f()')).toMatch(/\[XPDY0002\]/);
  });

  test('a second declaration is XQST0099', async () => {
    expect(await failureBody(s, 'declare context item := 1; declare context item := 2; .')).toMatch(/^Stopped at ., 1\/28:\n\[XQST0099\]/);
  });
});

describe('constructed elements have the namespaces of the direct constructors around them (XQuery 3.1 §3.9.4)', () => {
  test.each([
    ['<a xmlns:p="urn:p">{in-scope-prefixes(<e/>) => sort()}</a>', '<a xmlns:p="urn:p">p xml</a>'],
    ['<a xmlns:p="urn:p"><b xmlns:q="urn:q">{in-scope-prefixes(element e {}) => sort()}</b></a>', '<a xmlns:p="urn:p"><b xmlns:q="urn:q">p q xml</b></a>'],
    ['<a xmlns:p="urn:p">{in-scope-prefixes(element {"e"} {}) => sort()}</a>', '<a xmlns:p="urn:p">p xml</a>'],
    ['<a xmlns="urn:d">{namespace-uri-for-prefix("", <e/>), namespace-uri(element e {})}</a>', '<a xmlns="urn:d">urn:d urn:d</a>'],
    // an inner declaration overrides an outer one
    ['<a xmlns:p="urn:p"><b xmlns:p="urn:p2">{namespace-uri-for-prefix("p", <e/>)}</b></a>', '<a xmlns:p="urn:p"><b xmlns:p="urn:p2">urn:p2</b></a>'],
    ['<a xmlns="urn:d"><b xmlns="">{namespace-uri-for-prefix("", <e/>) => empty()}</b></a>', '<a xmlns="urn:d"><b xmlns="">true</b></a>'],
    // the element's own name keeps its binding
    [
      '<a xmlns:p="urn:p">{namespace-uri-for-prefix("p", element {QName("urn:other", "p:e")} {})}</a>',
      '<a xmlns:p="urn:p">urn:other</a>',
    ],
    ['<a xmlns="urn:d">{element {QName("", "e")} {}, element Q{}f {}}</a>', '<a xmlns="urn:d"><e xmlns=""/><f xmlns=""/></a>'],
    ['declare copy-namespaces no-preserve, no-inherit; <a xmlns:p="urn:p">{in-scope-prefixes(<e/>) => sort()}</a>', '<a xmlns:p="urn:p">p xml</a>'],
  ])('%s', async (query, body) => {
    expect(await ok(query)).toBe(body);
  });
});

describe('integer ranges beyond 32 bits and huge ranges (XQuery 3.1 §3.5)', () => {
  test.each([
    ['-2147483649 to -2147483647', '-2147483649\n-2147483648\n-2147483647'],
    ['2147483646 to 2147483648', '2147483646\n2147483647\n2147483648'],
    ['let $s := -3000000000 return $s to $s + 2', '-3000000000\n-2999999999\n-2999999998'],
    ['xs:integer("-12345678901") to -12345678899', '-12345678901\n-12345678900\n-12345678899'],
    ['count(-2147483649 to -2147483647)', '3'],
    ['(1 to 10000000000)[1]', '1'],
    ['count(1 to 10000000000)', '10000000000'],
    ['let $n := 10000000000 return count((1 to $n))', '10000000000'],
    ['(1 to 10000000000)[last()]', '10000000000'],
    ['(1 to 10000000000)[9999999999]', '9999999999'],
    ['(-10000000000 to 10000000000)[10000000001]', '0'],
    ['count(5 to 3), (5 to 3)[1], (1 to 3)[0], (1 to 3)[4], count(() to 3)', '0\n0'],
    ['xs:untypedAtomic("-3000000000") to -2999999999', '-3000000000\n-2999999999'],
  ])('%s', async (query, body) => {
    expect(await ok(query)).toBe(body);
  });

  test('a bound that is not one integer is XPTY0004', async () => {
    expect(await failureBody(s, 'let $a := 1.5 return $a to 3')).toMatch(/\[XPTY0004\]/);
    expect(await failureBody(s, 'let $a := (-3000000000, 1) return $a to 3')).toMatch(/\[XPTY0004\]/);
    expect(await failureBody(s, 'let $a := -3000000000 return count($a to "x")')).toMatch(/\[XPTY0004\]/);
  });
});

describe('fold-left and fold-right with a function bound to a variable', () => {
  test.each([
    ['let $f := function($a, $b) { $a + $b } return (fold-left(1 to 3, 0, $f), fold-right(1 to 3, 0, $f))', '6\n6'],
    ['let $f := function($a, $b) { ($b, $a) } return (fold-left(1 to 3, (), $f), 0)', '3\n2\n1\n0'],
    ['for $f in function($a, $b) { $a || $b } return (fold-right(("a", "b"), "!", $f), 1)', 'ab!\n1'],
    ['let $f := concat(?, ".", ?) return (fold-left(1 to 3, "", $f), 4)', '.1.2.3\n4'],
  ])('%s', async (query, body) => {
    expect(await ok(query)).toBe(body);
  });

  test('a function of the wrong arity is still XPTY0004', async () => {
    expect(await failureBody(s, 'let $f := function($a, $b, $c) { 1 } return (fold-left(1 to 3, 0, $f), 1)')).toMatch(/\[XPTY0004\]/);
  });
});

describe('distinct-values compares numbers with eq (F&O 3.1 §14.1.2)', () => {
  test.each([
    ['distinct-values((1.2, xs:float(1.2)))', '1.2'],
    ['distinct-values((xs:decimal("1.2"), xs:float("1.2"), "a", "a"))', '1.2\na'],
    ['distinct-values((xs:decimal("1.2"), xs:double("1.2")))', '1.2'],
    ['distinct-values((xs:float("1.2"), xs:double("1.2"))) ! (. instance of xs:float)', 'true\nfalse'],
    ['distinct-values((xs:float("NaN"), xs:double("NaN"))) => count()', '1'],
    ['distinct-values(("a", "A"), "http://www.w3.org/2005/xpath-functions/collation/codepoint")', 'a\nA'],
  ])('%s', async (query, body) => {
    expect(await ok(query)).toBe(body);
  });
});
