/**
 * What the standalone server answers to requests its HTTP parser refuses (a request line or
 * headers past Node's `maxHeaderSize`, malformed syntax), seen on a raw socket: the status line,
 * headers and body as sent, and whether the connection ends cleanly or is reset.
 */
import { maxHeaderSize } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { answerClientErrors, isInRequestLine, type ClientError } from '../../lib/http/client-errors';
import { startServer, type RunningServer } from '../../lib/server';
import { tempDir } from '../helpers/rest';

const AUTH = `Basic ${Buffer.from('admin:pw').toString('base64')}`;
const URI_TOO_LONG = `URI too long: the request line and headers may hold at most ${maxHeaderSize} bytes. Send a long query or command in the body of a POST request, or a query in the body of a QUERY request.`;

interface Exchange {
  /** Everything the server sent. */
  readonly received: string;
  /** The socket error the client saw (ECONNRESET, EPIPE), if any. */
  readonly error?: string;
}

/**
 * Sends `parts` on one connection, each after the previous one is written; `afterAnswer` is sent
 * once the first bytes of an answer have arrived, and the client then closes. Resolves when the
 * connection is closed.
 */
function exchange(port: number, parts: readonly string[], afterAnswer?: string): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let error: string | undefined;
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!answered && afterAnswer !== undefined) socket.write(afterAnswer, () => socket.end());
      answered = true;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => resolve({ received, ...(error ? { error } : {}) }));
    socket.on('connect', async () => {
      // The client never closes its sending side first: Node's server would then drop a request in flight.
      for (const part of parts) await new Promise<void>((done) => socket.write(part, () => done()));
    });
  });
}

