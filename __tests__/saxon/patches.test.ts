/**
 * The package's saxon-js patches stay in query workers: importing the package (and using it)
 * leaves the host's own saxon-js on the main thread as saxon-js ships it.
 */
import { startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
});
afterAll(() => s.close());

describe('saxon-js on the main thread', () => {
  test('is not patched by importing the package or running queries', async () => {
    // a query runs with the patches (in a worker): the canonical xs:float and xmlns=""
    expect((await s.get(`/rest?query=${encodeURIComponent('string(xs:float(1e11)), <e xmlns="urn:x"><a xmlns=""/></e>')}`).expect(200)).text).toBe(
      '1.0E11\n<e xmlns="urn:x"><a xmlns=""/></e>',
    );
    // and closures keep the values of their creation (closure-variables.ts)
    expect((await s.get(`/rest?query=${encodeURIComponent('for $x in (2, 1) count $c let $f := function() { $x } order by $x return $f()')}`).expect(200)).text).toBe('1\n2');
    const saxon = require('saxon-js') as {
      XPath: { evaluate(expr: string, ctx: unknown, options?: object): unknown };
      serialize(value: unknown, options: object): string;
      internals: { Expr: { Ek: (uri: string) => boolean }; DomUtils: { X: (node: unknown) => unknown; fb: { __documentOrderPatched?: boolean } }; Compare: { be: (key: string, context: unknown) => unknown } };
    };
    // saxon-js 2.7.0's own behaviour, which each patch changes in workers
    expect(saxon.XPath.evaluate('string(xs:float(1e11))', null)).toBe('9.9999998E10');
    const doc = saxon.XPath.evaluate(`parse-xml('<e xmlns="urn:x"><a xmlns=""/></e>')`, null);
    expect(saxon.serialize(doc, { method: 'xml', 'omit-xml-declaration': true })).toBe('<e xmlns="urn:x"><a/></e>');
    expect(saxon.internals.Expr.Ek('z z')).toBe(false);
    expect(saxon.XPath.evaluate('let $fs := for $n in (1, 2) return function() { $n } return $fs ! .()', null)).toEqual([2, 2]);
    expect(() => saxon.XPath.evaluate('for-each((1, 2), function($n) { function() { $n } }) ! .()', null)).toThrow(/alphaCode/);
    const [b1, b2] = saxon.XPath.evaluate(`parse-xml('<a><b/><b/></a>')//b`, null, { resultForm: 'array' }) as unknown[];
    expect(saxon.internals.DomUtils.X(b1)).not.toBe(saxon.internals.DomUtils.X(b2));
    expect(saxon.internals.Compare.be('NC', null)).not.toBe(saxon.internals.Compare.be('NC', null));
    expect(saxon.internals.DomUtils.fb.__documentOrderPatched).toBeUndefined();
    expect(saxon.XPath.evaluate('Q{http://saxonica.com/ns/interactiveXSLT}window()', null)).toBe(globalThis);
  });

  test("does not get the engine's extension functions, which query workers register", async () => {
    expect((await s.get(`/rest?query=${encodeURIComponent('count(db:list())')}`).expect(200)).text).toBe('0');
    const saxon = require('saxon-js') as { XPath: { evaluate(expr: string, ctx: unknown): unknown } };
    const known = (ns: string, local: string, arity: number) => saxon.XPath.evaluate(`exists(function-lookup(QName('${ns}', '${local}'), ${arity}))`, null);
    expect(known('urn:xmldb-rest:engine', 'doc', 1)).toBe(false);
    expect(known('urn:xmldb-rest:engine', 'codepoints-to-string', 1)).toBe(false);
    expect(known('http://basex.org/modules/db', 'list', 0)).toBe(false);
  });
});
