/**
 * Request bodies: POST and QUERY bodies have their own small limit; permissions are checked before
 * a body is read; large bodies are parsed and converted off the request thread with the same
 * results and errors as small ones.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { ANNOUNCED_READ_BYTES } from '../../lib/http/body';
import { OFFLOAD_BYTES } from '../../lib/threads/offload';
import { ADMIN, asBytes, seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

let s: TestServer;
let server: http.Server;
let port: number;
beforeAll(async () => {
  const dbPath = tempDir();
  await seedUsers(dbPath, [
    { name: 'nobody', password: 'pw', perm: 'none' },
    { name: 'reader', password: 'pw', perm: 'read' },
  ]);
  s = await startTestServer({ dbPath, maxQueryBodySize: 200_000, workers: 1 });
  await s.put('/rest/db').expect(201);
  server = http.createServer(s.app).listen(0);
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.close();
  await s.close();
});

/**
 * Sends the headers of a request announcing `length` body bytes, and only a few of them: a
 * server that waits for the body before it answers never answers.
 */
function announce(method: string, path: string, user: string, length: number, type = 'application/xml'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const auth = Buffer.from(`${user}:pw`).toString('base64');
    const req = http.request({ port, method, path, headers: { Authorization: `Basic ${auth}`, 'Content-Type': type, 'Content-Length': String(length) } });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write('<query><text>');
  });
}

describe('permissions before bodies', () => {
  test('a POST to a database the user may not read is refused before its body arrives', async () => {
    expect(await announce('POST', '/rest/db', 'nobody', 20_000_000)).toEqual({ status: 404, body: "Database 'db' was not found." });
  });

  test('a PUT without write permission is refused before its body arrives', async () => {
    expect(await announce('PUT', '/rest/db/big.xml', 'reader', 20_000_000)).toEqual({ status: 403, body: 'Write permission needed.' });
    expect(await announce('PUT', '/rest/other', 'reader', 20_000_000)).toEqual({ status: 403, body: 'Create permission needed.' });
  });

  test('a POST announced larger than maxQueryBodySize is refused unread with 413', async () => {
    expect(await announce('POST', '/rest', 'reader', 20_000_000)).toEqual({ status: 413, body: 'Request body too large: at most 200000 bytes are accepted; the router option maxQueryBodySize raises the limit.' });
  });
});

describe('the POST and QUERY limit', () => {
  test('a POST or QUERY body over maxQueryBodySize is 413; a PUT of the same size is stored', async () => {
    const big = `<query><text>1</text><!--${'x'.repeat(200_000)}--></query>`;
    expect((await s.post('/rest', big).expect(413)).text).toBe('Request body too large: at most 200000 bytes are accepted; the router option maxQueryBodySize raises the limit.');
    expect((await s.query('/rest', `1 (:${'x'.repeat(200_000)}:)`).expect(413)).text).toBe('Request body too large: at most 200000 bytes are accepted; the router option maxQueryBodySize raises the limit.');
    await s.put('/rest/db/big.xml', big, 'application/xml').expect(201);
  });
});

