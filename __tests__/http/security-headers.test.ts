/**
 * Every response says `X-Content-Type-Options: nosniff`, carries a sandboxing
 * Content-Security-Policy and `Cross-Origin-Resource-Policy: same-origin`, whatever its type.
 */
import request from 'supertest';
import { securityHeaders } from '../../lib/http/security-headers';
import { NS, asBytes, queryUrl, startTestServer, type TestServer } from '../helpers/rest';

const SANDBOX = "sandbox; default-src 'none'";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.put('/rest/db', '<a/>').expect(201);
  await s.put('/rest/db/page.html', '<html><script>alert(1)</script></html>', 'text/plain').expect(201);
  await s.put('/rest/db/page.xhtml', '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>').expect(201);
  await s.put('/rest/db/x.xml', '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>').expect(201);
  await s.put('/rest/db/pic.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'application/octet-stream').expect(201);
  await s.put('/rest/db/style.xsl', '<x/>').expect(201);
  await s.put('/rest/db/converted.html', '<p>hi', 'text/html').expect(201);
  await s.put('/rest/db/note.txt', 'plain', 'text/plain').expect(201);
  await s.put('/rest/db/data.json', '{"a":1}', 'application/octet-stream').expect(201);
  await s.put('/rest/db/image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png').expect(201);
});
afterAll(() => s.close());


describe('active content: nosniff and a sandboxing CSP', () => {
  test.each([
    ['stored raw .html', '/rest/db/page.html', 'text/html'],
    ['stored .xhtml', '/rest/db/page.xhtml', 'application/xml'],
    ['stored XHTML as .xml', '/rest/db/x.xml', 'application/xml'],
    ['stored raw .svg', '/rest/db/pic.svg', 'image/svg+xml'],
    ['stored .xsl', '/rest/db/style.xsl', 'application/xml'],
    ['HTML converted on PUT', '/rest/db/converted.html', 'application/xml'],
    ['a database listing', '/rest/db', 'application/xml'],
    ['the list of databases', '/rest', 'application/xml'],
    ['a query result, method=html', queryUrl('<html><script>alert(1)</script></html>', '', '&method=html'), 'text/html'],
    ['a query result, method=xhtml', queryUrl('<html xmlns="http://www.w3.org/1999/xhtml"/>', '', '&method=xhtml'), 'text/html'],
    ['a query result, method=xml', queryUrl('<a/>', '', '&method=xml'), 'application/xml'],
    ['a query result, default serialization', queryUrl('<a/>'), 'application/xml'],
    ['a query result with media-type image/svg+xml', queryUrl('<svg/>', '', '&media-type=image/svg%2Bxml'), 'image/svg+xml'],
  ])('%s', async (_name, url, type) => {
    const r = await s.get(url).expect(200);
    expect(r.headers['content-type']?.split(';')[0]).toBe(type);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-security-policy']).toBe(SANDBOX);
  });

  test('POST and QUERY results', async () => {
    const post = await s.post('/rest', `<query xmlns="${NS}"><text>&lt;a/&gt;</text></query>`).expect(200);
    expect(post.headers['content-security-policy']).toBe(SANDBOX);
    const query = await s.query('/rest', '<a/>').expect(200);
    expect(query.headers['content-security-policy']).toBe(SANDBOX);
  });
});

describe('content a browser does not render as a document: the same headers', () => {
  test.each([
    ['stored text', '/rest/db/note.txt'],
    ['stored JSON bytes', '/rest/db/data.json'],
    ['stored PNG', '/rest/db/image.png'],
    ['a text query result', queryUrl('1 + 1', '', '&method=text')],
    ['a JSON query result', queryUrl('map { "a": 1 }', '', '&method=json')],
    ['command output', '/rest?command=LIST'],
  ])('%s', async (_name, url) => {
    const r = await s.get(url).expect(200);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-security-policy']).toBe(SANDBOX);
    expect(r.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

describe('errors carry nosniff too', () => {
  test.each([
    ['401', () => request(s.app).get('/rest'), 401],
    ['404', () => s.get('/rest/nodb'), 404],
    ['400', () => s.get('/rest?foo=1&query=1&command=x'), 400],
    ['500 query error', () => s.get(queryUrl('1 div 0')), 500],
    ['501', () => request(s.app).patch('/rest').auth('admin', 'admin-pw'), 501],
  ] as const)('%s', async (_name, send, status) => {
    const r = await send().expect(status);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('answers without a body carry nosniff too', () => {
  test.each([
    ['OPTIONS /rest', () => request(s.app).options('/rest')],
    ['OPTIONS of a resource', () => request(s.app).options('/rest/db/page.html')],
    ['HEAD of a resource', () => request(s.app).head('/rest/db/page.html').auth('admin', 'admin-pw')],
  ] as const)('%s', async (_name, send) => {
    const r = await send();
    expect([200, 204]).toContain(r.status);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('one set of headers for every type', () => {
  test('types a client chooses get the same headers, active or not', async () => {
    for (const type of ['application/x-t1+xml', 'application/x-t2', 'text/css', 'application/pdf', 'multipart/mixed; boundary=x', 'no type']) {
      const r = await asBytes(s.get(queryUrl('"x"', '', `&media-type=${encodeURIComponent(type)}&method=text`))).expect(200);
      expect(r.headers['content-type']?.split(';')[0]).toBe(type.split(';')[0]);
      expect(r.headers['content-security-policy']).toBe(SANDBOX);
    }
  });

  test('securityHeaders: nosniff, the sandbox and same-origin embedding only', () => {
    expect(securityHeaders()).toEqual(['X-Content-Type-Options', 'nosniff', 'Content-Security-Policy', SANDBOX, 'Cross-Origin-Resource-Policy', 'same-origin']);
  });
});