interface Response {
  readonly statusLine: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

/** The responses in `received`, in order (bodies by their Content-Length). */
function responses(received: string): Response[] {
  const out: Response[] = [];
  let rest = received;
  while (rest !== '') {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`incomplete response: ${rest}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers.get('content-length') ?? 0);
    out.push({ statusLine, headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

/** The one response of an exchange the server ended cleanly, as a text refusal. */
function refusal(x: Exchange, statusLine: string, body: string): void {
  expect(x.error).toBeUndefined();
  const all = responses(x.received);
  expect(all).toHaveLength(1);
  const [r] = all;
  expect(r.statusLine).toBe(statusLine);
  expect(r.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
  expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  expect(r.headers.get('connection')).toBe('close');
  expect(r.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
  expect(r.body).toBe(body);
}

const get = (target: string, headers = '') => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n${headers}\r\n`;

describe('the standalone server answers what its parser refuses', () => {
  let running: RunningServer;
  let port: number;
  beforeAll(async () => {
    const dir = tempDir();
    running = await startServer({ port: 0, host: '127.0.0.1', dbPath: path.join(dir, 'data'), restPath: path.join(dir, 'rp'), adminPassword: 'pw' }, () => undefined);
    port = Number(new URL(running.url).port);
  });
  afterAll(() => running.stop());

  test('GET with a 64 KB ?query=: 414 with a text body naming POST and QUERY', async () => {
    refusal(await exchange(port, [get(`/rest?query=${'x'.repeat(64 * 1024)}`)]), 'HTTP/1.1 414 URI Too Long', URI_TOO_LONG);
  });

  test('GET of a 100 KB URL: 414', async () => {
    refusal(await exchange(port, [get(`/rest/db/${'x'.repeat(100 * 1024)}`)]), 'HTTP/1.1 414 URI Too Long', URI_TOO_LONG);
  });

  test('GET with 10,000 parameters: 414', async () => {
    const target = `/rest?query=1&${Array.from({ length: 10_000 }, (_, i) => `v${i}=1`).join('&')}`;
    refusal(await exchange(port, [get(target)]), 'HTTP/1.1 414 URI Too Long', URI_TOO_LONG);
  });

  test('?command= with a 100 KB argument: 414', async () => {
    const target = `/rest?command=${encodeURIComponent(`XQUERY ${'1'.repeat(100 * 1024)}`)}`;
    refusal(await exchange(port, [get(target)]), 'HTTP/1.1 414 URI Too Long', URI_TOO_LONG);
  });

  test('a long URL that arrives in pieces: 414', async () => {
    const request = get(`/rest?query=${'x'.repeat(64 * 1024)}`);
    const pieces = Array.from({ length: Math.ceil(request.length / 4000) }, (_, i) => request.slice(i * 4000, (i + 1) * 4000));
    refusal(await exchange(port, pieces), 'HTTP/1.1 414 URI Too Long', URI_TOO_LONG);
  });

  test('PUT to 5,000 one-character segments plus a 255-character leaf: 400 naming the limits', async () => {
    const created = await exchange(port, [`PUT /rest/db HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`]);
    expect(created.received).toMatch(/^HTTP\/1\.1 201 /);
    const body = '<a/>';
    const target = `/rest/db/${'a/'.repeat(5000)}${'b'.repeat(255)}`;
    const x = await exchange(port, [
      `PUT ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\nContent-Type: application/xml\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    ]);
    expect(x.error).toBeUndefined();
    const [r] = responses(x.received);
    expect(r.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(r.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(r.body).toBe(
      'Path too long: 10255 bytes in 5001 segments, the longest of 255 bytes; a resource path has at most 1024 bytes, 128 segments and 255 bytes in a segment.',
    );
  });

  test('headers past the limit: 431', async () => {
    refusal(
      await exchange(port, [get('/rest', `X-Big: ${'x'.repeat(20 * 1024)}\r\n`)]),
      'HTTP/1.1 431 Request Header Fields Too Large',
      `Request header fields too large: the request line and headers may hold at most ${maxHeaderSize} bytes.`,
    );
    refusal(
      await exchange(port, [get('/rest', 'X-Many: xxxxxxxxxx\r\n'.repeat(2000))]),
      'HTTP/1.1 431 Request Header Fields Too Large',
      `Request header fields too large: the request line and headers may hold at most ${maxHeaderSize} bytes.`,
    );
  });

  test('a malformed request: 400 with the parser\'s reason', async () => {
    refusal(await exchange(port, ['G@T /rest HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n']), 'HTTP/1.1 400 Bad Request', 'Malformed HTTP request: Invalid method encountered.');
    refusal(await exchange(port, ['GET /rest HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n']), 'HTTP/1.1 400 Bad Request', 'Malformed HTTP request: Invalid header token.');
    refusal(
      await exchange(port, ['PUT /rest/db/a.xml HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab']),
      'HTTP/1.1 400 Bad Request',
      'Malformed HTTP request: Duplicate Content-Length.',
    );
  });

  test('keep-alive: the request before the refused one is answered first, then the refusal, then the connection ends', async () => {
    const x = await exchange(port, [`${get('/rest?query=1%2B1')}${get(`/rest?query=${'x'.repeat(64 * 1024)}`)}`]);
    expect(x.error).toBeUndefined();
    const [first, second, ...more] = responses(x.received);
    expect(`${first.statusLine} ${first.body}`).toBe('HTTP/1.1 200 OK 2');
    expect(`${second.statusLine} ${second.body}`).toBe(`HTTP/1.1 414 URI Too Long ${URI_TOO_LONG}`);
    expect(more).toEqual([]);
  });

  test('a client still sending after the answer is read, not reset: it reads the answer and ends the connection itself', async () => {
    // The request line never ends: the client sends more of it after the answer arrived.
    const x = await exchange(port, [`GET /rest?query=${'x'.repeat(64 * 1024)}`], 'x'.repeat(256 * 1024));
    refusal(x, 'HTTP/1.1 414 URI Too Long', URI_TOO_LONG);
  });
});

describe('isInRequestLine: where the parser stopped', () => {
  const at = (text: string) => isInRequestLine(Buffer.from(text), text.length);

  test.each([
    ['a request line', 'GET /rest?query=xxxxxxxx', true],
    ['inside one long line of an earlier packet', 'xxxxxxxxxxxxxxxx', true],
    ['a header after the request line', 'GET /rest HTTP/1.1\r\nX-Big: xxxxxxxx', false],
    ['a header of a request begun in an earlier packet', 'xxxx\r\nX-Big: xxxxxxxx', false],
    ['the request line of a second request', 'GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /rest?query=xxxx', true],
    ['the same with bare line feeds', 'GET / HTTP/1.1\nHost: a\n\nGET /rest?query=xxxx', true],
    ['a header of a second request', 'GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nX-Big: xxxx', false],
  ])('%s: %s', (_, text, expected) => {
    expect(at(text)).toBe(expected);
  });

  test('only the bytes before the point of failure count', () => {
    const packet = Buffer.from('GET /rest?query=xxxx HTTP/1.1\r\nHost: a');
    expect(isInRequestLine(packet, 20)).toBe(true);
    expect(isInRequestLine(packet, packet.length)).toBe(false);
  });
});

describe('answerClientErrors on a plain connection', () => {
  /** What the client side of a fresh connection receives when the server side meets `error`, twice. */
  async function answered(error: ClientError): Promise<Exchange> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const answer = answerClientErrors(16384);
    server.on('connection', (socket) => {
      answer(error, socket);
      answer(error, socket); // a later packet of the same request reports the error again
    });
    const { port } = server.address() as net.AddressInfo;
    try {
      return await exchange(port, []);
    } finally {
      server.close();
    }
  }

  test('headers that did not arrive in time: 408', async () => {
    const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    refusal(await answered(timeout), 'HTTP/1.1 408 Request Timeout', 'Request timeout: the request line and headers did not arrive in time.');
  });

  test('a connection that failed (reset by the client) is closed without an answer', async () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(await answered(reset)).toEqual({ received: '' });
  });
});
