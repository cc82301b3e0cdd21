/** Two standalone server processes over one PostgreSQL database (XMLDB_STORE_URL). */
import fs from 'node:fs';
import { createTestDatabase, describeWithPostgres } from '../helpers/postgres';
import { tempDir } from '../helpers/rest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const PASSWORD = 'admin-pw';

function call(server: ServerProcess, method: string, path: string, body?: string | Buffer, user = 'admin', password = PASSWORD) {
  const headers: Record<string, string> = { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
  if (body !== undefined) headers['Content-Type'] = 'application/octet-stream';
  return fetch(`${server.url}${path}`, { method, headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
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
    expect((await call(a, 'GET', `?command=${encodeURIComponent('CREATE USER ann secret')}`)).status).toBe(200);
    expect((await call(b, 'GET', '', undefined, 'ann', 'secret')).status).toBe(200);
  }, 120_000);

  test('a server killed during a write leaves no lock: the other one writes at once; a restarted one sees everything', async () => {
    expect((await call(a, 'PUT', '/db')).status).toBe(201);
    expect((await call(a, 'PUT', '/db/kept.txt', 'kept')).status).toBe(201);
    const big = Buffer.alloc(30 * 1024 * 1024, 120);
    const dying = call(a, 'PUT', '/db/big.bin', big).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await a.stop('SIGKILL');
    await dying;
    expect((await call(b, 'PUT', '/db/after.txt', 'after')).status).toBe(201);
    const c = await start();
    const listing = await statusAndText(call(c, 'GET', '/db'));
    expect(listing[0]).toBe(200);
    // The killed write was never acknowledged: either whole or not there.
    expect(listing[1]).toMatch(/^<database xmlns="http:\/\/basex.org\/rest" name="db">(<resource type="binary" content-type="application\/octet-stream" size="31457280">big.bin<\/resource>)?<resource type="binary" content-type="text\/plain" size="5">after.txt<\/resource><resource type="binary" content-type="text\/plain" size="4">kept.txt<\/resource><\/database>$/);
  }, 120_000);
});
