/**
 * What the router keeps per request and per connection without waiting: the user of credentials
 * a connection had accepted (auth.ts, known at once), the signal of a client that goes away
 * (disconnect-signal.ts) and the request's user for the access log (request-user.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request } from 'express';
import { authenticate } from '../../lib/http/auth';
import { DisconnectSignal } from '../../lib/http/disconnect-signal';
import { requestUser, setRequestUser } from '../../lib/http/request-user';
import { closeRuntime, openRuntime, type Runtime } from '../../lib/operations/composition-root';
import { resolveOptions, type RestOptions } from '../../lib/router-options';
import { ADMIN, tempDir } from '../helpers/rest';

describe('authenticate: known at once for credentials the connection had accepted', () => {
  let rt: Runtime;
  const open = async (options: RestOptions = {}) => {
    rt = await openRuntime(resolveOptions({ dbPath: tempDir(), adminPassword: ADMIN.password, ...options }));
  };
  afterEach(() => closeRuntime(rt));

  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const requestOn = (socket: object, authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization }, socket }) as unknown as Request;

  test('the first request of a connection logs in (a promise); the next with the same header is the same user at once', async () => {
    await open();
    const socket = { remoteAddress: '127.0.0.1' };
    const first = authenticate(requestOn(socket, basic(ADMIN.user, ADMIN.password)), rt);
    expect(first).toBeInstanceOf(Promise);
    const user = await first;
    expect(user.name).toBe('admin');
    const again = authenticate(requestOn(socket, basic(ADMIN.user, ADMIN.password)), rt);
    expect(again).toBe(user);
    // another connection, or other credentials on this one, log in again
    expect(authenticate(requestOn({ remoteAddress: '127.0.0.1' }, basic(ADMIN.user, ADMIN.password)), rt)).toBeInstanceOf(Promise);
    const wrong = authenticate(requestOn(socket, basic(ADMIN.user, 'guess')), rt);
    expect(wrong).toBeInstanceOf(Promise);
    await expect(wrong).rejects.toMatchObject({ status: 401, message: 'Access denied: admin.' });
  });

  test('a header that is not Basic fails at once', async () => {
    await open();
    expect(() => authenticate(requestOn({}), rt)).toThrow(expect.objectContaining({ status: 401, message: 'Basic authentication expected.' }));
  });

  test("with the host's authenticate hook, always a promise: the hook's user, else the credentials", async () => {
    const named = new WeakSet<object>();
    await open({ authenticate: (req) => (named.has(req) ? 'admin' : undefined) });
    const socket = { remoteAddress: '127.0.0.1' };
    const hooked = requestOn(socket);
    named.add(hooked);
    const viaHook = authenticate(hooked, rt);
    expect(viaHook).toBeInstanceOf(Promise);
    expect((await viaHook).name).toBe('admin');
    await authenticate(requestOn(socket, basic(ADMIN.user, ADMIN.password)), rt);
    const remembered = authenticate(requestOn(socket, basic(ADMIN.user, ADMIN.password)), rt);
    expect(remembered).toBeInstanceOf(Promise);
    expect((await remembered).name).toBe('admin');
  });
});

describe('the disconnect signal and the request user', () => {
  /** A server whose handler gets each request's signal, answering or not as `answer` says. */
  async function serve(answer: (res: http.ServerResponse) => void) {
    const signals: { signal: DisconnectSignal; calls: number; user?: string }[] = [];
    const closed: Promise<void>[] = [];
    const server = http.createServer((req, res) => {
      const entry = { signal: new DisconnectSignal(res), calls: 0, user: undefined as string | undefined };
      entry.signal.addEventListener('abort', () => entry.calls++);
      setRequestUser(req, 'alice');
      closed.push(new Promise<void>((resolve) => res.on('close', () => resolve())).then(() => void (entry.user = requestUser(req))));
      signals.push(entry);
      answer(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return { server, port, signals, closed };
  }

  test('a response written in full: the signal never aborts; the user is read after it', async () => {
    const s = await serve((res) => res.end('ok'));
    try {
      for (let i = 0; i < 2; i++) {
        await new Promise<void>((resolve, reject) => http.get({ port: s.port, path: '/' }, (res) => res.resume().on('end', resolve)).on('error', reject));
      }
      await Promise.all(s.closed);
      expect(s.signals.map((e) => [e.signal.aborted, e.calls, e.user])).toStrictEqual([
        [false, 0, 'alice'],
        [false, 0, 'alice'],
      ]);
    } finally {
      s.server.close();
    }
  });

  test('a client that goes away before its answer: the signal aborts once, a listener removed before is not called', async () => {
    const s = await serve(() => undefined);
    try {
      await new Promise<void>((resolve) => {
        const req = http.get({ port: s.port, path: '/' });
        req.on('error', () => resolve());
        // the client goes away once the server has the request (a fixed delay lost the race on a busy machine)
        const away = (): void => void (s.signals.length > 0 ? req.destroy() : setTimeout(away, 5));
        away();
      });
      await Promise.all(s.closed);
      expect(s.signals.map((e) => [e.signal.aborted, e.calls])).toStrictEqual([[true, 1]]);
      const removed = jest.fn();
      const late = new DisconnectSignal(new http.ServerResponse(new http.IncomingMessage(null as never)));
      late.addEventListener('abort', removed);
      late.removeEventListener('abort', removed);
      late.abort();
      expect(removed).not.toHaveBeenCalled();
      expect(late.aborted).toBe(true);
    } finally {
      s.server.close();
    }
  });

  test('no user recorded: undefined', () => {
    expect(requestUser(new http.IncomingMessage(null as never))).toBeUndefined();
  });
});
