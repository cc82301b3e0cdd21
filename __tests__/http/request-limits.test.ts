/**
 * The router's limits on a request's size: the URL (maxUrlLength), its parameters
 * (maxParameters), and resource paths (the limits every store holds), each answered with a
 * status and a text body naming the limit and the way around it.
 */
import http from 'node:http';
import request from 'supertest';
import { createRestRouter } from '../../lib';
import { ADMIN, NS, startTestServer, tempDir, type TestServer } from '../helpers/rest';

const LIMITS = 'a resource path has at most 1024 bytes, 128 segments and 255 bytes in a segment.';
const urlTooLong = (bytes: number, max: number) =>
  `URI too long: ${bytes} bytes, at most ${max} are accepted (option maxUrlLength). Send a long query or command in the body of a POST request, or a query in the body of a QUERY request.`;

/** A host whose Node server accepts request lines of up to 1 MiB: only the router's own limits apply. */
function largeHeaders(s: TestServer) {
  const server = http.createServer({ maxHeaderSize: 1024 * 1024 }, s.app);
  return { get: (url: string) => request(server).get(url).auth(ADMIN.user, ADMIN.password) };
}

function expectText(r: request.Response, status: number, body: string): void {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.text).toBe(body);
}

describe('URL length and parameter count', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  test('GET with a 64 KB ?query=: 414 naming the limit, POST and QUERY', async () => {
    const url = `/?query=${'x'.repeat(64 * 1024)}`;
    expectText(await largeHeaders(s).get(`/rest${url}`), 414, urlTooLong(url.length, 16384));
  });

  test('GET of a 100 KB URL: 414', async () => {
    const url = `/db/${'x'.repeat(100 * 1024)}`;
    expectText(await largeHeaders(s).get(`/rest${url}`), 414, urlTooLong(url.length, 16384));
  });

  test('?command= with a 100 KB argument: 414', async () => {
    const url = `/?command=${encodeURIComponent(`XQUERY ${'1'.repeat(100 * 1024)}`)}`;
    expectText(await largeHeaders(s).get(`/rest${url}`), 414, urlTooLong(url.length, 16384));
  });

  test('GET with 10,000 parameters: 414 for its length', async () => {
    const url = `/?query=1&${Array.from({ length: 10_000 }, (_, i) => `v${i}=1`).join('&')}`;
    expectText(await largeHeaders(s).get(`/rest${url}`), 414, urlTooLong(url.length, 16384));
  });

  test('a URL of exactly maxUrlLength is served, one byte more is not', async () => {
    // `/?query=1&x=111…` of n bytes
    const url = (n: number) => `/?query=1&x=${'1'.repeat(n - 12)}`;
    const at = await largeHeaders(s).get(`/rest${url(16384)}`);
    expect(`${at.status} ${at.text}`).toBe('200 1');
    expectText(await largeHeaders(s).get(`/rest${url(16385)}`), 414, urlTooLong(16385, 16384));
  });
});

describe('options maxUrlLength and maxParameters', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ maxUrlLength: 1024 * 1024, maxParameters: 3 });
  });
  afterAll(() => s.close());

  const tooMany = (n: number, max: number) =>
    `Too many query parameters: ${n}, at most ${max} are accepted (option maxParameters). Send the query in the body of a POST request, its variables as <variable> elements.`;

  test('10,000 parameters in a URL the limit allows: 414 naming the parameter limit, none dropped silently', async () => {
    const url = `/rest?query=1&${Array.from({ length: 9_999 }, (_, i) => `v${i}=1`).join('&')}`;
    expectText(await largeHeaders(s).get(url), 414, tooMany(10_000, 3));
  });

  test('the limit counts every parameter, repeated names too; at the limit the request is served', async () => {
    const at = await s.get('/rest?query=declare+variable+$a+external;$a&a=1&method=text');
    expect(`${at.status} ${at.text}`).toBe('200 1');
    expectText(await s.get('/rest?query=1&a=1&a=2&a=3'), 414, tooMany(4, 3));
  });

  test('a larger maxUrlLength lets a 64 KB query through', async () => {
    const query = `string-length('${'x'.repeat(64 * 1024)}')`;
    const r = await largeHeaders(s).get(`/rest?query=${encodeURIComponent(query)}`);
    expect(`${r.status} ${r.text}`).toBe(`200 ${64 * 1024}`);
  });

  test('invalid values are refused at creation', () => {
    expect(() => createRestRouter({ maxUrlLength: 0, maxParameters: 1.5 })).toThrow(
      'xmldb-rest: invalid options: "maxUrlLength" must be a positive integer; "maxParameters" must be a positive integer.',
    );
  });

  test('a data folder too deep for the longest resource path is refused at creation', () => {
    const dbPath = `/${'d/'.repeat(1280)}x`;
    expect(() => createRestRouter({ dbPath })).toThrow(
      'xmldb-rest: invalid options: "dbPath" must be at most 2560 bytes long as an absolute path, for the longest resource path to fit the file system.',
    );
    expect(() => createRestRouter({ dbPath: `/${'d/'.repeat(1279)}x`, restPath: tempDir() })).not.toThrow();
  });
});

