/**
 * The HTTP wall of the query sandbox, against the real router: every route that runs code
 * (GET/HEAD ?query=, ?command=, ?run=, POST, QUERY) against every fetch metadata a browser may
 * send (Sec-Fetch-Site × Sec-Fetch-Mode, with the Origin it sends alongside), with and without
 * `trustedOrigins`; then the headers every response carries, whatever its type or status. Each
 * wall is tested as if the one before it had failed: a request the refusal lets through (a
 * browser without fetch metadata) still carries the headers that keep another page from using
 * the answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN, NS, asBytes, queryUrl, startTestServer, type TestServer } from '../helpers/rest';

const TRUSTED = 'https://ui.example';
const FOREIGN = 'https://evil.example';
const SANDBOX = "sandbox; default-src 'none'";

interface Wall {
  readonly s: TestServer;
  readonly server: http.Server;
  readonly own: string;
}

async function open(trustedOrigins?: string[]): Promise<Wall> {
  const s = await startTestServer(trustedOrigins ? { trustedOrigins } : {});
  const server = http.createServer(s.app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  await s.put('/rest/db', '<a>secret</a>').expect(201);
  fs.writeFileSync(path.join(s.restPath, 'read.xq'), 'string(db:get("db")/a)');
  return { s, server, own: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function shut(w: Wall): Promise<void> {
  await new Promise((resolve) => w.server.close(resolve));
  await w.s.close();
}

let plain: Wall;
let trusting: Wall;
beforeAll(async () => {
  plain = await open();
  trusting = await open([TRUSTED]);
});
afterAll(async () => {
  await shut(plain);
  await shut(trusting);
});

type Send = (server: http.Server) => request.Test;
const read = encodeURIComponent('string(db:get("db")/a)');
const post = (body: string): Send => (server) => request(server).post('/rest').set('Content-Type', 'application/xml').send(body);

/** Each route that runs code: how to send it, whether browsers send `Origin` with it whatever the mode, its answer, its refusal. */
const ROUTES: ReadonlyArray<readonly [string, Send, boolean, string, string]> = [
  ['GET ?query=', (server) => request(server).get(`/rest?query=${read}`), false, 'secret', 'GET with query'],
  ['HEAD ?query=', (server) => request(server).head(`/rest?query=${read}`), false, '', 'HEAD with query'],
  ['GET ?command=', (server) => request(server).get(`/rest?command=${encodeURIComponent(`XQUERY ${decodeURIComponent(read)}`)}`), false, 'secret', 'GET with command'],
  ['GET ?run=', (server) => request(server).get('/rest?run=read.xq'), false, 'secret', 'GET with run'],
  ['POST <query>', post(`<query xmlns="${NS}"><text>string(db:get("db")/a)</text></query>`), true, 'secret', 'POST'],
  ['POST <command>', post(`<command xmlns="${NS}"><text>XQUERY string(db:get("db")/a)</text></command>`), true, 'secret', 'POST'],
  ['POST <run>', post(`<run xmlns="${NS}"><text>read.xq</text></run>`), true, 'secret', 'POST'],
  ['QUERY', (server) => new request.Test(server, 'QUERY', '/rest').set('Content-Type', 'text/plain').send('string(db:get("db")/a)'), true, 'secret', 'QUERY'],
];

/** Sec-Fetch-Site as browsers send it, in other cases and with space (compared without either), or none. */
const SITES: ReadonlyArray<readonly [string, string | undefined, boolean]> = [
  ['cross-site', 'cross-site', true],
  ['same-site', 'same-site', true],
  ['CROSS-SITE', 'CROSS-SITE', true],
  ['" Same-Site "', ' Same-Site ', true],
  ['same-origin', 'same-origin', false],
  ['none', 'none', false],
  ['absent', undefined, false],
];

const MODES = ['no-cors', 'cors', 'navigate'] as const;

/**
 * The Origin a browser sends with a request of this site and mode: with CORS requests and with
 * every POST and QUERY; a page of another site sends its own, a page of ours ours, a request
 * the user started (`none`) or a client without metadata none.
 */
