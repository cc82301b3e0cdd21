/**
 * Cross-site requests (our decision): requests sent by a browser for a page of another site that
 * change state or run code (query, command, run) are refused with 403 before anything is read or
 * run; plain clients (no Origin, no Sec-Fetch-Site) and same-origin pages keep working.
 * __tests__/security/http-wall.test.ts covers every route against every fetch metadata.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { ADMIN, NS, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
let server: http.Server;
let own: string;

beforeAll(async () => {
  s = await startTestServer({ trustedOrigins: ['https://ui.example:8443'] });
  server = http.createServer(s.app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  own = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await s.put('/rest/db', '<a>stays</a>').expect(201);
  await s.put('/rest/db/page.xml', '<a/>').expect(201);
  await s.put('/rest/db/run.xq', "db:create('made-by-run')", 'application/octet-stream').expect(201);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await s.close();
});

type Headers = Record<string, string>;

/** Every state-changing or code-running form, with the message of its refusal. */
const forms: Array<[string, (h: Headers) => request.Test, string]> = [
  ['PUT', (h) => request(server).put('/rest/db/new.xml').set(h).auth(ADMIN.user, ADMIN.password).set('Content-Type', 'application/xml').send('<b/>'), 'PUT'],
  ['PUT of a database', (h) => request(server).put('/rest/other').set(h).auth(ADMIN.user, ADMIN.password), 'PUT'],
  ['DELETE', (h) => request(server).delete('/rest/db/page.xml').set(h).auth(ADMIN.user, ADMIN.password), 'DELETE'],
  [
    'POST <commands>',
    (h) => request(server).post('/rest').set(h).auth(ADMIN.user, ADMIN.password).set('Content-Type', 'application/xml').send('<commands><drop-db name="db"/></commands>'),
    'POST',
  ],
  [
    'POST text/plain <query>',
    (h) =>
      request(server).post('/rest').set(h).auth(ADMIN.user, ADMIN.password).set('Content-Type', 'text/plain')
        .send(`<query xmlns="${NS}"><text>db:drop('db')</text></query>`),
    'POST',
  ],
  [
    'QUERY',
    (h) => new request.Test(server, 'QUERY', '/rest').set(h).auth(ADMIN.user, ADMIN.password).set('Content-Type', 'text/plain').send("db:drop('db')"),
    'QUERY',
  ],
  ['GET with command', (h) => request(server).get('/rest?command=DROP%20DB%20db').set(h).auth(ADMIN.user, ADMIN.password), 'GET with command'],
  ['GET with run', (h) => request(server).get('/rest/db?run=run.xq').set(h).auth(ADMIN.user, ADMIN.password), 'GET with run'],
  ['HEAD with command', (h) => request(server).head('/rest?command=DROP%20DB%20db').set(h).auth(ADMIN.user, ADMIN.password), 'HEAD with command'],
  [
    'GET with an updating query',
    (h) => request(server).get(`/rest?query=${encodeURIComponent("db:drop('db')")}`).set(h).auth(ADMIN.user, ADMIN.password),
    'GET with query',
  ],
  [
    'GET with a query mixing values and updates (MIXUPDATES)',
    (h) =>
      request(server)
        .get(`/rest/db?query=${encodeURIComponent('1, delete node /a')}&mixupdates=true`)
        .set(h)
        .auth(ADMIN.user, ADMIN.password),
    'GET with query',
  ],
  [
    'GET with an XQuery Update query',
    (h) => request(server).get(`/rest/db?query=${encodeURIComponent('delete node /a')}`).set(h).auth(ADMIN.user, ADMIN.password),
    'GET with query',
  ],
  [
    'GET with a read-only query',
    (h) => request(server).get(`/rest/db/db.xml?query=${encodeURIComponent('string(/a)')}`).set(h).auth(ADMIN.user, ADMIN.password),
    'GET with query',
  ],
];

async function unchanged(): Promise<void> {
  const list = await s.get('/rest').expect(200);
  expect(list.text).toBe(`<databases xmlns="${NS}"><database resources="3" size="${list.text.match(/size="(\d+)"/)?.[1]}">db</database></databases>`);
  expect((await s.get('/rest/db/db.xml').expect(200)).text).toBe('<a>stays</a>');
  await s.get('/rest/db/page.xml').expect(200);
}

const crossSite: Array<[string, () => Headers]> = [
  ['Sec-Fetch-Site: cross-site', () => ({ 'Sec-Fetch-Site': 'cross-site' })],
  ['Sec-Fetch-Site: same-site', () => ({ 'Sec-Fetch-Site': 'same-site', Origin: 'http://sub.127.0.0.1.example' })],
  ['a foreign Origin', () => ({ Origin: 'http://evil.example' })],
  ['Origin: null (sandboxed page)', () => ({ Origin: 'null' })],
  ['own host, other scheme', () => ({ Origin: own.replace('http:', 'https:') })],
  ['own host, other port', () => ({ Origin: 'http://127.0.0.1:1' })],
  ['same-origin claim with a foreign Origin', () => ({ 'Sec-Fetch-Site': 'same-origin', Origin: 'http://evil.example' })],
];

