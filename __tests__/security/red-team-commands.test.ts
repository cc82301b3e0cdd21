/**
 * Red-team attacks through BaseX's command language and the POST forms (`?command=`, POST
 * <commands>, <run>, <query> with variables, context, options and parameters): escalating
 * permissions, reading host files (CREATE DB, ADD, PUT and EXPORT with a server path; RUN and
 * <run> outside the REST path), other users' databases, entities in the POST body. Each row:
 * the user, the route, the text, and the exact answer. Admins are refused server files too
 * (no `allowFileAccess`).
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

type User = 'admin' | 'nobody' | 'reader';
const PASSWORDS: Record<User, string> = { admin: 'admin-pw', nobody: 'pw', reader: 'pw' };

let s: TestServer;
let exportTarget: string;
beforeAll(async () => {
  const dbPath = tempDir();
  exportTarget = path.join(tempDir('xmldb-export-'), 'exported');
  await seedUsers(dbPath, [
    { name: 'admin', password: PASSWORDS.admin, perm: 'admin' },
    { name: 'nobody', password: PASSWORDS.nobody, perm: 'none' },
    { name: 'reader', password: PASSWORDS.reader, perm: 'none', grants: [['pub', 'read']] },
  ]);
  s = await startTestServer({ dbPath });
  await s.put('/rest/pub', '<pub>hello</pub>', 'application/xml').expect(201);
  await s.put('/rest/secret', '<secret>TOPSECRET</secret>', 'application/xml').expect(201);
}, 60_000);
afterAll(async () => {
  await s.close();
  fs.rmSync(path.dirname(exportTarget), { recursive: true, force: true });
});

/** EXPORT to a fresh temporary folder (named `{export-target}` in the table). */
const EXPORT = 'EXPORT {export-target}';