function originOf(site: string | undefined, mode: string, always: boolean, own: string): string | undefined {
  if (mode !== 'cors' && !always) return undefined;
  const s = site?.trim().toLowerCase();
  if (s === 'cross-site' || s === 'same-site') return FOREIGN;
  return s === 'same-origin' ? own : undefined;
}

const CASES = ROUTES.flatMap((route) => SITES.flatMap((site) => MODES.map((mode) => [route[0], site[0], mode, route, site] as const)));

function metadata(site: string | undefined, mode: string, origin: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (site !== undefined) Object.assign(headers, { 'Sec-Fetch-Site': site, 'Sec-Fetch-Mode': mode });
  if (origin !== undefined) headers.Origin = origin;
  return headers;
}

function expectWallHeaders(r: request.Response): void {
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['content-security-policy']).toBe(SANDBOX);
  expect(r.headers['cross-origin-resource-policy']).toBe('same-origin');
}

async function expectAnswer(r: request.Response, refused: boolean, answer: string, refusal: string, head: boolean): Promise<void> {
  const body = refused ? `Cross-site request refused: ${refusal}. A page of another origin may send it only if the router's trustedOrigins option lists that origin.` : answer;
  expect(r.status).toBe(refused ? 403 : 200);
  if (head) expect(r.headers['content-length']).toBe(String(refused ? body.length : 'secret'.length));
  else expect(r.text).toBe(body);
  expectWallHeaders(r);
}

describe.each(CASES)('%s, Sec-Fetch-Site %s, Sec-Fetch-Mode %s', (_route, _site, mode, [, send, always, answer, refusal], [, site, otherSite]) => {
  const head = refusal.startsWith('HEAD');

  test('without trustedOrigins: refused from another site, answered otherwise', async () => {
    const origin = originOf(site, mode, always, plain.own);
    const r = await send(plain.server).set(metadata(site, mode, origin)).auth(ADMIN.user, ADMIN.password);
    await expectAnswer(r, otherSite, answer, refusal, head);
  });

  test('with trustedOrigins: a page of a trusted origin is answered when it sends its Origin, nobody else is', async () => {
    const other = originOf(site, mode, always, trusting.own);
    const fromTrusted = other === FOREIGN ? TRUSTED : other;
    const r = await send(trusting.server).set(metadata(site, mode, fromTrusted)).auth(ADMIN.user, ADMIN.password);
    // a no-cors GET or a navigation from the trusted page sends no Origin: it cannot be told from any other site
    await expectAnswer(r, otherSite && fromTrusted === undefined, answer, refusal, head);
    const foreign = await send(trusting.server).set(metadata(site, mode, other)).auth(ADMIN.user, ADMIN.password);
    await expectAnswer(foreign, otherSite, answer, refusal, head);
  });
});

