/**
 * The console's router in a host application (`app.use('/console', createConsoleRouter({ rest }))`):
 * its page and files under its own CSP, the REST router in-process below `rest/`, the saved
 * queries and history of each user.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { createConsoleRouter } from '../../lib';
import { CONSOLE_FILE } from '../../lib/console/console-file';
import { Client } from 'pg';
import { onPostgresStore, storeUrlFor } from '../helpers/test-store';
import { ensureConsoleBuilt } from '../helpers/console-build';
import { ADMIN, queryRequest, startTestServer, type TestServer } from '../helpers/rest';

let server: TestServer;
let app: express.Express;

const admin = (t: request.Test) => t.auth(ADMIN.user, ADMIN.password);
const reader = (t: request.Test) => t.auth('reader', 'reader-pw');

beforeAll(async () => {
  await ensureConsoleBuilt();
  server = await startTestServer();
  app = server.app;
  app.use('/console', createConsoleRouter({ rest: server.router }));
  await server.post('/rest', '<commands><create-user name="reader">reader-pw</create-user><grant name="reader" permission="read"/></commands>').expect(200);
});
afterAll(() => server.close());

describe('the page and its files', () => {
  test('/console is sent on to /console/', async () => {
    const res = await request(app).get('/console').expect(308);
    expect(res.headers.location).toBe('/console/');
  });

  test('the page: its own CSP, with a fresh style nonce that the page names', async () => {
    const first = await request(app).get('/console/').expect(200);
    expect(first.headers['content-type']).toBe('text/html; charset=UTF-8');
    const csp = first.headers['content-security-policy'];
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(csp).toBe(
      `default-src 'self'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    );
    expect(first.text).toContain(`<meta name="csp-nonce" content="${nonce}">`);
    expect(first.text).toContain('<script src="assets/app.js" defer></script>');
    expect(first.text).not.toMatch(/<script>|<style>| on\w+=/);
    expect(first.headers['x-frame-options']).toBe('DENY');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const second = await request(app).get('/console/').expect(200);
    expect(second.headers['content-security-policy']).not.toBe(csp);
  });

  test('the bundle and style sheet are served by name; nothing else is', async () => {
    const js = await request(app).get('/console/assets/app.js').expect(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=UTF-8');
    // the bundle's budget: 350 KB gzipped
    expect(gzipSync(js.text).length).toBeLessThanOrEqual(350 * 1024);
    // no eval, no code from strings in what the console ships
    expect(js.text).not.toMatch(/\beval\(|new Function\(/);
    expect(js.headers['content-security-policy']).toContain("script-src 'self'");
    await request(app).get('/console/assets/app.css').expect(200).expect('Content-Type', 'text/css; charset=UTF-8');
    await request(app).get('/console/assets/..%2Fpackage.json').expect(404);
    await request(app).get('/console/assets/nothing.js').expect(404);
    await request(app).post('/console/').expect(404);
  });
});

describe('the REST router below rest/', () => {
  test('answers as at /rest, for the same users, with no Basic challenge on a 401', async () => {
    const refused = await request(app).get('/console/rest').expect(401);
    expect(refused.headers['www-authenticate']).toBeUndefined();
    expect(refused.text).toBe('Basic authentication expected.');
    // at /rest the challenge stays
    expect((await request(app).get('/rest').expect(401)).headers['www-authenticate']).toBe('Basic realm="BaseX"');
    await admin(request(app).put('/console/rest/db')).expect(201);
    const res = await admin(queryRequest(app, '/console/rest/db')).set('Range', 'items=0-1').set('Content-Type', 'text/plain').send('1 to 5').expect(206);
    expect(res.text).toBe('1\n2');
    expect(res.headers['content-range']).toBe('items 0-1/5');
    expect(res.headers['server-timing']).toMatch(/^parse;dur=/);
    expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    await reader(request(app).put('/console/rest/other')).expect(403);
  });

  test('its cross-site rules are unchanged', async () => {
    const res = await admin(queryRequest(app, '/console/rest')).set('Origin', 'http://elsewhere.example').set('Content-Type', 'text/plain').send('1').expect(403);
    expect(res.text).toMatch(/^Cross-site request refused: QUERY\./);
  });
});

describe('saved queries and history (api/)', () => {
  test('api/me names the user and its permission; no credentials: 401 without a challenge', async () => {
    expect((await admin(request(app).get('/console/api/me')).expect(200)).body).toEqual({ name: 'admin', perm: 'admin' });
    expect((await reader(request(app).get('/console/api/me')).expect(200)).body).toEqual({ name: 'reader', perm: 'read' });
    const refused = await request(app).get('/console/api/me').expect(401);
    expect(refused.headers['www-authenticate']).toBeUndefined();
    await request(app).get('/console/api/me').auth('reader', 'wrong').expect(401);
  });

  test('each user saves, lists and deletes its own queries, kept in a 0600 file of the data folder (in PostgreSQL on its store)', async () => {
    const saved = await admin(request(app).put('/console/api/saved/count%20books')).send({ query: 'count(//book)' }).expect(200);
    expect(saved.body).toMatchObject({ name: 'count books', query: 'count(//book)' });
    await reader(request(app).put('/console/api/saved/mine')).send({ query: '1' }).expect(200);
    expect((await admin(request(app).get('/console/api/saved')).expect(200)).body.map((q: { name: string }) => q.name)).toEqual(['count books']);
    expect((await reader(request(app).get('/console/api/saved')).expect(200)).body.map((q: { name: string }) => q.name)).toEqual(['mine']);
    const file = path.join(server.dbPath, CONSOLE_FILE);
    if (onPostgresStore()) {
      expect(fs.existsSync(file)).toBe(false);
      const client = new Client({ connectionString: await storeUrlFor(server.dbPath) });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT data FROM xmldb_console WHERE name = 'admin'");
        expect(rows[0].data.saved[0].query).toBe('count(//book)');
      } finally {
        await client.end();
      }
    } else {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).users.admin.saved[0].query).toBe('count(//book)');
    }
    await admin(request(app).delete('/console/api/saved/count%20books')).expect(204);
    await admin(request(app).delete('/console/api/saved/count%20books')).expect(404);
    expect((await admin(request(app).get('/console/api/saved')).expect(200)).body).toEqual([]);
  });

  test('history: newest first, a repeated query moves to the top', async () => {
    for (const query of ['1', '2', '1']) await admin(request(app).post('/console/api/history')).send({ query }).expect(204);
    expect((await admin(request(app).get('/console/api/history')).expect(200)).body.map((h: { query: string }) => h.query)).toEqual(['1', '2']);
  });

  test('bad bodies and names are refused; so is every request of another site', async () => {
    expect((await admin(request(app).put('/console/api/saved/x')).set('Content-Type', 'application/json').send('{"q":1}').expect(400)).text).toBe('The body must be JSON: {"query": "..."}.');
    await admin(request(app).put('/console/api/saved/a%2Fb')).send({ query: '1' }).expect(400);
    await admin(request(app).put('/console/api/saved/%E0%A4%A')).send({ query: '1' }).expect(400);
    const crossSite = await admin(request(app).put('/console/api/saved/x')).set('Origin', 'http://elsewhere.example').send({ query: '1' }).expect(403);
    expect(crossSite.text).toBe("Cross-site request refused: PUT of the console's own routes.");
    await admin(request(app).get('/console/api/saved')).set('Sec-Fetch-Site', 'cross-site').expect(403);
    await admin(request(app).patch('/console/api/saved')).expect(501);
    expect((await admin(request(app).get('/console/api/other')).expect(404)).text).toBe('No such console route: other.');
  });

  test('a router that is not one of createRestRouter is refused', () => {
    expect(() => createConsoleRouter({ rest: (() => undefined) as never })).toThrow('createConsoleRouter needs { rest: createRestRouter(...) }');
  });
});