describe('resource paths beyond the limits', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await s.put('/rest/db').expect(201);
  });
  afterAll(() => s.close());

  const fuzzed = `${'a/'.repeat(5000)}${'b'.repeat(255)}`;
  const fuzzedMessage = `Path too long: 10255 bytes in 5001 segments, the longest of 255 bytes; ${LIMITS}`;

  test('PUT to 5,000 one-character segments plus a 255-character leaf: 400 naming the limits, nothing stored', async () => {
    const before = (await s.get('/rest/db')).text;
    expectText(await s.put(`/rest/db/${fuzzed}`, '<a/>', 'application/xml'), 400, fuzzedMessage);
    expect((await s.get('/rest/db')).text).toBe(before);
  });

  test('the path is refused before the body is read', async () => {
    // A body larger than maxBodySize would answer 413 if it were read.
    const small = await startTestServer({ maxBodySize: 10 });
    try {
      await small.put('/rest/db').expect(201);
      expectText(await small.put(`/rest/db/${fuzzed}`, `<a>${'x'.repeat(100)}</a>`, 'application/xml'), 400, fuzzedMessage);
    } finally {
      await small.close();
    }
  });

  test('GET and DELETE of such a path: 400 too', async () => {
    expectText(await s.get(`/rest/db/${fuzzed}`), 400, fuzzedMessage);
    expectText(await s.del(`/rest/db/${fuzzed}`), 400, fuzzedMessage);
  });

  test('the longest path is stored and read back, in a database of the longest name', async () => {
    const longest = ['x'.repeat(255), 'x'.repeat(255), 'x'.repeat(255), 'x'.repeat(254), 'y'].join('/');
    const db = 'n'.repeat(255);
    expect((await s.put(`/rest/${db}`)).status).toBe(201);
    expect((await s.put(`/rest/${db}/${longest}`, '<a/>', 'application/xml')).status).toBe(201);
    const r = await s.get(`/rest/${db}/${longest}`);
    expect(`${r.status} ${r.text}`).toBe('200 <a/>');
    expectText(await s.put(`/rest/${db}/${longest}z`, '<a/>', 'application/xml'), 400, `Path too long: 1025 bytes in 5 segments, the longest of 255 bytes; ${LIMITS}`);
  });

  const post = (root: 'query' | 'command', text: string) => s.post('/rest/db', `<${root} xmlns="${NS}"><text><![CDATA[${text}]]></text></${root}>`);

  test.each([
    ['db:put', `db:put('db', <a/>, '${fuzzed}')`],
    ['db:add', `db:add('db', <a/>, '${fuzzed}')`],
    ['db:put-binary', `db:put-binary('db', 'x', '${fuzzed}')`],
    ['db:rename', `db:rename('db', 'x', '${fuzzed}')`],
  ])('a query: %s answers [db:path]', async (_, query) => {
    const r = await post('query', query);
    expect(r.status).toBe(500);
    expect(r.text).toBe(`Stopped at ., 1/1:\n[db:path] Invalid path: ${fuzzed}.`);
  });

  test.each([
    ['ADD', `ADD TO ${fuzzed} <a/>`],
    ['STORE', `STORE TO ${fuzzed} x`],
    ['PUT', `PUT ${fuzzed} <a/>`],
    ['DELETE', `DELETE ${fuzzed}`],
    ['RENAME', `RENAME x ${fuzzed}`],
  ])('a command: %s names the limits', async (_, command) => {
    const r = await post('command', command);
    expect(`${r.status} ${r.text}`).toBe(`500 ${fuzzedMessage}`);
  });

  test('RENAME that would move a resource below past the limits: refused, nothing moved', async () => {
    expect((await post('command', 'ADD TO dir/y.xml <y/>')).status).toBe(200);
    const target = ['t'.repeat(255), 't'.repeat(255), 't'.repeat(255), 't'.repeat(252)].join('/'); // 1020 bytes
    const r = await post('command', `RENAME dir ${target}`);
    expect(`${r.status} ${r.text}`).toBe(`500 Path too long: 1026 bytes in 5 segments, the longest of 255 bytes; ${LIMITS}`);
    expect((await s.get('/rest/db/dir/y.xml')).text).toBe('<y/>');
  });
});
