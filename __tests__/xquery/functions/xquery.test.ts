/** BaseX's xquery: module over REST (functions/xquery.ts): xquery:eval and xquery:eval-update. */
import request from 'supertest';
import { getQuery, queryBody, queryUrl, seedUsers, startTestServer, tempDir, type TestServer } from '../../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  const dbPath = tempDir();
  await seedUsers(dbPath, [
    { name: 'admin', password: 'admin-pw', perm: 'admin' },
    { name: 'local', password: 'pw', perm: 'none', grants: [['pub*', 'read']] },
    { name: 'writer', password: 'pw', perm: 'write' },
  ]);
  s = await startTestServer({ dbPath, queryTimeout: 2500 });
  await s.put('/rest/pub1', '<p><i>1</i><i>2</i></p>', 'application/xml').expect(201);
  await s.put('/rest/secret', '<s>hidden</s>', 'application/xml').expect(201);
  await s.put('/rest/pub1/query.xq', '1 + 41', 'text/plain').expect(201);
});
afterAll(() => s.close());

const ok = (query: string) => queryBody(s, query);
const as = (user: string, query: string) => request(s.app).get(queryUrl(query)).auth(user, 'pw');

describe('xquery:eval', () => {
  test('evaluates a query string', async () => {
    expect(await ok('xquery:eval("1 + 3")')).toBe('4');
    expect(await ok('xquery:eval("declare function local:f($x) { $x * 2 }; local:f(21)")')).toBe('42');
    expect(await ok('xquery:eval("<a>{1 to 3}</a>")')).toBe('<a>1 2 3</a>');
  });

  test('binds external variables by string, $-name, EQName and QName; the empty key is the context', async () => {
    expect(await ok(`xquery:eval("declare variable $a external; $a * 2", map { 'a': 21 })`)).toBe('42');
    expect(await ok(`xquery:eval("declare variable $a external; $a", map { '$a': (1, 2) })`)).toBe('1\n2');
    expect(await ok(`xquery:eval("declare namespace p='urn:p'; declare variable $p:x external; $p:x", map { 'Q{urn:p}x': 'e' })`)).toBe('e');
    expect(await ok(`xquery:eval("declare variable $x external; $x", map { xs:QName('x'): <x/> })`)).toBe('<x/>');
    expect(await ok(`xquery:eval("declare variable $Q{urn:q}y external; $Q{urn:q}y", map { QName('urn:q', 'y'): 5 })`)).toBe('5');
    expect(await ok(`xquery:eval("count(.//i)", map { '': <p><i/><i/></p> })`)).toBe('2');
    expect(await ok(`xquery:eval("declare variable $a external := 7; $a")`)).toBe('7');
  });

  test('a missing required variable is XPDY0002; a value of the wrong type XPTY0004', async () => {
    expect((await getQuery(s, `xquery:eval("declare variable $a external; $a")`).expect(500)).text).toBe('Stopped at ., 1/1:\n[XPDY0002] No value assigned to $a.');
    expect((await getQuery(s, `xquery:eval("declare variable $a as xs:integer external; $a", map { 'a': 'x' })`).expect(500)).text).toMatch(/\[XPTY0004\]/);
  });

  test('errors of the evaluated query keep their code and can be caught by the caller', async () => {
    expect((await getQuery(s, 'xquery:eval("1 +")').expect(500)).text).toMatch(/^Stopped at \., 1\/\d+:\n\[XPST0003\] /);
    expect((await getQuery(s, 'xquery:eval("error(xs:QName(\'err:FOER0000\'), \'boom\')")').expect(500)).text).toBe('Stopped at ., 1/1:\n[FOER0000] boom');
    expect(await ok('try { xquery:eval("1 div 0") } catch * { $err:code }')).toBe('err:FOAR0001');
  });

  test('the evaluated query reads databases through the caller', async () => {
    expect(await ok(`xquery:eval("count(db:get('pub1')//i)")`)).toBe('2');
    expect(await ok(`xquery:eval("string(doc('secret/secret.xml'))")`)).toBe('hidden');
    expect(await ok(`xquery:eval(xs:anyURI('pub1/query.xq'))`)).toBe('42');
  });
});

