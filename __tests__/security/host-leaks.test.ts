/**
 * Answers that say nothing about the host, against the real router: a control character in a
 * serialization parameter, from any source, is a 400 `[SEPM0016]` (never a 500, a second header
 * or a stack in the log); saxon-js's internal errors lose the JavaScript source and script paths
 * they print; a `run` file's base URI names a virtual folder, never the REST path on the host.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { hostFreeMessage, toQueryError } from '../../lib/xquery/query-error';
import { QueryPool } from '../../lib/xquery/host/pool';
import { NS, queryUrl, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
const logged: string[] = [];
beforeAll(async () => {
  s = await startTestServer({ log: (line) => logged.push(line) });
  fs.mkdirSync(path.join(s.restPath, 'sub dir'));
  fs.writeFileSync(path.join(s.restPath, 'base.xq'), 'static-base-uri()');
  fs.writeFileSync(path.join(s.restPath, 'sub dir', 'a#b.xq'), 'string-join((static-base-uri(), base-uri(<a/>), resolve-uri("x.xml")), " ")');
  fs.writeFileSync(path.join(s.restPath, 'fails.xq'), 'error(xs:QName("err:FOER0000"), "base " || static-base-uri())');
  fs.writeFileSync(path.join(s.restPath, 'missing.xq'), 'doc(resolve-uri("missing.xml"))');
  fs.writeFileSync(path.join(s.restPath, 'script.bxs'), 'RUN base.xq');
});
afterAll(() => s.close());
beforeEach(() => {
  logged.length = 0;
});

const SEPM = (name: string, problem: string) => `[SEPM0016] Invalid value for serialization parameter "${name}": ${problem}.`;
const postQuery = (parameters: string) => `<query xmlns="${NS}"><text>1</text>${parameters}</query>`;

/** A client error: its status and exact body, no header of the value, and nothing in the log. */
function expectClientError(r: request.Response, status: number, body: string): void {
  expect(r.status).toBe(status);
  expect(r.text).toBe(body);
  expect(r.headers['x-injected']).toBeUndefined();
  expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
  expect(logged).toEqual([]);
}

describe('a control character in a serialization parameter is a 400, from every source', () => {
  const INJECTION = 'text/plain\r\nX-Injected: 1';

  test.each([
    ['media-type, CR LF', 'media-type', INJECTION, 'control character U+000D'],
    ['media-type, LF', 'media-type', 'text/plain\nX-Injected: 1', 'control character U+000A'],
    ['media-type, NUL', 'media-type', 'text/plain\0', 'control character U+0000'],
    ['media-type, beyond ASCII', 'media-type', 'text/plainΩ', 'character U+03A9 cannot be sent in a Content-Type header'],
    ['method', 'method', 'text\r\n', 'control character U+000D'],
    ['encoding', 'encoding', 'UTF-8\r\nX-Injected: 1', 'control character U+000D'],
    ['indent', 'indent', 'yes\n', 'control character U+000A'],
    ['doctype-system', 'doctype-system', 'a\u0085b', 'control character U+0085'],
    ['item-separator, DEL', 'item-separator', 'a\u007fb', 'control character U+007F'],
  ])('query string: %s', async (_name, param, value, problem) => {
    expectClientError(await s.get(queryUrl('1', '', `&${param}=${encodeURIComponent(value)}`)), 400, SEPM(param, problem));
  });

  test('POST <parameter>', async () => {
    const r = await s.post('/rest', postQuery('<parameter name="media-type" value="text/plain&#13;&#10;X-Injected: 1"/>'));
    expectClientError(r, 400, SEPM('media-type', 'control character U+000D'));
  });

  test('declare option output:*, at the declaration', async () => {
    const r = await s.get(queryUrl('declare option output:media-type "text/plain&#10;X-Injected: 1"; 1'));
    expectClientError(r, 400, `Stopped at ., 1/1:\n${SEPM('media-type', 'control character U+000A')}`);
    const method = await s.get(queryUrl('declare option output:method "xxx"; 1'));
    expectClientError(method, 400, `Stopped at ., 1/1:\n${SEPM('method', 'unknown method "xxx"')}`);
    const encoding = await s.get(queryUrl('declare option output:encoding "foo"; 1'));
    expectClientError(encoding, 400, `Stopped at ., 1/1:\n${SEPM('encoding', 'unsupported encoding "foo"')}`);
  });

  test('the SERIALIZER option: query string and POST <option> (400), SET SERIALIZER (a failing command: 500)', async () => {
    expectClientError(await s.get(queryUrl('1', '', `&serializer=${encodeURIComponent('indent=yes,media-type=a\rb')}`)), 400, SEPM('media-type', 'control character U+000D'));
    const post = await s.post('/rest', postQuery('<option name="serializer" value="media-type=a&#10;b"/>'));
    expectClientError(post, 400, SEPM('media-type', 'control character U+000A'));
    const set = await s.get(`/rest?command=${encodeURIComponent('SET SERIALIZER media-type=a\u0001b')}`);
    expectClientError(set, 500, 'Invalid value for serialization parameter "media-type": control character U+0001.');
    await s.get(`/rest?command=${encodeURIComponent('SET SERIALIZER method=xml, indent=yes')}`).expect(200, '');
  });

  test('tabs and line ends stay data where the value is text of the body', async () => {
    expect((await s.get(queryUrl('1, 2', '', `&item-separator=${encodeURIComponent('\r\n')}&method=text`)).expect(200)).text).toBe('1\r\n2');
    expect((await s.get(queryUrl('"a"', '', `&media-type=${encodeURIComponent('text/x-t; a="b c"')}&method=text`)).expect(200)).headers['content-type']).toBe('text/x-t; a="b c"; charset=UTF-8');
  });
});

