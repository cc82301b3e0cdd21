import cors from 'cors';
import express4 from 'express4';
import express5 from 'express';
import request from 'supertest';
import { createRestRouter, type Logger, type RestRouter } from '../../lib';
import { ADMIN, seedUsers, tempDir } from '../helpers/rest';

type Call = { level: string; args: unknown[] };

function recordingLogger(calls: Call[]): Logger {
  const at = (level: string) => (...args: unknown[]) => void calls.push({ level, args });
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } as Logger;
}

type AnyApp = { use: (...args: unknown[]) => unknown };
type Host = { name: string; app: () => AnyApp & Parameters<typeof request>[0]; json: () => unknown; text: () => unknown };

const HOSTS: Host[] = [
  { name: 'Express 4', app: () => express4() as never, json: () => express4.json(), text: () => express4.text() },
  { name: 'Express 5', app: () => express5() as never, json: () => express5.json(), text: () => express5.text() },
];

describe.each(HOSTS)('$name host with cors(), express.json(), express.text(), authenticate and logger', (host) => {
  const calls: Call[] = [];
  let router: RestRouter;
  let app: AnyApp & Parameters<typeof request>[0];

  beforeAll(async () => {
    const dbPath = tempDir();
    await seedUsers(dbPath, [{ name: 'reader', password: 'r-pw', perm: 'read' }]);
    app = host.app();
    app.use(cors());
    app.use(host.json());
    app.use(host.text());
    // the host's own authentication, e.g. a session: here a header it trusts
    app.use((req: { headers: Record<string, string | undefined>; user?: string }, _res: unknown, next: () => void) => {
      req.user = req.headers['x-session-user'];
      next();
    });
    router = createRestRouter({
      dbPath,
      restPath: tempDir(),
      adminPassword: ADMIN.password,
      logger: recordingLogger(calls),
      authenticate: async (req) => {
        const user = (req as unknown as { user?: string }).user;
        if (user === 'explode') throw new Error('session store is down');
        return user;
      },
    });
    app.use('/rest', router);
    await router.ready();
  });
  afterAll(() => router.close());

  const as = (user: string | undefined, t: request.Test) => (user === undefined ? t : t.set('X-Session-User', user));

  test("the host's user applies with that user's permissions", async () => {
    await as('admin', request(app).put('/rest/db')).expect(201);
    await as('admin', request(app).put('/rest/db/j.xml')).set('Content-Type', 'application/xml').send('<json><a>1</a></json>').expect(201);
    await as('admin', request(app).put('/rest/db/t.txt')).set('Content-Type', 'application/octet-stream').send(Buffer.from('plain')).expect(201);
    expect((await as('reader', request(app).get('/rest/db/t.txt')).expect(200)).text).toBe('plain');
    const head = await as('reader', request(app).head('/rest/db/t.txt')).expect(200);
    expect(head.headers['content-length']).toBe('5');
    expect(head.headers.etag).toMatch(/^"/);
    expect((await as('reader', request(app).get('/rest/db/j.xml')).expect(200)).text).toBe('<json><a>1</a></json>');
    const denied = await as('reader', request(app).put('/rest/db/t.txt')).set('Content-Type', 'application/xml').send('<x/>').expect(403);
    expect(denied.text).toBe('Write permission needed.');
    const q = await as('reader', request(app).post('/rest/db')).set('Content-Type', 'application/xml').send('<query><text>count(//a)</text></query>').expect(200);
    expect(q.text).toBe('1');
  });

  test('an unknown name is 401; no name falls back to Basic authentication', async () => {
    const r = await as('nobody', request(app).get('/rest')).expect(401);
    expect(r.text).toBe('Access denied: nobody.');
    await request(app).get('/rest').expect(401);
    await request(app).get('/rest').auth('reader', 'r-pw').expect(200);
    await request(app).get('/rest').auth('reader', 'wrong').expect(401);
  });

  test('cors() in front answers preflights and adds its headers to answers', async () => {
    const pre = await request(app).options('/rest/db').set('Origin', 'https://app.example').set('Access-Control-Request-Method', 'PUT').expect(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toMatch(/PUT/);
    const get = await as('reader', request(app).get('/rest/db/t.txt')).set('Origin', 'https://app.example').expect(200);
    expect(get.headers['access-control-allow-origin']).toBe('*');
  });

  test('internal errors go to logger.error with the stack; the client sees no stack; nothing on stdout or stderr', async () => {
    const out = jest.spyOn(process.stdout, 'write');
    const err = jest.spyOn(process.stderr, 'write');
    try {
      calls.length = 0;
      const r = await as('explode', request(app).get('/rest')).expect(500);
      expect(r.text).toBe('Internal error.');
      expect(calls).toHaveLength(1);
      expect(calls[0].level).toBe('error');
      const [obj, msg] = calls[0].args as [{ err: Error; stack: string }, string];
      expect(msg).toBe('xmldb-rest: internal error: session store is down');
      expect(obj.err).toBeInstanceOf(Error);
      expect(obj.stack).toMatch(/^Error: session store is down\n\s+at /);
      await as('admin', request(app).get('/rest?query=1')).expect(200);
      await as('admin', request(app).get('/rest/nodb')).expect(404);
      // fn:trace writes in a query worker: the line goes to logger.debug
      const traced = await as('admin', request(app).get(`/rest?query=${encodeURIComponent('trace(42, "answer")')}`)).expect(200);
      expect(traced.text).toBe('42');
      for (let i = 0; i < 100 && !calls.some((c) => c.level === 'debug'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(calls.filter((c) => c.level === 'debug').map((c) => c.args)).toStrictEqual([[{ stream: 'stderr' }, "fn:trace: answer: xs:integer('42')"]]);
      expect(out).not.toHaveBeenCalled();
      expect(err).not.toHaveBeenCalled();
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});

describe('logger defaults and the deprecated log option', () => {
  test('a new data folder: the admin password is a warning; the default logger prints warnings only', async () => {
    const calls: Call[] = [];
    const router = createRestRouter({ dbPath: tempDir(), restPath: tempDir(), logger: recordingLogger(calls) });
    await router.ready();
    await router.close();
    expect(calls.map((c) => c.level)).toStrictEqual(['warn']);
    // The message names the file that holds the generated password, never the password.
    expect(calls[0].args[0]).toMatch(/^xmldb-rest: created user admin; its password is in \S+admin-password\.txt /);

    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const quiet = createRestRouter({ dbPath: tempDir(), restPath: tempDir() });
      await quiet.ready();
      await quiet.close();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(log).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      log.mockRestore();
    }
  });

  test('log still receives each message as one line', async () => {
    const lines: string[] = [];
    const router = createRestRouter({ dbPath: tempDir(), restPath: tempDir(), log: (m) => lines.push(m) });
    await router.ready();
    await router.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^xmldb-rest: created user admin; its password is in \S+admin-password\.txt /);
  });

  test('invalid logger and authenticate options are refused', () => {
    expect(() => createRestRouter({ logger: { info: () => undefined } as never, authenticate: 'admin' as never })).toThrow(
      'xmldb-rest: invalid options: "logger" must have the functions info, warn, error and debug; "authenticate" must be a function.',
    );
  });
});
