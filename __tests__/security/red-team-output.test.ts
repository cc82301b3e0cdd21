/**
 * A query chooses its output: an active media type, a script in an HTML page, a line break and
 * a header in the item separator. The answer is what it asked for, in the body only, and carries
 * the HTTP wall's headers (lib/http/security-headers.ts), so a browser runs nothing of it.
 */
import request from 'supertest';
import { startSandboxServer } from '../helpers/query-routes';
import { NS, queryUrl, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startSandboxServer();
});
afterAll(() => s.close());

const asNobody = (query: string, params = '') => request(s.app).get(queryUrl(query, '', params)).auth('nobody', 'pw');

function expectWalled(r: request.Response): void {
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
  expect(r.headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(r.headers['x-injected']).toBeUndefined();
}

test.each([
  ['declare option output:media-type', 'declare option output:media-type "text/html"; <script>alert(1)</script>', '', 'text/html', '<script>alert(1)</script>'],
  ['method html', '<html><script>alert(1)</script></html>', '&method=html', 'text/html', '<!DOCTYPE html><html><script>alert(1)</script></html>'],
  ['media-type javascript', '"alert(1)"', '&media-type=application%2Fjavascript', 'application/javascript', 'alert(1)'],
  ['media-type svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', '&media-type=image%2Fsvg%2Bxml', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
])('%s: answered in the body, behind the HTTP wall', async (_name, query, params, type, body) => {
  const r = await asNobody(query, params).buffer(true).parse((res, cb) => {
    let text = '';
    res.on('data', (c: Buffer) => (text += c.toString('utf8')));
    res.on('end', () => cb(null, text));
  });
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toBe(`${type}; charset=UTF-8`);
  expect(r.body).toBe(body);
  expectWalled(r);
});

test('declare option output:item-separator with a header: in the body only', async () => {
  const r = await asNobody('declare option output:item-separator "&#xD;&#xA;X-Injected: 1"; (1, 2)');
  expect(r.status).toBe(200);
  expect(r.text).toMatch(/^1\r?\n?X-Injected: 12$/);
  expectWalled(r);
});

test('POST <parameter> item-separator: in the body only', async () => {
  const r = await request(s.app)
    .post('/rest')
    .auth('nobody', 'pw')
    .set('Content-Type', 'application/xml')
    .send(`<query xmlns="${NS}"><text>(1,2)</text><parameter name="item-separator" value="&#xD;&#xA;X-Injected: 1"/></query>`);
  expect([r.status, r.text]).toEqual([200, '1\r\nX-Injected: 12']);
  expectWalled(r);
});
