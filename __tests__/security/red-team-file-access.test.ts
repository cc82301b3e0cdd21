/**
 * With `allowFileAccess`, an admin's queries read host files, and nothing more: no host
 * JavaScript through a stylesheet or query read from a file, no module import from one; a
 * user below admin, or an admin's xquery:eval lowered to `read`, reads no file. Every route to
 * a file is tried as admin and as a user with permission `none`.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { queryUrl, seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

const IXSL = 'http://saxonica.com/ns/interactiveXSLT';
let s: TestServer;
let dir: string;
beforeAll(async () => {
  dir = tempDir('xmldb-files-');
  fs.writeFileSync(path.join(dir, 'allowed.txt'), 'allowed-file-text');
  fs.writeFileSync(path.join(dir, 'evil.xsl'), `<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:i="${IXSL}"><xsl:template match="/"><xsl:value-of select="i:window()"/></xsl:template></xsl:stylesheet>`);
  fs.writeFileSync(path.join(dir, 'evil.xq'), `Q{${IXSL}}window()`);
  fs.writeFileSync(path.join(dir, 'evil.xqm'), `module namespace e = "urn:evil"; declare function e:f() { Q{${IXSL}}window() };`);
  const dbPath = tempDir();
  await seedUsers(dbPath, [
    { name: 'admin', password: 'admin-pw', perm: 'admin' },
    { name: 'nobody', password: 'pw', perm: 'none' },
  ]);
  s = await startTestServer({ dbPath, allowFileAccess: true });
}, 60_000);
afterAll(async () => {
  await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => `file://${dir}/${name}`;
const run = (user: 'admin' | 'nobody', query: string) =>
  request(s.app).get(queryUrl(query)).auth(user, user === 'admin' ? 'admin-pw' : 'pw');
const stylesheetReading = (uri: string) =>
  `xslt:transform(<a/>, '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><xsl:value-of select="unparsed-text(''${uri}'')"/></xsl:template></xsl:stylesheet>')`;
const denied = (uri: string) => `Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text ${uri} XError:Access to '${uri}' is denied.; code:FODC0002`;

describe('allowFileAccess', () => {
  test('an admin reads a file through unparsed-text, a stylesheet and xquery:eval', async () => {
    for (const query of [`unparsed-text('${file('allowed.txt')}')`, stylesheetReading(file('allowed.txt')), `xquery:eval("unparsed-text('${file('allowed.txt')}')")`]) {
      const r = await run('admin', query);
      expect([r.status, r.text]).toEqual([200, 'allowed-file-text']);
    }
  });

  test('an admin’s xquery:eval with permission read reads no file', async () => {
    const r = await run('admin', `xquery:eval("unparsed-text('${file('allowed.txt')}')", map {}, map { 'permission': 'read' })`);
    expect([r.status, r.text]).toEqual([500, denied(file('allowed.txt'))]);
  });

  test('a user below admin reads no file, however asked', async () => {
    const uri = file('allowed.txt');
    expect((await run('nobody', `unparsed-text('${uri}')`)).text).toBe(denied(uri));
    expect((await run('nobody', stylesheetReading(uri))).text).toBe(`Stopped at ., 1/1:\n[xslt:error] FOUT1170: Cannot retrieve unparsed-text ${uri} XError:Access to '${uri}' is denied.; code:FODC0002`);
    expect((await run('nobody', `xquery:eval("unparsed-text('${uri}')")`)).text).toBe(denied(uri));
    expect((await run('nobody', `xquery:eval(xs:anyURI('${file('evil.xq')}'))`)).text).toBe(`Stopped at ., 1/1:\n[FODC0002] Access to '${file('evil.xq')}' is denied.`);
  });

  test.each(['admin', 'nobody'] as const)('as %s, code read from files reaches no host JavaScript', async (user) => {
    const sheet = await run(user, `xslt:transform(<a/>, xs:anyURI('${file('evil.xsl')}'))`);
    const query = await run(user, `xquery:eval(xs:anyURI('${file('evil.xq')}'))`);
    const module = await run(user, `import module namespace e = "urn:evil" at "${file('evil.xqm')}"; e:f()`);
    if (user === 'admin') {
      expect(sheet.text).toBe(`Stopped at ., 1/1:\n[xslt:error] Namespace not allowed in stylesheets: xmlns:i="${IXSL}".`);
      expect(query.text).toBe(`Stopped at ., 1/1:\n[XPST0017] Unknown function: Q{${IXSL}}window#0.`);
    } else {
      expect(sheet.text).toBe(`Stopped at ., 1/1:\n[FODC0002] Access to '${file('evil.xsl')}' is denied.`);
    }
    expect(module.text).toBe("Stopped at ., 1/1:\n[XQST0059] Module 'urn:evil' could not be found.");
    for (const r of [sheet, query, module]) expect(r.status).toBe(500);
  });
});
