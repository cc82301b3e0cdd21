/**
 * BaseX's user: and index: modules over REST (functions/user.ts, index-functions.ts,
 * operations/query-users.ts): exact bodies, BaseX's error codes, and what each user may see and
 * change. User changes are made by the server through its user store, for admins only.
 */
import request from 'supertest';
import { failureBody, getQuery, queryBody, queryUrl, seedUsers, startTestServer, tempDir, type TestServer } from '../../helpers/rest';

const READER = ['reader', 'reader-pw'] as const;
const WRITER = ['writer', 'writer-pw'] as const;
const ALICE = ['alice', 'alice-pw'] as const;

let s: TestServer;

/** A server with the users above and databases `mine` (alice may write it) and `secret`. */
async function start(): Promise<void> {
  const dbPath = tempDir();
  await seedUsers(dbPath, [
    { name: READER[0], password: READER[1], perm: 'read' },
    { name: WRITER[0], password: WRITER[1], perm: 'write' },
    { name: ALICE[0], password: ALICE[1], perm: 'none', grants: [['mine', 'write']] },
  ]);
  s = await startTestServer({ dbPath, workers: 1 });
  await s.put('/rest/mine', '<a><b x="1">t</b><b x="2">u</b><c>3</c></a>').expect(201);
  await s.put('/rest/secret', '<s>hidden</s>').expect(201);
}

/** One server for the tests of a block that change nothing; a fresh one per test for those that do. */
const shared = () => {
  beforeAll(start);
  afterAll(() => s.close());
};

const ok = (query: string) => queryBody(s, query);
const as = (user: readonly [string, string], query: string) => request(s.app).get(queryUrl(query)).auth(user[0], user[1]);

describe('user: reading', () => {
  shared();
  test('the current user, and the users it may see', async () => {
    expect(await ok('user:current(), user:list()')).toBe('admin\nadmin\nalice\nreader\nwriter');
    expect((await as(READER, 'user:current(), user:list()').expect(200)).text).toBe('reader\nreader');
  });

  test('list-details: permissions and grants, never a password hash', async () => {
    expect(await ok("user:list-details('alice')")).toBe('<user name="alice" permission="none"><database pattern="mine" permission="write"/></user>');
    expect(await ok('count(user:list-details()), exists(user:list-details()//password)')).toBe('4\nfalse');
    expect((await as(READER, 'user:list-details()').expect(200)).text).toBe('<user name="reader" permission="read"/>');
  });

  test('a user another may not see does not exist for them', async () => {
    expect(await ok("user:exists('alice'), user:exists('nobody')")).toBe('true\nfalse');
    expect((await as(READER, "user:exists('alice'), user:exists('reader')").expect(200)).text).toBe('false\ntrue');
    expect((await as(READER, "user:list-details('alice')").expect(500)).text).toMatch(/\[user:unknown\] User 'alice' does not exist\.$/);
    expect(await failureBody(s, "user:exists('a b')")).toMatch(/\[user:name\] Invalid user name: 'a b'\.$/);
  });
});

