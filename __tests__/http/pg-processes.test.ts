/** Two standalone server processes over one PostgreSQL database (XMLDB_STORE_URL). */
import fs from 'node:fs';
import { Client } from 'pg';
import { LOCK_CLASS } from '../../lib/store/postgres/lock-keys';
import { createTestDatabase, describeWithPostgres } from '../helpers/postgres';
import { tempDir } from '../helpers/rest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const PASSWORD = 'admin-pw';

function call(
  server: ServerProcess,
  method: string,
  path: string,
  body?: string | Buffer,
  user = 'admin',
  password = PASSWORD,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, ...extra };
  if (body !== undefined) headers['Content-Type'] ??= 'application/octet-stream';
  return fetch(`${server.url}${path}`, { method, headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
}

/** PUT with a content type. */
function putAs(server: ServerProcess, path: string, body: string, contentType: string) {
  return call(server, 'PUT', path, body, 'admin', PASSWORD, { 'Content-Type': contentType });
}

function query(server: ServerProcess, text: string, path = '') {
  return call(server, 'GET', `${path}?query=${encodeURIComponent(text)}`);
}

function command(server: ServerProcess, text: string, path = '') {
  return call(server, 'GET', `${path}?command=${encodeURIComponent(text)}`);
}

/** Polls `check` until it holds (the state asserted is reached; a bounded number of tries). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the expected state was not reached');
}

async function statusAndText(response: Promise<Response>): Promise<[number, string]> {
  const r = await response;
  return [r.status, await r.text()];
}

// The tests run in order on the same two servers (each start compiles the sources: slow).
describeWithPostgres('server processes over one PostgreSQL store', () => {
  let db: { url: string; drop: () => Promise<void> };
  const folders: string[] = [];
  const running: ServerProcess[] = [];
  let a: ServerProcess;
  let b: ServerProcess;

  const start = async () => {
    const folder = tempDir('xmldb-pgproc-');
    folders.push(folder);
    const server = await startServerProcess({ XMLDB_STORE_URL: db.url, XMLDB_ADMIN_PASSWORD: PASSWORD, XMLDB_PATH: folder });
    running.push(server);
    return server;
  };

  /**
   * Advisory locks of the store (lock-keys.ts) held in the test database: exclusive database
   * locks only, or all of them.
   */
  const advisoryLocks = async (exclusiveOnly: boolean): Promise<number> => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND classid = ANY($1::oid[])${exclusiveOnly ? " AND mode = 'ExclusiveLock'" : ''}`,
        [exclusiveOnly ? [LOCK_CLASS.database] : [LOCK_CLASS.global, LOCK_CLASS.database]],
      );
      return Number(rows[0].n);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    [a, b] = await Promise.all([start(), start()]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')));
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
    await db.drop();
  });

  test('writes on one are read on the other; a user created on one logs in on the other', async () => {
    expect((await call(a, 'PUT', '/db')).status).toBe(201);
    for (let i = 0; i < 5; i++) {
      expect((await call(i % 2 ? a : b, 'PUT', '/db/n.txt', String(i))).status).toBe(201);
      expect(await statusAndText(call(i % 2 ? b : a, 'GET', '/db/n.txt'))).toEqual([200, String(i)]);
    }
    // a resource of several chunks, streamed from PostgreSQL by the other server
    const large = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < large.length; i++) large[i] = (i * 13) % 256;
    expect((await call(a, 'PUT', '/db/large.bin', large)).status).toBe(201);
    const got = await call(b, 'GET', '/db/large.bin');
    expect([got.status, got.headers.get('content-length')]).toEqual([200, String(large.length)]);
    expect(Buffer.from(await got.arrayBuffer()).equals(large)).toBe(true);
    expect((await call(a, 'GET', `?command=${encodeURIComponent('CREATE USER ann secret')}`)).status).toBe(200);
    expect((await call(b, 'GET', '', undefined, 'ann', 'secret')).status).toBe(200);
  }, 120_000);

  test('concurrent updating queries from both servers on one document: none is lost', async () => {
    expect((await call(a, 'PUT', '/upd')).status).toBe(201);
    expect((await putAs(b, '/upd/doc.xml', '<r/>', 'application/xml')).status).toBe(201);
    const inserts = Array.from({ length: 20 }, (_, i) => statusAndText(query(i % 2 ? a : b, `insert node <n i="${i}"/> into doc("upd/doc.xml")/r`)));
    expect(await Promise.all(inserts)).toEqual(Array.from({ length: 20 }, () => [200, '']));
    const all = 'sort(doc("upd/doc.xml")//n/@i ! xs:integer(.)) => string-join(",")';
    const expected = Array.from({ length: 20 }, (_, i) => i).join(',');
    expect(await statusAndText(query(a, all))).toEqual([200, expected]);
    expect(await statusAndText(query(b, all))).toEqual([200, expected]);
  }, 120_000);

  test('ETag and Last-Modified of a resource are the same on both servers and change with each write', async () => {
    expect((await call(a, 'PUT', '/tags')).status).toBe(201);
    expect((await putAs(a, '/tags/a.xml', '<a>1</a>', 'application/xml')).status).toBe(201);
    const validators = async (server: ServerProcess) => {
      const r = await call(server, 'GET', '/tags/a.xml');
      expect(r.status).toBe(200);
      return [r.headers.get('etag'), r.headers.get('last-modified'), await r.text()];
    };
    const first = await validators(a);
    expect(first[0]).toMatch(/^".+"$/);
    expect(await validators(b)).toEqual(first);
    const unchanged = await call(b, 'GET', '/tags/a.xml', undefined, 'admin', PASSWORD, { 'If-None-Match': first[0] as string });
    expect(unchanged.status).toBe(304);
    expect((await putAs(b, '/tags/a.xml', '<a>2</a>', 'application/xml')).status).toBe(201);
    const second = await validators(a);
    expect(second[0]).not.toBe(first[0]);
    expect(second[2]).toBe('<a>2</a>');
    expect(await validators(b)).toEqual(second);
    expect((await call(a, 'GET', '/tags/a.xml', undefined, 'admin', PASSWORD, { 'If-None-Match': first[0] as string })).status).toBe(200);
  }, 120_000);

  test('caches of one server (documents, indexes, database options) follow the writes of the other', async () => {
    expect((await call(a, 'PUT', '/cache')).status).toBe(201);
    expect((await putAs(a, '/cache/a.xml', '<a><n>1</n><n>2</n></a>', 'application/xml')).status).toBe(201);
    const sum = (server: ServerProcess) => statusAndText(query(server, 'sum(//n)', '/cache'));
    // twice on b: the second answer comes from b's caches
    expect(await sum(b)).toEqual([200, '3']);
    expect(await sum(b)).toEqual([200, '3']);
    expect((await putAs(a, '/cache/a.xml', '<a><n>10</n></a>', 'application/xml')).status).toBe(201);
    expect(await sum(b)).toEqual([200, '10']);
    expect(await statusAndText(query(a, 'insert node <n>5</n> into doc("cache/a.xml")/a'))).toEqual([200, '']);
    expect(await sum(b)).toEqual([200, '15']);
    expect((await putAs(a, '/cache/b.xml', '<b><n>100</n></b>', 'application/xml')).status).toBe(201);
    expect(await sum(b)).toEqual([200, '115']);
    expect((await call(a, 'DELETE', '/cache/a.xml')).status).toBe(200);
    expect(await sum(b)).toEqual([200, '100']);
    // the database dropped and created again with a document of the same name
    expect((await call(a, 'PUT', '/cache')).status).toBe(201);
    expect((await putAs(a, '/cache/b.xml', '<b><n>7</n></b>', 'application/xml')).status).toBe(201);
    expect(await sum(b)).toEqual([200, '7']);
    expect(await statusAndText(command(b, 'INFO DB', '/cache'))).toEqual([200, expect.stringContaining(' TEXTINDEX: true\n')]);
    expect(await statusAndText(command(a, 'DROP INDEX TEXT', '/cache'))).toEqual([200, '']);
    expect(await statusAndText(command(b, 'INFO DB', '/cache'))).toEqual([200, expect.stringContaining(' TEXTINDEX: false\n')]);
  }, 120_000);

  test('users: passwords and permissions changed on one server apply on the other at once', async () => {
    expect((await call(a, 'PUT', '/perm')).status).toBe(201);
    expect((await putAs(a, '/perm/p.xml', '<p/>', 'application/xml')).status).toBe(201);
    expect(await statusAndText(command(a, 'CREATE USER bob pw1'))).toEqual([200, '']);
    expect((await call(b, 'GET', '/perm/p.xml', undefined, 'bob', 'pw1')).status).toBe(404);
    expect(await statusAndText(command(a, 'GRANT READ TO bob'))).toEqual([200, '']);
    expect(await statusAndText(call(b, 'GET', '/perm/p.xml', undefined, 'bob', 'pw1'))).toEqual([200, '<p/>']);
    expect(await statusAndText(command(a, 'ALTER PASSWORD bob pw2'))).toEqual([200, '']);
    expect((await call(b, 'GET', '/perm/p.xml', undefined, 'bob', 'pw1')).status).toBe(401);
    expect((await call(b, 'GET', '/perm/p.xml', undefined, 'bob', 'pw2')).status).toBe(200);
    expect(await statusAndText(command(b, 'GRANT NONE ON perm TO bob'))).toEqual([200, '']);
    expect((await call(a, 'GET', '/perm/p.xml', undefined, 'bob', 'pw2')).status).toBe(404);
  }, 120_000);

  test('a server killed while it holds a write lock leaves no lock: the other one writes at once; a restarted one sees everything', async () => {
    expect((await call(a, 'PUT', '/db')).status).toBe(201);
    expect((await call(a, 'PUT', '/db/kept.txt', 'kept')).status).toBe(201);
    expect((await putAs(a, '/db/doc.xml', '<r/>', 'application/xml')).status).toBe(201);
    expect(await statusAndText(query(b, 'count(doc("db/doc.xml")/r)'))).toEqual([200, '1']);
    // an updating query that runs long, holding the write lock of db, and a large upload
    const held = query(a, 'insert node <never>{ prof:sleep(100000) }</never> into doc("db/doc.xml")/r').catch(() => undefined);
    const big = Buffer.alloc(30 * 1024 * 1024, 120);
    const dying = call(a, 'PUT', '/db/big.bin', big).catch(() => undefined);
    await eventually(async () => (await advisoryLocks(true)) > 0);
    await a.stop('SIGKILL');
    await Promise.all([held, dying]);
    // PostgreSQL ends the sessions of the dead server, and their locks with them
    await eventually(async () => (await advisoryLocks(false)) === 0);
    expect((await call(b, 'PUT', '/db/after.txt', 'after')).status).toBe(201);
    expect(await statusAndText(query(b, 'insert node <b/> into doc("db/doc.xml")/r'))).toEqual([200, '']);
    const c = await start();
    const listing = await statusAndText(call(c, 'GET', '/db'));
    expect(listing[0]).toBe(200);
    // The killed write was never acknowledged: either whole or not there.
    expect(listing[1]).toMatch(
      /^<database xmlns="http:\/\/basex.org\/rest" name="db">(<resource type="binary" content-type="application\/octet-stream" size="31457280">big.bin<\/resource>)?<resource type="binary" content-type="text\/plain" size="5">after.txt<\/resource><resource type="xml" content-type="application\/xml" size="3">doc.xml<\/resource><resource type="binary" content-type="text\/plain" size="4">kept.txt<\/resource><\/database>$/,
    );
    // the restarted server reads everything written before, by both servers
    expect(await statusAndText(call(c, 'GET', '/db/doc.xml'))).toEqual([200, '<r><b/></r>']);
    expect(await statusAndText(call(c, 'GET', '/upd/doc.xml', undefined, 'admin', PASSWORD))).toEqual([200, expect.stringMatching(/^<r>(<n i="\d+"\/>){20}<\/r>$/)]);
    const bobs = await statusAndText(call(c, 'GET', '', undefined, 'bob', 'pw2'));
    expect(bobs).toEqual([200, expect.stringContaining('>upd</database>')]);
    expect(bobs[1]).not.toContain('>perm</database>'); // granted none there
    // its caches fill again and follow b's writes
    expect(await statusAndText(query(c, 'count(//b)', '/db'))).toEqual([200, '1']);
    expect(await statusAndText(query(b, 'insert node <b/> into doc("db/doc.xml")/r'))).toEqual([200, '']);
    expect(await statusAndText(query(c, 'count(//b)', '/db'))).toEqual([200, '2']);
    // nothing went wrong on the way that the servers would have reported (e.g. the driver's warnings)
    expect(b.output()).not.toMatch(/Warning|Error/);
  }, 180_000);
});
