/**
 * Request bodies: POST and QUERY bodies have their own small limit; permissions are checked before
 * a body is read; large bodies are parsed and converted off the request thread with the same
 * results and errors as small ones.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OFFLOAD_BYTES } from '../../lib/threads/offload';
import { seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

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
