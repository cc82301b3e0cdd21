/**
 * Queries are untrusted code: over every route that runs a query, as an admin and as a user with
 * permission `none`, a query reaches neither saxon-js's host bindings (JavaScript) nor the
 * engine's internal functions, nor a stylesheet of its own through fn:transform.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { queryRoutes, SANDBOX_USERS as USERS, startSandboxServer, type SendQuery } from '../helpers/query-routes';
import { seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

const GLOBAL_JS = 'http://saxonica.com/ns/globalJS';
const IXSL = 'http://saxonica.com/ns/interactiveXSLT';

let s: TestServer;
beforeAll(async () => {
  s = await startSandboxServer();
});
afterAll(() => s.close());

/** Every route that runs a query text, as `user`: the response. */
const ROUTES: ReadonlyArray<readonly [string, SendQuery]> = [
  ...queryRoutes(() => s.app),
  [
    'GET ?run=',
    (q, [u, p]) => {
      const name = `q${Math.random().toString(36).slice(2)}.xq`;
      fs.writeFileSync(path.join(s.restPath, name), q);
      return request(s.app).get(`/rest?run=${name}`).auth(u, p);
    },
  ],
];

const CASES = ROUTES.flatMap(([route, send]) => USERS.map((user) => [route, user[0], send, user] as const));

/** The `[CODE] message` line of an error body. */
const errorLine = (text: string): string => text.split('\n').pop() ?? '';

describe.each(CASES)('%s as %s', (_route, _name, send, user) => {
  test('a call in saxon-js’s JavaScript namespaces is an unknown function', async () => {
    const r = await send(`Q{${GLOBAL_JS}}eval("1+41")`, user);
    expect(r.status).toBe(500);
    expect(errorLine(r.text)).toBe(`[XPST0017] Unknown function: Q{${GLOBAL_JS}}eval#1.`);
    const w = await send(`declare namespace ixsl = "${IXSL}"; ixsl:window()`, user);
    expect(errorLine(w.text)).toBe('[XPST0017] Unknown function: ixsl:window#0.');
  });

  test('a named function reference to them is an unknown function', async () => {
    const r = await send(`Q{${GLOBAL_JS}}eval#1("1+41")`, user);
    expect(errorLine(r.text)).toBe(`[XPST0017] Unknown function: Q{${GLOBAL_JS}}eval#1.`);
  });

  test('function-lookup with a computed name finds nothing there', async () => {
    const r = await send(`(QName("http://saxonica.com/ns/" || "globalJS", "eval"), QName("${IXSL}", "eval"), QName("urn:xmldb-rest:engine", "doc")) ! exists(function-lookup(., 1))`, user);
    expect(r.status).toBe(200);
    expect(r.text).toBe('false\nfalse\nfalse');
  });

  test('fn:transform with an inline stylesheet is disabled', async () => {
    const xsl = `<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="3.0"><xsl:template name="xsl:initial-template"><xsl:value-of select="Q{${GLOBAL_JS}}eval(''1+41'')"/></xsl:template></xsl:stylesheet>`;
    const r = await send(`transform(map { "stylesheet-text": '${xsl}', "initial-template": QName("http://www.w3.org/1999/XSL/Transform", "initial-template") })?output`, user);
    expect(r.status).toBe(500);
    expect(errorLine(r.text)).toBe('[FOXT0004] fn:transform is disabled: queries may not run stylesheets.');
  });

  test('the engine’s internal functions are unknown functions', async () => {
    const r = await send('Q{urn:xmldb-rest:engine}doc("x")', user);
    expect(errorLine(r.text)).toBe('[XPST0017] Unknown function: Q{urn:xmldb-rest:engine}doc#1.');
  });
});

