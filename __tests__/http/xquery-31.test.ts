/** XQuery 3.1 behaviour over REST: the context item declaration, constructors' namespaces, ranges, folds, distinct values. */
import { startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
  await s.put('/rest/db', '<r><i>1</i><i>2</i></r>', 'application/xml').expect(201);
  await s.put('/rest/db/x.xml', '<x>3</x>', 'application/xml').expect(201);
});
afterAll(() => s.close());

const q = (query: string, path = '', extra = '') => s.get(`/rest${path}?query=${encodeURIComponent(query)}${extra}`);
/** The body of a successful query (the error body in the failure message otherwise). */
const ok = async (query: string, path = '', extra = ''): Promise<string> => {
  const r = await q(query, path, extra);
  if (r.status !== 200) throw new Error(`${query}: ${r.status} ${r.text}`);
  return r.text;
};
const fails = async (query: string, path = ''): Promise<string> => (await q(query, path).expect(500)).text;

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
    expect(await fails('declare context item as xs:string := 3; . + 1')).toBe(
      'Stopped at ., 1/41:\n[XPTY0004] The context item does not match the declared type xs:string.',
    );
    expect(await fails('declare context item := (1, 2); .')).toBe('Stopped at ., 1/33:\n[XPTY0004] The context item does not match the declared type item().');
    expect(await fails('declare context item := (); .')).toBe('Stopped at ., 1/29:\n[XPTY0004] The context item does not match the declared type item().');
    const context = `&context=${encodeURIComponent('<c/>')}`;
    expect((await q('declare context item as xs:integer external; .', '', context).expect(500)).text).toMatch(
      /^Stopped at .*\n\[XPTY0004\] The context item does not match the declared type xs:integer\.$/,
    );
  });

  test('without a value and without a request context, the focus is absent; functions never see it', async () => {
    expect(await fails('declare context item external; .')).toMatch(/\[XPDY0002\]/);
    expect(await fails('declare context item := 1; declare function local:f() { . }; local:f()')).toMatch(/\[XPDY0002\]/);
  });

  test('a second declaration is XQST0099', async () => {
    expect(await fails('declare context item := 1; declare context item := 2; .')).toMatch(/^Stopped at ., 1\/28:\n\[XQST0099\]/);
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

