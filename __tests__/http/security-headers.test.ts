/**
 * Every response says `X-Content-Type-Options: nosniff`; one a browser renders as an active
 * document (HTML, XHTML, SVG, any XML) also carries a sandboxing Content-Security-Policy.
 */
import request from 'supertest';
import { securityHeaders } from '../../lib/http/security-headers';
import { NS, startTestServer, type TestServer } from '../helpers/rest';

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

const q = (query: string, params = '') => `/rest?query=${encodeURIComponent(query)}${params}`;

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
    ['a query result, method=html', q('<html><script>alert(1)</script></html>', '&method=html'), 'text/html'],
    ['a query result, method=xhtml', q('<html xmlns="http://www.w3.org/1999/xhtml"/>', '&method=xhtml'), 'text/html'],
    ['a query result, method=xml', q('<a/>', '&method=xml'), 'application/xml'],
    ['a query result, default serialization', q('<a/>'), 'application/xml'],
    ['a query result with media-type image/svg+xml', q('<svg/>', '&media-type=image/svg%2Bxml'), 'image/svg+xml'],
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

describe('inert content: nosniff only', () => {
  test.each([
    ['stored text', '/rest/db/note.txt'],
    ['stored JSON bytes', '/rest/db/data.json'],
    ['stored PNG', '/rest/db/image.png'],
    ['a text query result', q('1 + 1', '&method=text')],
    ['a JSON query result', q('map { "a": 1 }', '&method=json')],
    ['command output', '/rest?command=LIST'],
  ])('%s', async (_name, url) => {
    const r = await s.get(url).expect(200);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-security-policy']).toBeUndefined();
  });
});

describe('errors carry nosniff too', () => {
  test.each([
    ['401', () => request(s.app).get('/rest'), 401],
    ['404', () => s.get('/rest/nodb'), 404],
    ['400', () => s.get('/rest?foo=1&query=1&command=x'), 400],
    ['500 query error', () => s.get(q('1 div 0')), 500],
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

describe('the decision kept per Content-Type', () => {
  test('each type keeps its own answer, also past the bound of the memo', async () => {
    // more distinct types than the memo holds (64), active and inert interleaved, then the first ones again
    const types = Array.from({ length: 80 }, (_, i) => (i % 2 === 0 ? `application/x-t${i}+xml` : `application/x-t${i}`));
    for (const type of [...types, ...types.slice(0, 4)]) {
      const r = await s.get(q('"x"', `&media-type=${encodeURIComponent(type)}&method=text`)).expect(200);
      expect(r.headers['content-type']?.split(';')[0]).toBe(type);
      expect(r.headers['content-security-policy']).toBe(type.endsWith('+xml') ? SANDBOX : undefined);
    }
  });

  test('securityHeaders: the same list for the same type, and the rule for each', () => {
    expect(securityHeaders('text/plain; charset=UTF-8')).toEqual(['X-Content-Type-Options', 'nosniff']);
    expect(securityHeaders('text/plain; charset=UTF-8')).toBe(securityHeaders('text/plain; charset=UTF-8'));
    expect(securityHeaders('TEXT/HTML')).toEqual(['X-Content-Type-Options', 'nosniff', 'Content-Security-Policy', SANDBOX]);
    expect(securityHeaders('no type')).toEqual(['X-Content-Type-Options', 'nosniff', 'Content-Security-Policy', SANDBOX]);
  });
});