const CASES: ReadonlyArray<readonly [user: User, route: 'cmd' | 'post', text: string, status: number, body: string]> = [
  ["nobody", "cmd", "INFO", 200, "General Information:\n Version: 0.1.0\n\nLocal Options:\n STRIPWS: false\n STRIPNS: false\n CREATEFILTER: *.xml\n ADDRAW: false\n REPLACE: true\n QUERYINFO: false\n SERIALIZE: true\n"],
  ["nobody", "cmd", "INFO DB", 403, "Read permission needed."],
  ["nobody", "cmd", "SHOW USERS", 200, "Username  Permission  \n--------------------\nnobody    none        \n\n1 user(s).\n"],
  ["nobody", "cmd", "SHOW SESSIONS", 403, "Admin permission needed."],
  ["nobody", "cmd", "LIST", 200, "Name  Resources  Size  \n---------------------\n\n0 database(s).\n"],
  ["nobody", "cmd", "LIST secret", 500, "Database 'secret' was not found."],
  ["nobody", "cmd", "OPEN secret", 404, "Database 'secret' was not found."],
  ["nobody", "cmd", "GET", 500, "Syntax: GET [path]\n  Return an XML document of the opened database."],
  ["nobody", "cmd", "SET QUERYTIMEOUT 0", 500, "Unknown option 'QUERYTIMEOUT'."],
  ["nobody", "cmd", "SET TIMEOUT 0", 500, "Unknown option 'TIMEOUT'."],
  ["nobody", "cmd", "SET DBPATH /tmp", 500, "Unknown option 'DBPATH'."],
  ["nobody", "cmd", "SET MAINMEM true", 200, ""],
  ["nobody", "cmd", "ALTER PASSWORD admin x", 403, "Admin permission needed."],
  ["nobody", "cmd", "CREATE USER evil pw", 403, "Admin permission needed."],
  ["nobody", "cmd", "GRANT admin TO nobody", 403, "Admin permission needed."],
  ["nobody", "cmd", "CREATE DB leak /etc/hostname", 403, "Create permission needed."],
  ["nobody", "cmd", "CREATE DB leak <x/>", 403, "Create permission needed."],
  ["nobody", "cmd", "EXPORT {export-target}", 403, "Create permission needed."],
  ["nobody", "cmd", "RUN ../../../etc/passwd", 500, "Resource \"../../../etc/passwd\" not found."],
  ["nobody", "cmd", "RUN /etc/passwd", 500, "Resource \"/etc/passwd\" not found."],
  ["nobody", "cmd", "EXECUTE \"<commands><info/></commands>\"", 200, "General Information:\n Version: 0.1.0\n\nLocal Options:\n STRIPWS: false\n STRIPNS: false\n CREATEFILTER: *.xml\n ADDRAW: false\n REPLACE: true\n QUERYINFO: false\n SERIALIZE: true\n"],
  ["nobody", "cmd", "XQUERY db:get(\"secret\")", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["nobody", "cmd", "REPO LIST", 403, "Admin permission needed."],
  ["nobody", "cmd", "REPO INSTALL /etc/passwd", 403, "Admin permission needed."],
  ["nobody", "cmd", "SHOW BACKUPS", 403, "Create permission needed."],
  ["nobody", "cmd", "CREATE BACKUP secret", 403, "Create permission needed."],
  ["nobody", "cmd", "RESTORE secret", 403, "Create permission needed."],
  ["nobody", "cmd", "JOBS LIST", 403, "Admin permission needed."],
  ["nobody", "cmd", "KILL admin", 403, "Admin permission needed."],
  ["nobody", "cmd", "CHECK /etc/hostname", 403, "Read permission needed."],
  ["nobody", "cmd", "TEST /etc", 403, "Admin permission needed."],
  ["admin", "cmd", "CREATE DB leak2 /etc/hostname", 500, "Access to server files is not allowed: /etc/hostname."],
  ["admin", "cmd", "EXPORT {export-target}", 500, "Access to server files is not allowed: {export-target}."],
  ["admin", "cmd", "CHECK /etc/hostname", 500, "Command is not supported: CHECK."],
  ["admin", "cmd", "REPO INSTALL /etc/passwd", 500, "Command is not supported: REPO INSTALL."],
  ["admin", "cmd", "SET QUERYTIMEOUT 0", 500, "Unknown option 'QUERYTIMEOUT'."],
  ["admin", "cmd", "INFO", 200, "General Information:\n Version: 0.1.0\n\nLocal Options:\n STRIPWS: false\n STRIPNS: false\n CREATEFILTER: *.xml\n ADDRAW: false\n REPLACE: true\n QUERYINFO: false\n SERIALIZE: true\n"],
  ["admin", "cmd", "RUN ../../../etc/passwd", 500, "Resource \"../../../etc/passwd\" not found."],
  ["admin", "cmd", "ADD TO x.xml /etc/hostname", 500, "No database opened."],
  ["admin", "cmd", "OPEN secret", 200, ""],
  ["admin", "cmd", "PUT secret.xml /etc/hostname", 500, "No database opened."],
  ["admin", "cmd", "TEST /etc", 500, "Command is not supported: TEST."],
  ["reader", "post", "<commands><open name=\"pub\"/><xquery>db:get(\"secret\")</xquery></commands>", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "post", "<commands><set option=\"queryinfo\">true</set><xquery>1</xquery></commands>", 200, "1"],
  ["reader", "post", "<run xmlns=\"http://basex.org/rest\"><text>../../../etc/passwd</text></run>", 404, "Resource \"../../../etc/passwd\" not found."],
  ["reader", "post", "<run xmlns=\"http://basex.org/rest\"><text>/etc/passwd</text></run>", 404, "Resource \"/etc/passwd\" not found."],
  ["reader", "post", "<query xmlns=\"http://basex.org/rest\"><text>declare variable $x external; $x</text><variable name=\"x\" value=\"1\"/><variable name=\"Q{http://saxonica.com/ns/interactiveXSLT}y\" value=\"2\"/></query>", 200, "1"],
  ["reader", "post", "<query xmlns=\"http://basex.org/rest\"><text>declare variable $x external; $x</text><variable name=\"x\" value=\"1\" type=\"xs:QName\"/></query>", 500, "[FORG0001] Invalid local name: '1' (prefix='', uri='')"],
  ["reader", "post", "<query xmlns=\"http://basex.org/rest\"><text>.</text><context><x xmlns:i=\"http://saxonica.com/ns/interactiveXSLT\"/></context></query>", 200, "<x xmlns:i=\"http://saxonica.com/ns/interactiveXSLT\"/>"],
  ["reader", "post", "<query xmlns=\"http://basex.org/rest\"><text>1</text><option name=\"queryTimeout\" value=\"0\"/></query>", 400, "Unknown parameter: queryTimeout."],
  ["reader", "post", "<query xmlns=\"http://basex.org/rest\"><text>1</text><parameter name=\"method\" value=\"Q{urn:x}y\"/></query>", 400, "[SEPM0016] Invalid value for serialization parameter \"method\": unknown method \"Q{urn:x}y\"."],
  ["reader", "post", "<query xmlns=\"http://basex.org/rest\"><text>1</text><parameter name=\"parameter-document\" value=\"file:///etc/passwd\"/></query>", 200, "1"],
  ["reader", "post", "<query xmlns=\"http://basex.org/rest\"><text>(1,2)</text><parameter name=\"item-separator\" value=\"&#xD;&#xA;X-Injected: 1\"/></query>", 200, "1\r\nX-Injected: 12"],
  ["reader", "post", "<!DOCTYPE query [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><query xmlns=\"http://basex.org/rest\"><text>&e;</text></query>", 400, "The POST body is not well-formed XML: Reference to unknown entity &e; at line 1 column 104"],
  ["reader", "post", "<!DOCTYPE q [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]><query xmlns=\"http://basex.org/rest\"><text>\"&d;\"</text></query>", 400, "The POST body is not well-formed XML: Reference to unknown entity &d; at line 1 column 218"],
];

function send(user: User, route: 'cmd' | 'post', text: string): Promise<request.Response> {
  const r = route === 'cmd' ? request(s.app).get(`/rest?command=${encodeURIComponent(text)}`) : request(s.app).post('/rest').set('Content-Type', 'application/xml').send(text);
  return r.auth(user, PASSWORDS[user]);
}

test.each(CASES)('as %s (%s): %s', async (user, route, text, status, body) => {
  const r = await send(user, route, text === EXPORT ? `EXPORT ${exportTarget}` : text);
  expect([r.status, r.text.replace(exportTarget, '{export-target}')]).toEqual([status, body]);
  expect(r.text).not.toContain('TOPSECRET');
});

test('no export reached the host, no user was created or changed', async () => {
  expect(fs.existsSync(exportTarget)).toBe(false);
  const users = await s.get(`/rest?command=${encodeURIComponent('SHOW USERS')}`).expect(200);
  expect(users.text).toBe('Username  Permission  \n--------------------\nadmin     admin       \nnobody    none        \nreader    none        \n\n3 user(s).\n');
});