describe('xquery:eval keeps to the sandbox', () => {
  test('a function outside the allow-list is XPST0017, as in the calling query', async () => {
    expect((await getQuery(s, `xquery:eval("Q{http://saxonica.com/ns/globalJS}eval('1')")`).expect(500)).text).toBe(
      'Stopped at ., 1/1:\n[XPST0017] Unknown function: Q{http://saxonica.com/ns/globalJS}eval#1.',
    );
    expect((await getQuery(s, `xquery:eval("declare namespace ixsl='http://saxonica.com/ns/interactiveXSLT'; ixsl:window()")`).expect(500)).text).toMatch(
      /\[XPST0017\] Unknown function: ixsl:window#0\.$/,
    );
    expect(await ok(`xquery:eval("exists(function-lookup(QName('http://saxonica.com/ns/globalJS', 'eval'), 1))")`)).toBe('false');
  });

  test('a database the user may not read does not exist for the evaluated query', async () => {
    expect((await as('local', `xquery:eval("count(db:get('pub1')//i)")`).expect(200)).text).toBe('2');
    expect((await as('local', `xquery:eval("db:get('secret')")`).expect(500)).text).toBe("Stopped at ., 1/1:\n[db:open] Database 'secret' was not found.");
    expect((await as('local', `xquery:eval("doc('secret/secret.xml')")`).expect(500)).text).toMatch(/\[FODC0002\]/);
    expect((await as('local', `xquery:eval("db:list()")`).expect(200)).text).toBe('pub1');
    expect((await as('local', `xquery:eval(xs:anyURI('secret/secret.xml'))`).expect(500)).text).toMatch(/\[FODC0002\] Access to 'file:\/\/\/xmldb-rest\/secret\/secret\.xml' is denied\./);
  });

  test("the 'permission' option takes rights away for the evaluation only", async () => {
    const none = `map { }, map { 'permission': 'none' }`;
    expect(await ok(`count(xquery:eval("db:list()", ${none})), count(db:list()) > 0`)).toBe('0\ntrue');
    expect((await getQuery(s, `xquery:eval("db:get('pub1')", ${none})`).expect(500)).text).toBe("Stopped at ., 1/1:\n[db:open] Database 'pub1' was not found.");
    expect(await ok(`xquery:eval("count(db:get('pub1')//i)", map { }, map { 'permission': 'read' })`)).toBe('2');
    expect((await getQuery(s, `xquery:eval-update("delete node db:get('pub1')//i", map { }, map { 'permission': 'read' })`).expect(500)).text).toBe(
      'Stopped at ., 1/1:\n[xquery:permission] Write permission required.',
    );
    expect((await getQuery(s, `xquery:eval("1", map { }, map { 'permission': 'root' })`).expect(500)).text).toBe("Stopped at ., 1/1:\n[xquery:permission] Invalid permission: 'root'.");
  });

  test('host files stay out of reach', async () => {
    expect((await getQuery(s, `xquery:eval("unparsed-text('file:///etc/passwd')")`).expect(500)).text).toMatch(/\[FOUT1170\]/);
    expect((await getQuery(s, `xquery:eval(xs:anyURI('file:///etc/passwd'))`).expect(500)).text).toMatch(/\[FODC0002\] Access to 'file:\/\/\/etc\/passwd' is denied\./);
    expect((await getQuery(s, `xquery:eval(xs:anyURI('http://['))`).expect(500)).text).toBe('Stopped at ., 1/1:\n[FORG0002] Invalid URI: http://[.');
  });

  test('an evaluated query past the time limit is stopped, and the server keeps answering', async () => {
    // it sleeps past the limit: stopped as one that computes as long, without taking a core meanwhile
    const r = await getQuery(s, 'xquery:eval("declare function local:f($n) { prof:sleep($n) }; local:f(100000)")').expect(500);
    expect(r.text).toMatch(/\[BASX0003\] Timeout exceeded/);
    expect(await ok('xquery:eval("3")')).toBe('3');
  });

  test("the 'timeout' option lowers the limit for the evaluation: xquery:timeout, and the server keeps answering", async () => {
    const r = await getQuery(s, `xquery:eval("count((1 to 100000000000)[. < 0])", map { }, map { 'timeout': 0.3 })`).expect(500);
    expect(r.text).toBe('Stopped at ., 1/1:\n[xquery:timeout] The timeout was exceeded.');
    // an evaluation within its limit leaves the caller its own limit
    expect(await ok(`xquery:eval("1 + 1", map { }, map { 'timeout': 0.5 }), prof:sleep(800), 3`)).toBe('2\n3');
    expect(await ok(`xquery:eval("xquery:eval('4', map { }, map { 'timeout': 60 })", map { }, map { 'timeout': 30 })`)).toBe('4');
  });
});

describe('updates through xquery:eval', () => {
  test('xquery:eval refuses an updating query', async () => {
    expect((await getQuery(s, `xquery:eval("delete node db:get('pub1')//i[1]")`).expect(500)).text).toBe(
      'Stopped at ., 1/1:\n[xquery:update] No updating expression allowed.',
    );
    expect(await ok('count(db:get("pub1")//i)')).toBe('2');
  });

  test('xquery:eval-update adds its updates to the calling query', async () => {
    await s.put('/rest/pub2', '<p><i>1</i><i>2</i></p>', 'application/xml').expect(201);
    expect((await getQuery(s, `xquery:eval-update("delete node db:get('pub2')//i[1]")`).expect(200)).text).toBe('');
    expect(await ok('string-join(db:get("pub2")//i, ",")')).toBe('2');
    expect((await getQuery(s, `xquery:eval-update("1")`).expect(500)).text).toBe('Stopped at ., 1/1:\n[xquery:update] Updating expression expected.');
  });

  test('xquery:eval-update changes only what its user may change, as the calling query would', async () => {
    expect((await as('local', `xquery:eval-update("delete node db:get('pub1')//i[1]")`).expect(403)).text).toBe('Write permission needed.');
    expect((await as('writer', `xquery:eval-update("db:create('made')")`).expect(403)).text).toBe('Create permission needed.');
    await s.get('/rest/made').expect(404);
    expect((await getQuery(s, `xquery:eval-update("db:create('made')")`).expect(200)).text).toBe('');
    await s.get('/rest/made').expect(200);
    expect((await getQuery(s, `xquery:eval-update("db:drop('made')", (), map { 'permission': 'write' })`).expect(500)).text).toBe(
      'Stopped at ., 1/1:\n[xquery:permission] Create permission required.',
    );
  });
});