describe('allowFileAccess: host files for admins only', () => {
  let open: TestServer;
  let hostFile = '';
  beforeAll(async () => {
    const dbPath = tempDir();
    await seedUsers(dbPath, [
      { name: 'admin', password: 'admin-pw', perm: 'admin' },
      { name: 'reader', password: 'pw', perm: 'read' },
      { name: 'creator', password: 'pw', perm: 'create' },
    ]);
    open = await startTestServer({ dbPath, workers: 1, allowFileAccess: true });
    hostFile = path.join(tempDir('xmldb-host-'), 'host.txt');
    fs.writeFileSync(hostFile, 'host secret');
  });
  afterAll(async () => {
    await open.close();
    fs.rmSync(path.dirname(hostFile), { recursive: true, force: true });
  });

  const read = () => `unparsed-text("file://${hostFile}")`;
  const denied = () => `[FOUT1170] Cannot retrieve unparsed-text file://${hostFile} XError:Access to 'file://${hostFile}' is denied.; code:FODC0002`;
  const get = (server: TestServer, url: string, [u, p]: readonly [string, string]) => request(server.app).get(url).auth(u, p);

  test('an admin reads a host file, by query, XQUERY command and run', async () => {
    const admin = ['admin', 'admin-pw'] as const;
    expect((await get(open, `/rest?query=${encodeURIComponent(read())}`, admin).expect(200)).text).toBe('host secret');
    expect((await get(open, `/rest?command=${encodeURIComponent(`XQUERY ${read()}`)}`, admin).expect(200)).text).toBe('host secret');
    fs.writeFileSync(path.join(open.restPath, 'host.xq'), read());
    expect((await get(open, '/rest?run=host.xq', admin).expect(200)).text).toBe('host secret');
  });

  test('a read user gets the refusal of a server without the option', async () => {
    const reader = ['reader', 'pw'] as const;
    for (const url of [`/rest?query=${encodeURIComponent(read())}`, `/rest?command=${encodeURIComponent(`XQUERY ${read()}`)}`]) {
      const r = await get(open, url, reader);
      expect(r.status).toBe(500);
      expect(errorLine(r.text)).toBe(denied());
    }
    fs.writeFileSync(path.join(open.restPath, 'host.xq'), read());
    expect(errorLine((await get(open, '/rest?run=host.xq', reader).expect(500)).text)).toBe(denied());
  });

  test('commands read host files for admins only', async () => {
    const xml = path.join(path.dirname(hostFile), 'host.xml');
    fs.writeFileSync(xml, '<host/>');
    const create = (name: string) => `/rest?command=${encodeURIComponent(`CREATE DB ${name} ${xml}`)}`;
    const r = await get(open, create('fromhost2'), ['creator', 'pw']);
    expect(r.status).toBe(500);
    expect(r.text).toBe(`Access to server files is not allowed: ${xml}.`);
    await get(open, create('fromhost1'), ['admin', 'admin-pw']).expect(200);
    expect((await get(open, '/rest/fromhost1/host.xml', ['admin', 'admin-pw']).expect(200)).text).toBe('<host/>');
  });

  test('without the option, an admin is refused too', async () => {
    const r = await get(s, `/rest?query=${encodeURIComponent(read())}`, ['admin', 'admin-pw']);
    expect(r.status).toBe(500);
    expect(errorLine(r.text)).toBe(denied());
  });
});

describe('deep nesting is a static error, not a crash', () => {
  test.each([
    ['1,000 nested parentheses', `${'('.repeat(1000)}1${')'.repeat(1000)}`, '1/151'],
    ['10,000 unary minus signs', `${'-'.repeat(10_000)}1`, '1/400'],
    ['5,000 nested element constructors', `${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`, '1/448'],
    ['nested FLWORs', `${'for $x in 1 return '.repeat(2000)}$x`, '1/2842'],
    ['nested arrays and maps', `${'[map{1:'.repeat(1000)}1${'}]'.repeat(1000)}`, '1/524'],
  ])('%s', async (_what, query, position) => {
    for (const user of USERS) {
      const r = await ROUTES[1][1](query, user);
      expect(r.status).toBe(500);
      expect(r.text).toBe(`Stopped at ., ${position}:\n[XPST0003] Expression nested too deeply`);
    }
  });

  test('a deep but reasonable query runs', async () => {
    const r = await ROUTES[0][1](`${'('.repeat(100)}1${')'.repeat(100)} + ${'-'.repeat(300)}1`, USERS[0]);
    expect(r.status).toBe(200);
    expect(r.text).toBe('2');
  });
});
