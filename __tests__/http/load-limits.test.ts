/**
 * Bounded work: queries of clients that went away are stopped, the queue is bounded (503 with
 * Retry-After), results and worker heaps are bounded. One worker and a long time limit make the
 * old behaviour visible: without cancellation, the next query would wait for the time limit
 * (120 s); with it, only for a replacement worker to load.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ADMIN, startTestServer, type TestServer } from '../helpers/rest';

const RUNAWAY = encodeURIComponent('(1 to 100000000000)[. = 0]');
/** A query that holds its worker as long as a runaway, without using a core meanwhile. */
const SLEEPER = encodeURIComponent('prof:sleep(100000)');

let s: TestServer;
let server: http.Server;
let port: number;
/** The server's side of each connection, by the client's port. */
const serverSockets = new Map<number, Socket>();
beforeAll(async () => {
  s = await startTestServer({ workers: 1, queryTimeout: 120_000, maxQueuedQueries: 1, maxResultBytes: 1000 });
  server = http.createServer(s.app).listen(0);
  server.on('connection', (socket) => serverSockets.set(socket.remotePort ?? 0, socket));
  port = (server.address() as AddressInfo).port;
  await s.get('/rest?query=1').expect(200); // the worker has loaded
});
afterAll(async () => {
  server.close();
  await s.close();
});

/**
 * Sends a query and hangs up after `ms`, as a client that gives up does; resolves once the server
 * has seen the connection end (a request sent sooner may find the abandoned ones still queued).
 */
function abandon(query: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const auth = Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64');
    // a connection of its own (agent: false), whose server side is found by the client's port
    const req = http.get({ port, path: `/rest?query=${query}`, headers: { Authorization: `Basic ${auth}` }, agent: false });
    req.on('error', () => resolve());
    req.on('response', () => resolve());
    setTimeout(() => {
      const theirs = serverSockets.get(req.socket?.localPort ?? -1);
      req.destroy();
      if (theirs === undefined || theirs.closed) resolve();
      else theirs.once('close', () => resolve());
    }, ms);
  });
}

describe('a client that goes away', () => {
  test('stops its running query and its queued one: the next query is answered at once', async () => {
    await Promise.all([abandon(RUNAWAY, 300), abandon(RUNAWAY, 300)]);
    const r = await s.get('/rest?query=63177').timeout(60_000).expect(200);
    expect(r.text).toBe('63177');
  }, 90_000);
});

describe('the queue', () => {
  test('past maxQueuedQueries, a query is refused at once with 503 and Retry-After', async () => {
    const first = abandon(SLEEPER, 2000); // runs
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = abandon(SLEEPER, 2000); // waits
    await new Promise((resolve) => setTimeout(resolve, 200));
    // a query the pool must run (a pure one, such as `1`, is answered from its kept result: engine.ts)
    const refused = await s.get(`/rest?query=${encodeURIComponent('count(random:uuid())')}`).expect(503);
    expect(refused.headers['retry-after']).toBe('120');
    expect(refused.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(refused.text).toBe('Server busy: too many queries are waiting. Try again later.');
    await Promise.all([first, second]);
    expect((await s.get(`/rest?query=${encodeURIComponent('count((random:uuid(), random:uuid()))')}`).timeout(60_000).expect(200)).text).toBe('2');
  }, 90_000);
});

describe('results', () => {
  test('a result larger than maxResultBytes is an error, not a crash', async () => {
    const r = await s.get(`/rest?query=${encodeURIComponent("string-join((1 to 1001) ! 'x')")}`).expect(500);
    expect(r.text).toBe('[XPDY0130] Result too large: at most 1000 bytes may be returned (maxResultBytes).');
    const multiByte = await s.get(`/rest?query=${encodeURIComponent("string-join((1 to 600) ! 'é')")}`).expect(500);
    expect(multiByte.text).toBe('[XPDY0130] Result too large: at most 1000 bytes may be returned (maxResultBytes).');
    expect((await s.get(`/rest?query=${encodeURIComponent("string-join((1 to 1000) ! 'x')")}`).expect(200)).text).toBe('x'.repeat(1000));
  });
});

describe('worker memory', () => {
  test('a query that exhausts its worker heap fails alone; the next query runs', async () => {
    const t = await startTestServer({ workers: 1, workerMemory: 64 * 1024 * 1024 });
    try {
      const r = await t.get(`/rest?query=${encodeURIComponent('let $s := (1 to 3000000) ! array { . } return count(reverse($s))')}`).expect(500);
      expect(r.text).toBe("[XPDY0130] Out of main memory: the query needed more than its worker's heap (64 MiB).");
      expect((await t.get('/rest?query=3*3').expect(200)).text).toBe('9');
    } finally {
      await t.close();
    }
  });
});