describe.each(crossSite)('refused with %s', (_name, headers) => {
  test.each(forms)('%s: 403, nothing changes', async (_form, send, refused) => {
    const r = await send(headers()).expect(403);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    // A HEAD answer has no body; its length tells the message all the same.
    if (refused.startsWith('HEAD')) expect(r.headers['content-length']).toBe(String(`Cross-site request refused: ${refused}. A page of another origin may send it only if the router's trustedOrigins option lists that origin.`.length));
    else expect(r.text).toBe(`Cross-site request refused: ${refused}. A page of another origin may send it only if the router's trustedOrigins option lists that origin.`);
    await unchanged();
  });
});

describe('what a cross-site request may still do', () => {
  const h = { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' };

  test('GET of a resource and a listing (Cross-Origin-Resource-Policy keeps them from other pages)', async () => {
    const r = await request(server).get('/rest/db/db.xml').set(h).auth(ADMIN.user, ADMIN.password).expect(200);
    expect(r.text).toBe('<a>stays</a>');
    expect(r.headers['cross-origin-resource-policy']).toBe('same-origin');
    await request(server).get('/rest/db').set(h).auth(ADMIN.user, ADMIN.password).expect(200);
  });

  test('the refusal comes before authentication and before the body is read', async () => {
    const noAuth = await request(server).put('/rest/db/x.xml').set(h).send('<a/>').expect(403);
    expect(noAuth.text).toBe("Cross-site request refused: PUT. A page of another origin may send it only if the router's trustedOrigins option lists that origin.");
    const huge = await request(server).post('/rest').set(h).set('Content-Type', 'application/xml').send('<x/>'.repeat(1000)).expect(403);
    expect(huge.text).toBe("Cross-site request refused: POST. A page of another origin may send it only if the router's trustedOrigins option lists that origin.");
  });
});

describe('not refused', () => {
  test('plain clients without Origin or Sec-Fetch-Site: every form works as before', async () => {
    await s.put('/rest/plain', '<p/>').expect(201);
    await s.put('/rest/plain/x.xml', '<x/>').expect(201);
    await s.post('/rest/plain', `<query xmlns="${NS}"><text>count(/*)</text></query>`).expect(200);
    await s.query('/rest/plain', 'count(/*)').expect(200);
    expect((await s.get(`/rest/plain?query=${encodeURIComponent('insert node <y/> into /x')}`).expect(200)).text).toBe('');
    await s.get('/rest/plain?command=INFO%20DB').expect(200);
    await s.del('/rest/plain/x.xml').expect(200);
    await s.get('/rest?command=DROP%20DB%20plain').expect(200);
  });

  test.each([
    ['same-origin page', () => ({ 'Sec-Fetch-Site': 'same-origin', Origin: own })],
    ['Origin equal to the request origin', () => ({ Origin: own })],
    ['user-initiated navigation (Sec-Fetch-Site: none)', () => ({ 'Sec-Fetch-Site': 'none' })],
    ['a trusted origin, even cross-site', () => ({ 'Sec-Fetch-Site': 'cross-site', Origin: 'https://ui.example:8443' })],
  ])('%s', async (_name, headers) => {
    const h = headers();
    const auth = (t: request.Test) => t.set(h).auth(ADMIN.user, ADMIN.password);
    await auth(request(server).put('/rest/same')).expect(201);
    await auth(request(server).put('/rest/same/a.xml')).set('Content-Type', 'application/xml').send('<a/>').expect(201);
    await auth(request(server).get(`/rest/same?query=${encodeURIComponent('insert node <b/> into /a')}`)).expect(200);
    await auth(request(server).post('/rest/same')).set('Content-Type', 'application/xml').send(`<query xmlns="${NS}"><text>count(//b)</text></query>`).expect(200, '1');
    await auth(new request.Test(server, 'QUERY', '/rest/same')).set('Content-Type', 'text/plain').send('count(//b)').expect(200, '1');
    await auth(request(server).delete('/rest/same/a.xml')).expect(200);
    await auth(request(server).get('/rest?command=DROP%20DB%20same')).expect(200);
  });
});

describe('the request origin behind a proxy follows Express\'s trust proxy', () => {
  const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'db.example', Origin: 'https://db.example' };

  test('trusted proxy: the forwarded origin is the request\'s own', async () => {
    const app = express();
    app.set('trust proxy', true);
    app.use('/rest', s.router);
    await request(app).put('/rest/proxied').set(forwarded).auth(ADMIN.user, ADMIN.password).expect(201);
    await request(app).delete('/rest/proxied').set(forwarded).auth(ADMIN.user, ADMIN.password).expect(200);
  });

  test('untrusted proxy: forwarded headers are ignored, so the Origin is foreign', async () => {
    const r = await request(s.app).put('/rest/proxied').set(forwarded).auth(ADMIN.user, ADMIN.password).expect(403);
    expect(r.text).toBe("Cross-site request refused: PUT. A page of another origin may send it only if the router's trustedOrigins option lists that origin.");
  });
});