describe('saxon-js internal errors lose their JavaScript source', () => {
  // The language and engine walls keep queries from ixsl: and globalJS:; this goes around them,
  // straight to a worker, as host-wall.test.ts does.
  let pool: QueryPool;
  beforeAll(() => {
    pool = new QueryPool({ size: 1 });
  });
  afterAll(() => pool.close());

  test('a host function call raw in XPath answers no JavaScript source', async () => {
    // The engine wall removes the host bindings, so the call is unknown (XPST0017); with that wall
    // down it would fail with SXJS0007, whose message the table below shows without source.
    const IXSL = 'Q{http://saxonica.com/ns/interactiveXSLT}';
    const error = await pool
      .run({ xslt: '', xpath: `${IXSL}call(${IXSL}get(parse-xml("<a/>"), "constructor"), "constructor", ["return 7"])`, serialization: { method: 'text' } })
      .then(() => undefined, (e: unknown) => e as Error & { code?: string });
    expect(error?.code).toBe('XPST0017');
    expect(error?.message).not.toMatch(/return|=>|\{\s|\.js\b/);
  });

  test.each([
    ['SXJS0007', 'Failed to call method function(a,b){return a.fixed.Uc}', 'Failed to call method [JavaScript code]'],
    ['SXJS0007', 'Failed to call method function Ab(a){return a.fixed.Uc}', 'Failed to call method function Ab() [JavaScript code]'],
    ['SXJS0007', "ixsl:call: property 'x' is not a function", "ixsl:call: property 'x' is not a function"],
    ['SXJS0007', 'Failed to call method async (c) => { await c }', 'Failed to call method async (c) [JavaScript code]'],
    ['SXJS0004', 'Att not found in parent Q{http://a}b', 'Att not found in parent Q{http://a}b'],
    ['SXJS0004', 'bad at /srv/app/node_modules/saxon-js/SaxonJS2N.js:12:345 here', 'bad at [script] here'],
    ['SXJS0004', 'bad\n    at f (/srv/app/lib/x.js:1:2)\n    at g', 'bad'],
    ['FOER0000', 'a query\'s own message: function x() { body }\n  at /a.js', 'a query\'s own message: function x() { body }\n  at /a.js'],
    ['XPTY0004', "Required item type of first operand of 'lookup' is function(*); supplied value is xs:double('1')", "Required item type of first operand of 'lookup' is function(*); supplied value is xs:double('1')"],
  ])('%s: %j', (code, message, expected) => {
    if (code.startsWith('SXJS')) expect(hostFreeMessage(message)).toBe(expected);
    const error = Object.assign(new Error(message), { code: `Q{http://www.w3.org/2005/xqt-errors}${code}` });
    expect(toQueryError(error, 'evaluate').message).toBe(expected);
  });

  test('a JavaScript exception inside saxon-js (SXJS0004) loses its stack and paths', () => {
    const e = new TypeError('x.y is not a function at /srv/app/node_modules/saxon-js/SaxonJS2N.js:1:2');
    expect(toQueryError(e, 'evaluate').message).toBe('Internal error in saxon-js: x.y is not a function at [script]');
  });
});

describe('a run file has a virtual base URI, never the REST path of the host', () => {
  test.each([
    ['GET ?run=', () => s.get('/rest?run=base.xq')],
    ['POST <run>', () => s.post('/rest', `<run xmlns="${NS}"><text>base.xq</text></run>`)],
    ['RUN command', () => s.get(`/rest?command=${encodeURIComponent('RUN base.xq')}`)],
    ['RUN of a .bxs script that runs it', () => s.get('/rest?run=script.bxs')],
    ['name without suffix', () => s.get('/rest?run=base')],
  ])('static-base-uri(): %s', async (_name, send) => {
    const r = await send();
    expect(r.status).toBe(200);
    expect(r.text).toBe('file:///restpath/base.xq');
  });

  test('in a sub folder, with characters a URI escapes: static base, base URI of a constructed node, resolved URIs', async () => {
    const r = await s.get(`/rest?run=${encodeURIComponent('sub dir/a#b.xq')}`).expect(200);
    expect(r.text).toBe('file:///restpath/sub%20dir/a%23b.xq file:///restpath/sub%20dir/a%23b.xq file:///restpath/sub%20dir/x.xml');
  });

  test('error messages show the virtual base too', async () => {
    const r = await s.get('/rest?run=fails.xq').expect(500);
    expect(r.text).toBe('Stopped at fails.xq, 1/1:\n[FOER0000] base file:///restpath/fails.xq');
    const missing = await s.get('/rest?run=missing.xq').expect(500);
    expect(missing.text).toBe("Stopped at missing.xq, 1/1:\n[FODC0002] Access to 'file:///restpath/missing.xml' is denied.");
  });
});