describe('the refusal', () => {
  test('a foreign Origin alone (a browser without fetch metadata) is refused on every route', async () => {
    for (const [, send, , , refusal] of ROUTES) {
      const r = await send(plain.server).set('Origin', FOREIGN).auth(ADMIN.user, ADMIN.password);
      await expectAnswer(r, true, '', refusal, refusal.startsWith('HEAD'));
    }
  });

  test('a foreign Origin with a same-origin claim, and a cross-site claim with our own Origin, are refused', async () => {
    const query = (h: Record<string, string>) => request(plain.server).get(`/rest?query=${read}`).set(h).auth(ADMIN.user, ADMIN.password);
    await expectAnswer(await query({ 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors', Origin: FOREIGN }), true, '', 'GET with query', false);
    await expectAnswer(await query({ 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', Origin: plain.own }), true, '', 'GET with query', false);
  });

  test('a cross-site script load of a query posing as JavaScript is refused before authentication', async () => {
    const url = `/rest?query=${read}&method=text&media-type=application/javascript`;
    const h = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'script' };
    await expectAnswer(await request(plain.server).get(url).set(h), true, '', 'GET with query', false);
    await expectAnswer(await request(plain.server).get(url).set(h).auth(ADMIN.user, ADMIN.password), true, '', 'GET with query', false);
  });

  test('cross-site GETs of a resource and a listing are served, with the headers that keep other pages from them', async () => {
    const h = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' };
    const r = await request(plain.server).get('/rest/db/db.xml').set(h).auth(ADMIN.user, ADMIN.password).expect(200);
    expect(r.text).toBe('<a>secret</a>');
    expectWallHeaders(r);
    expectWallHeaders(await request(plain.server).get('/rest/db').set(h).auth(ADMIN.user, ADMIN.password).expect(200));
  });
});

describe('behind the refusal: what a browser without fetch metadata gets is of no use to another page', () => {
  test('a script load of a query posing as JavaScript: same-origin resource policy, nosniff and the sandbox', async () => {
    // An old browser sends neither Sec-Fetch-Site nor Origin with a no-cors load, so the refusal
    // cannot see it: CORP keeps the answer from the other page.
    const r = await request(plain.server).get(`/rest?query=${read}&method=text&media-type=application/javascript`).auth(ADMIN.user, ADMIN.password).expect(200);
    expect(r.headers['content-type']).toBe('application/javascript; charset=UTF-8');
    expect(r.text).toBe('secret');
    expectWallHeaders(r);
  });
});

describe('every response carries the wall headers, whatever its type or status', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = plain.s;
    await s.put('/rest/db/pic.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png').expect(201);
    await s.put('/rest/db/style.css', 'a{}', 'text/css').expect(201);
  });

  test.each([
    ['text/css result', () => s.get(queryUrl('"a{}"', '', '&method=text&media-type=text/css')), 200, 'text/css; charset=UTF-8'],
    ['application/pdf result', () => asBytes(s.get(queryUrl('"%PDF-1.4"', '', '&method=text&media-type=application/pdf'))), 200, 'application/pdf; charset=UTF-8'],
    ['multipart result', () => asBytes(s.get(queryUrl('"--x--"', '', `&method=text&media-type=${encodeURIComponent('multipart/mixed; boundary=x')}`))), 200, 'multipart/mixed; boundary=x; charset=UTF-8'],
    ['JSON result', () => s.get(queryUrl('map { "a": 1 }', '', '&method=json')), 200, 'application/json; charset=UTF-8'],
    ['text result', () => s.get(queryUrl('1', '', '&method=text')), 200, 'text/plain; charset=UTF-8'],
    ['raw binary resource', () => asBytes(s.get('/rest/db/pic.png')), 200, 'image/png'],
    ['raw CSS resource', () => s.get('/rest/db/style.css'), 200, 'text/css; charset=UTF-8'],
    ['XML resource', () => s.get('/rest/db/db.xml'), 200, 'application/xml; charset=UTF-8'],
    ['command output', () => s.get('/rest?command=LIST'), 200, 'text/plain; charset=UTF-8'],
    ['HEAD of a resource', () => request(s.app).head('/rest/db/db.xml').auth(ADMIN.user, ADMIN.password), 200, 'application/xml; charset=UTF-8'],
    ['OPTIONS', () => request(s.app).options('/rest'), 204, undefined],
    ['401', () => request(s.app).get('/rest'), 401, 'text/plain; charset=UTF-8'],
    ['404', () => s.get('/rest/nodb'), 404, 'text/plain; charset=UTF-8'],
    ['400', () => s.get('/rest?query=1&command=x'), 400, 'text/plain; charset=UTF-8'],
    ['403 cross-site', () => s.get('/rest?query=1').set('Sec-Fetch-Site', 'cross-site'), 403, 'text/plain; charset=UTF-8'],
    ['500 query error', () => s.get(queryUrl('1 div 0')), 500, 'text/plain; charset=UTF-8'],
    ['501', () => request(s.app).patch('/rest').auth(ADMIN.user, ADMIN.password), 501, 'text/plain; charset=UTF-8'],
    ['problem details', () => s.get('/rest/nodb').set('Accept', 'application/problem+json'), 404, 'application/problem+json'],
  ] as const)('%s', async (_name, send, status, type) => {
    const r = await send();
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toBe(type);
    expectWallHeaders(r);
  });
});