describe('user: changes', () => {
  beforeEach(start);
  afterEach(() => s.close());
  test('create a user with global and local permissions; it can log in', async () => {
    await getQuery(s, "user:create('bob', 'bob-pw', ('read', 'write'), ('', 'mine'))").expect(200, '');
    expect(await ok("user:list-details('bob')")).toBe('<user name="bob" permission="read"><database pattern="mine" permission="write"/></user>');
    expect((await as(['bob', 'bob-pw'], 'user:current()').expect(200)).text).toBe('bob');
  });

  test('alter, grant, password and drop go through the server’s user store', async () => {
    await getQuery(s, "user:alter('reader', 'reader2')").expect(200);
    await getQuery(s, "user:grant('reader2', ('write', 'none'), ('', 'secret'))").expect(200);
    await getQuery(s, "user:password('reader2', 'new-pw')").expect(200);
    expect(await ok("user:list-details('reader2')")).toBe('<user name="reader2" permission="write"><database pattern="secret" permission="none"/></user>');
    await as(READER, '1').expect(401);
    expect((await as(['reader2', 'new-pw'], 'user:current()').expect(200)).text).toBe('reader2');
    await getQuery(s, "user:drop('alice', 'mine')").expect(200);
    expect(await ok("user:list-details('alice')")).toBe('<user name="alice" permission="none"/>');
    await getQuery(s, "user:drop('alice')").expect(200);
    expect(await ok('user:list()')).toBe('admin\nreader2\nwriter');
  });

  test('a user may change its own password, and only its own', async () => {
    await as(WRITER, "user:password('writer', 'changed')").expect(200);
    await as(['writer', 'changed'], '1').expect(200);
    // user:create passes the query's static check inside xquery:eval-update: the server refuses
    // the change when it judges it, and the whole query changes nothing
    const query = "xquery:eval-update(\"user:password('writer', 'x'), user:create('evil', 'pw', 'admin')\")";
    expect((await as(['writer', 'changed'], query).expect(403)).text).toBe('Admin permission needed.');
    await as(['writer', 'changed'], '1').expect(200); // nothing of the query was applied
    expect(await ok("user:exists('evil')")).toBe('false');
  });

  test('a read user cannot create users: refused before the query runs', async () => {
    expect((await as(READER, "user:create('evil', 'pw', 'admin')").expect(403)).text).toBe('Admin permission needed.');
    expect((await as(WRITER, "user:grant('writer', 'admin')").expect(403)).text).toBe('Admin permission needed.');
    // the XQUERY command is judged the same way
    const command = request(s.app).get(`/rest?command=${encodeURIComponent("XQUERY user:create('evil', 'pw', 'admin')")}`).auth(READER[0], READER[1]);
    expect((await command.expect(403)).text).toBe('Admin permission needed.');
    expect(await ok("user:exists('evil'), user:list-details('writer')/@permission/string()")).toBe('false\nwrite');
  });

  test("BaseX's errors", async () => {
    expect(await failureBody(s, "user:create('admin', 'x')")).toMatch(/\[user:admin\] User 'admin' cannot be modified\.$/);
    expect(await failureBody(s, "user:drop('admin')")).toMatch(/\[user:admin\] User 'admin' cannot be modified\.$/);
    expect(await failureBody(s, "user:drop('nobody')")).toMatch(/\[user:unknown\] User 'nobody' does not exist\.$/);
    expect(await failureBody(s, "user:create('a/b', 'x')")).toMatch(/\[user:name\] Invalid user name: 'a\/b'\.$/);
    expect(await failureBody(s, "user:create('bob', 'x', 'super')")).toMatch(/\[user:permission\] Invalid permission: 'super'\.$/);
    expect(await failureBody(s, "user:create('bob', 'x', 'create', 'db*')")).toMatch(/\[user:local\] Local permission can only be 'none', 'read' or 'write'\.$/);
    expect(await failureBody(s, "user:grant('alice', 'read', 'a/b')")).toMatch(/\[user:pattern\] Invalid database pattern: 'a\/b'\.$/);
    expect(await failureBody(s, "user:alter('alice', 'alice')")).toMatch(/\[user:equal\] Name of old and new user is equal: alice\.$/);
    expect(await failureBody(s, "user:create('bob', 'x'), user:create('bob', 'y')")).toMatch(/\[user:update\] User 'bob' can only be created once\.$/);
    expect(await failureBody(s, "user:drop('alice'), user:alter('alice', 'al')")).toMatch(/\[user:conflict\] User 'alice' cannot be both altered and dropped\.$/);
    expect(await ok("user:exists('bob'), user:exists('alice')")).toBe('false\ntrue');
  });

  test('user changes and store changes of one query land together', async () => {
    await getQuery(s, "db:create('fresh'), user:create('bob', 'pw', 'read')").expect(200);
    expect(await ok("db:exists('fresh'), user:exists('bob')")).toBe('true\ntrue');
  });
});

describe('index:', () => {
  shared();
  test('names and values, computed from the documents', async () => {
    expect(await ok("index:element-names('mine')")).toBe('<entry count="1">a</entry>\n<entry count="2">b</entry>\n<entry count="1">c</entry>');
    expect(await ok("index:attribute-names('mine')")).toBe('<entry count="2">x</entry>');
    expect(await ok("index:texts('mine')")).toBe('<entry count="1">3</entry>\n<entry count="1">t</entry>\n<entry count="1">u</entry>');
    expect(await ok("index:attributes('mine', '2')")).toBe('<entry count="1">2</entry>');
    expect(await ok("index:texts('mine', 't', true()) ! string(), '|', index:texts('mine', 't', false()) ! string()")).toBe('t\nu\n|\nt\n3');
  });

  test('facets: the document structure with statistics, or flat', async () => {
    expect(await ok("index:facets('mine')")).toBe(
      '<document-node type="none" count="1"><element name="a" type="none" count="1">' +
        '<element name="b" type="category" count="2"><entry count="1">t</entry><entry count="1">u</entry><attribute name="x" type="integer" count="2" min="1" max="2"/></element>' +
        '<element name="c" type="integer" count="1" min="3" max="3"/></element></document-node>',
    );
    expect(await ok("index:facets('mine', 'flat')")).toBe(
      '<document-node><element name="a" type="none" count="1"/><element name="b" type="category" count="2"><entry count="1">t</entry><entry count="1">u</entry></element>' +
        '<element name="c" type="integer" count="1" min="3" max="3"/><attribute name="x" type="integer" count="2" min="1" max="2"/></document-node>',
    );
  });

  test("a user cannot list another's database", async () => {
    expect((await as(ALICE, "index:element-names('mine') ! string()").expect(200)).text).toBe('a\nb\nc');
    for (const query of ["index:texts('secret')", "index:element-names('secret')", "index:facets('secret')", "index:attributes('secret')", "index:attribute-names('secret')"]) {
      expect((await as(ALICE, query).expect(500)).text).toMatch(/\[db:open\] Database 'secret' was not found\.$/);
    }
    // a computed name is judged the same way
    expect((await as(ALICE, "index:texts(string-join(('sec', 'ret')))").expect(500)).text).toMatch(/\[db:open\] Database 'secret' was not found\.$/);
  });

  test('an unknown database', async () => {
    expect(await failureBody(s, "index:texts('nothing')")).toMatch(/\[db:open\] Database 'nothing' was not found\.$/);
  });
});

