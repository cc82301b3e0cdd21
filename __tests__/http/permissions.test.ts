import request from 'supertest';
import { NS, queryUrl, seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeEach(async () => {
  const dbPath = tempDir();
  await seedUsers(dbPath, [
    { name: 'admin', password: 'admin-pw', perm: 'admin' },
    { name: 'nobody', password: 'pw', perm: 'none' },
    { name: 'reader', password: 'pw', perm: 'read' },
    { name: 'writer', password: 'pw', perm: 'write' },
    { name: 'creator', password: 'pw', perm: 'create' },
    { name: 'local', password: 'pw', perm: 'none', grants: [['pub*', 'write']] },
  ]);
  s = await startTestServer({ dbPath });
  await s.put('/rest/pub1', '<p/>', 'application/xml').expect(201);
  await s.put('/rest/secret', '<s/>', 'application/xml').expect(201);
});
afterEach(() => s.close());

const as = (user: string) => ({
  get: (url: string) => request(s.app).get(url).auth(user, 'pw'),
  put: (url: string, body = '<x/>') => request(s.app).put(url).auth(user, 'pw').set('Content-Type', 'application/xml').send(body),
  del: (url: string) => request(s.app).delete(url).auth(user, 'pw'),
});

describe('read', () => {
  test('the listing shows only readable databases', async () => {
    expect((await as('nobody').get('/rest').expect(200)).text).toBe(`<databases xmlns="${NS}"/>`);
    expect((await as('local').get('/rest').expect(200)).text).toMatch(/^<databases [^>]+><database [^>]+>pub1<\/database><\/databases>$/);
    expect((await as('reader').get('/rest').expect(200)).text).toContain('>secret</database>');
  });

  test('a database without read permission is 404', async () => {
    expect((await as('nobody').get('/rest/secret').expect(404)).text).toBe("Database 'secret' was not found.");
    await as('local').get('/rest/secret').expect(404);
    await as('local').get('/rest/pub1/pub1.xml').expect(200);
    await as('reader').get('/rest/secret/secret.xml').expect(200);
  });
});

describe('write and create', () => {
  test('storing needs write permission: 403 otherwise, nothing stored', async () => {
    const r = await as('reader').put('/rest/pub1/new.xml').expect(403);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toBe('Write permission needed.');
    await as('writer').put('/rest/pub1/new.xml').expect(201);
    await as('local').put('/rest/pub1/other.xml').expect(201);
    await as('local').put('/rest/secret/other.xml').expect(403);
    expect((await s.get('/rest/secret').expect(200)).text).not.toContain('other.xml');
  });

  test('creating or dropping a database needs create permission', async () => {
    expect((await as('writer').put('/rest/newdb').expect(403)).text).toBe('Create permission needed.');
    await as('local').put('/rest/pubnew').expect(403);
    await as('creator').put('/rest/newdb').expect(201);
    await as('writer').del('/rest/newdb').expect(403);
    await as('creator').del('/rest/newdb').expect(200);
  });

  test('deleting a resource needs write permission', async () => {
    await as('reader').del('/rest/pub1/pub1.xml').expect(403);
    await as('local').del('/rest/pub1/pub1.xml').expect(200);
  });
});

describe('queries see only readable databases', () => {
  const query = (user: string, q: string) => request(s.app).get(queryUrl(q)).auth(user, 'pw');

  test('db:list and doc() hide what the user may not read', async () => {
    expect((await query('local', 'db:list()').expect(200)).text).toBe('pub1');
    expect((await query('local', "doc('pub1/pub1.xml')").expect(200)).text).toBe('<p/>');
    expect((await query('local', "doc('secret/secret.xml')").expect(500)).text).toMatch(/\[FODC0002\]/);
    expect((await query('local', "db:get('secret')").expect(500)).text).toMatch(/\[db:open\]/);
    expect((await query('reader', "count(db:list())").expect(200)).text).toBe('2');
  });

  test('the XQUERY command applies the same rule', async () => {
    const r = await request(s.app).get(`/rest?command=${encodeURIComponent('XQUERY db:list()')}`).auth('nobody', 'pw').expect(200);
    expect(r.text).toBe('');
  });
});

describe('updating queries need write permission on the databases they change', () => {
  const query = (user: string, q: string, at = '/rest') => request(s.app).get(`${at}?query=${encodeURIComponent(q)}`).auth(user, 'pw');
  const content = async (path: string) => (await s.get(`/rest/${path}`).expect(200)).text;

  test('fn:put writes only into a database the user may write', async () => {
    await query('reader', 'put(<n/>, "pub1/put.xml")').expect(403);
    const hidden = await query('local', 'put(<n/>, "secret/put.xml")');
    expect([hidden.status, hidden.text]).toEqual([500, "Stopped at ., 1/1:\n[FOUP0002] URI 'secret/put.xml' does not name a resource of a database the query can write."]);
    await query('local', 'put(<n/>, "pub1/put.xml")').expect(200);
    expect(await content('pub1/put.xml')).toBe('<n/>');
    expect((await s.get('/rest/secret').expect(200)).text).not.toContain('put.xml');
  });

  test('a write grant on a database is enough for updates that name only it', async () => {
    await query('local', 'insert node <i/> into doc("pub1/pub1.xml")/p').expect(200);
    await query('local', 'db:add("pub1", <n/>, "n.xml")').expect(200);
    await query('local', 'delete node /p/i', '/rest/pub1').expect(200); // the database of the URL
    expect(await content('pub1/pub1.xml')).toBe('<p/>');
    expect(await content('pub1/n.xml')).toBe('<n/>');
  });

  test('each change is judged by the database it changes, whether its name is written or computed', async () => {
    // secret does not exist for local: not found, as when it reads it
    const other = await query('local', 'insert node <i/> into doc("secret/secret.xml")/s');
    expect([other.status, other.text]).toEqual([500, "Stopped at ., 1/1:\n[FODC0002] Resource 'secret/secret.xml' not found."]);
    const both = await query('local', 'db:add("pub1", <n/>, "n.xml"), db:add("secret", <n/>, "n.xml")');
    expect([both.status, both.text]).toEqual([500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."]);
    expect((await s.get('/rest/pub1').expect(200)).text).not.toContain('n.xml');
    await query('local', 'db:add(string-join(("pub", "1")), <c/>, "c.xml")').expect(200);
    expect(await content('pub1/c.xml')).toBe('<c/>');
    await query('local', 'db:add(string-join(("sec", "ret")), <n/>, "n.xml")').expect(500);
    await query('local', 'db:create("pub2")').expect(403); // creation needs the create permission
    await query('writer', 'db:add(string-join(("sec", "ret")), <n/>, "n.xml")').expect(200);
    expect(await content('secret/secret.xml')).toBe('<s/>');
    expect(await content('secret/n.xml')).toBe('<n/>');
  });

  test('the XQUERY command follows the same rule', async () => {
    const command = (c: string) => request(s.app).get(`/rest?command=${encodeURIComponent(c)}`).auth('local', 'pw');
    await command('XQUERY db:add("pub1", <n/>, "n.xml")').expect(200);
    expect(await content('pub1/n.xml')).toBe('<n/>');
    const denied = await command('XQUERY insert node <i/> into doc("secret/secret.xml")/s');
    expect([denied.status, denied.text]).toEqual([500, "Stopped at ., 1/1:\n[FODC0002] Resource 'secret/secret.xml' not found."]);
    const computed = await command('XQUERY db:add(string-join(("sec", "ret")), <n/>, "n.xml")');
    expect([computed.status, computed.text]).toEqual([500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."]);
    expect(await content('secret/secret.xml')).toBe('<s/>');
  });
});
