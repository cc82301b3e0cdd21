/**
 * The server's own files beside the databases, and logins an attacker may try to abuse: reserved
 * names are refused on every path; failures of one address do not lock a user out for the
 * others; a password with U+0000 never matches (scrypt would hash `pw` and `pw\0` alike).
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { queryUrl, seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';
import { FREE_FAILURES } from '../../lib/users/login-throttle';
import { UserStore } from '../../lib/users/user-store';

describe('reserved names', () => {
  let s: TestServer;
  beforeAll(async () => {
    const dbPath = tempDir();
    await seedUsers(dbPath, [
      { name: 'admin', password: 'admin-pw', perm: 'admin' },
      { name: 'creator', password: 'pw', perm: 'create' },
    ]);
    s = await startTestServer({ dbPath });
    fs.writeFileSync(path.join(s.dbPath, 'admin-password.txt'), 'generated\n');
    await s.put('/rest/db1', '<d/>', 'application/xml').expect(201);
  });
  afterAll(() => s.close());

  const as = (t: request.Test) => t.auth('creator', 'pw');
  const command = (text: string) => as(request(s.app).get(`/rest?command=${encodeURIComponent(text)}`));
  const query = (text: string) => as(request(s.app).get(queryUrl(text)));

  test.each(['admin-password.txt', 'ADMIN-PASSWORD.TXT', 'users.json', 'admin-password.txt.pending-x'])('%s is no database name on any path', async (name) => {
    const invalid = `Invalid database name: '${name}'.`;
    expect((await as(request(s.app).put(`/rest/${name}`).set('Content-Type', 'application/xml').send('<pwn/>')).expect(400)).text).toBe(invalid);
    expect((await command(`CREATE DB ${name} <pwn/>`).expect(500)).text).toBe(invalid);
    expect((await command(`COPY db1 ${name}`).expect(500)).text).toBe(invalid);
    expect((await command(`ALTER DB db1 ${name}`).expect(500)).text).toBe(invalid);
    expect((await query(`db:create('${name}', <pwn/>, 'x.xml')`)).status).toBeGreaterThanOrEqual(400);
    expect((await query(`db:copy('db1', '${name}')`)).status).toBeGreaterThanOrEqual(400);
    expect(fs.readFileSync(path.join(s.dbPath, 'admin-password.txt'), 'utf8')).toBe('generated\n');
    expect(fs.statSync(path.join(s.dbPath, 'users.json')).isFile()).toBe(true);
    await s.get('/rest/db1').expect(200);
  });
});

describe('logins', () => {
  let dir: string;
  let users: UserStore;
  beforeAll(async () => {
    dir = tempDir();
    await seedUsers(dir, [{ name: 'admin', password: 'admin-pw', perm: 'admin' }]);
    users = await UserStore.open(dir);
  });
  afterAll(async () => {
    await users.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('failures for a name from one address throttle that address only: admin still logs in from another', async () => {
    for (let i = 0; i < FREE_FAILURES; i++) expect((await users.authenticate('admin', `guess ${i}`, '203.0.113.9')).kind).toBe('denied');
    expect((await users.authenticate('admin', 'admin-pw', '203.0.113.9')).kind).toBe('throttled');
    expect((await users.authenticate('admin', 'admin-pw', '198.51.100.7')).kind).toBe('accepted');
  });

  test('a password with U+0000 never matches, remembered or not, and cannot be set', async () => {
    expect((await users.authenticate('admin', 'admin-pw', '192.0.2.1')).kind).toBe('accepted');
    expect((await users.authenticate('admin', 'admin-pw\0', '192.0.2.1')).kind).toBe('denied');
    expect((await users.authenticate('admin', 'admin-pw\0\0', '192.0.2.1')).kind).toBe('denied');
    await expect(users.create('nul', 'pw\0')).rejects.toThrow('A password may not contain the character U+0000.');
    await expect(users.setPassword('admin', 'x\0')).rejects.toThrow('A password may not contain the character U+0000.');
  });
});