describe('large bodies off the request thread', () => {
  const filler = 'y'.repeat(OFFLOAD_BYTES);

  test('a large XML PUT is stored as a small one would be', async () => {
    const xml = `<doc><a n="1">${filler}</a><b/></doc>`;
    await s.put('/rest/db/large.xml', xml, 'application/xml').expect(201);
    expect((await s.get('/rest/db/large.xml').expect(200)).text).toBe(xml);
  });

  test('a large malformed XML PUT answers the parse error of a small one', async () => {
    const small = await s.put('/rest/db/bad.xml', '<doc><a></doc>', 'application/xml').expect(400);
    const large = await s.put('/rest/db/bad.xml', `<doc><a>${filler}</doc>`, 'application/xml').expect(400);
    expect(large.text.replace(/Column \d+/, 'Column N')).toBe(small.text.replace(/Column \d+/, 'Column N'));
  });

  test('large JSON and CSV PUTs are converted', async () => {
    await s.put('/rest/db/large.json', JSON.stringify({ s: filler }), 'application/json').expect(201);
    expect((await s.get('/rest/db/large.json').expect(200)).text).toBe(`<json type="object"><s>${filler}</s></json>`);
    await s.put('/rest/db/large.csv', `a\n${filler}\n`, 'text/csv').expect(201);
    expect((await s.get('/rest/db/large.csv').expect(200)).text).toBe(`<csv><record><entry>a</entry></record><record><entry>${filler}</entry></record></csv>`);
  });

  test('a large POST is parsed as a small one would be; its errors too', async () => {
    const r = await s.post('/rest', `<query><text>declare variable $v external; string-length($v)</text><variable name="v" value="${filler}"/></query>`).expect(200);
    expect(r.text).toBe(String(OFFLOAD_BYTES));
    const bad = await s.post('/rest', `<query><text>1</text><variable name="v" value="${filler}"></query>`).expect(400);
    expect(bad.text).toMatch(/^The POST body is not well-formed XML: /);
    const unknown = await s.post('/rest', `<quest><!--${filler}--></quest>`).expect(400);
    expect(unknown.text).toBe('Invalid POST command: quest');
  });
});

describe('bodies of an announced length (read whole into one buffer, body.ts readAnnounced)', () => {
  /** `size` bytes that differ from chunk to chunk, so a chunk copied to the wrong place shows. */
  const pattern = (size: number): Buffer => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + (i >> 16)) & 0xff));

  test('a PUT of more than ANNOUNCED_READ_BYTES arrives byte-exact, as binary and as XML', async () => {
    const bytes = pattern(ANNOUNCED_READ_BYTES + 70_001);
    await s.put('/rest/db/announced.bin', bytes, 'application/octet-stream').expect(201);
    const back = await asBytes(s.get('/rest/db/announced.bin')).expect(200);
    expect((back.body as Buffer).equals(bytes)).toBe(true);
    const xml = `<doc>${'<a>é€</a>'.repeat(ANNOUNCED_READ_BYTES / 8)}</doc>`;
    await s.put('/rest/db/announced.xml', xml, 'application/xml').expect(201);
    expect((await s.get('/rest/db/announced.xml').expect(200)).text === xml).toBe(true);
  });

  test('a compressed body of that size is still inflated (Content-Encoding: gzip)', async () => {
    const raw = randomBytes(2 * ANNOUNCED_READ_BYTES);
    const big = gzipSync(raw);
    expect(big.length).toBeGreaterThan(ANNOUNCED_READ_BYTES);
    await s.put('/rest/db/gzipped.bin', big, 'application/octet-stream').set('Content-Encoding', 'gzip').expect(201);
    const back = await asBytes(s.get('/rest/db/gzipped.bin')).expect(200);
    expect((back.body as Buffer).equals(raw)).toBe(true);
  });

  test('a PUT whose connection ends before the announced length stores nothing, and the server goes on', async () => {
    await new Promise<void>((resolve, reject) => {
      const auth = Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64');
      const req = http.request({ port, method: 'PUT', path: '/rest/db/cut.bin', headers: { Authorization: `Basic ${auth}`, 'Content-Type': 'application/octet-stream', 'Content-Length': String(2 * ANNOUNCED_READ_BYTES) } });
      req.on('error', () => resolve());
      req.on('response', () => reject(new Error('answered before the body was complete')));
      req.write(pattern(ANNOUNCED_READ_BYTES), () => setTimeout(() => { req.destroy(); resolve(); }, 100));
    });
    await new Promise((r) => setTimeout(r, 100));
    expect((await s.get('/rest/db').expect(200)).text).not.toContain('cut.bin');
    expect((await s.get('/rest/db?query=1%2B1').expect(200)).text).toBe('2');
  });
});
