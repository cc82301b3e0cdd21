import http from 'node:http';
import express4 from 'express4';
import express5 from 'express';
import request from 'supertest';
import { createRestRouter } from '../../lib';
import { ADMIN, NS, tempDir } from '../helpers/rest';

type AnyApp = { use: (...args: unknown[]) => unknown };

function mount(app: AnyApp, dbPath: string, at = '/rest') {
  const router = createRestRouter({ dbPath, restPath: tempDir(), adminPassword: ADMIN.password, log: () => undefined });
  app.use(at, router);
  return router;
}

describe('mounting in host applications', () => {
  test('Express 4 app with express.json() and express.text() in front', async () => {
    const app = express4();
    app.use(express4.json());
    app.use(express4.text());
    const router = mount(app as unknown as AnyApp, tempDir());
    const auth = (t: request.Test) => t.auth(ADMIN.user, ADMIN.password);
    await auth(request(app).put('/rest/db')).expect(201);
    // a parsed JSON object is not what was sent (host-parsers.test.ts): refused, not re-serialized
    await auth(request(app).put('/rest/db/j.json')).set('Content-Type', 'application/json').send('{"a":[1,true]}').expect(415);
    await auth(request(app).put('/rest/db/t.txt')).set('Content-Type', 'text/plain').send('plain text').expect(201);
    expect((await auth(request(app).get('/rest/db/t.txt')).expect(200)).text).toBe('plain text');
    await auth(request(app).put('/rest/db/x.xml')).set('Content-Type', 'application/xml').send('<x/>').expect(201);
    expect((await auth(request(app).get('/rest/db/x.xml')).expect(200)).text).toBe('<x/>');
    await router.close();
  });

  test('Express 5 app, two routers side by side on different data folders, any mount path', async () => {
    const app = express5();
    app.use(express5.json());
    const a = mount(app as unknown as AnyApp, tempDir(), '/a/rest');
    const b = mount(app as unknown as AnyApp, tempDir(), '/b');
    const auth = (t: request.Test) => t.auth(ADMIN.user, ADMIN.password);
    await auth(request(app).put('/a/rest/one')).expect(201);
    await auth(request(app).put('/b/two')).expect(201);
    expect((await auth(request(app).get('/a/rest')).expect(200)).text).toMatch(new RegExp(`^<databases xmlns="${NS}"><database [^>]+>one</database></databases>$`));
    expect((await auth(request(app).get('/b')).expect(200)).text).toMatch(/>two<\/database><\/databases>$/);
    await a.close();
    await b.close();
  });

  test('a plain Node HTTP server, without any Express application', async () => {
    const router = createRestRouter({ dbPath: tempDir(), restPath: tempDir(), adminPassword: ADMIN.password, log: () => undefined });
    const server = http.createServer((req, res) =>
      router(req as never, res as never, () => {
        res.statusCode = 404;
        res.end();
      }),
    );
    const auth = (t: request.Test) => t.auth(ADMIN.user, ADMIN.password);
    await auth(request(server).put('/db')).set('Content-Type', 'application/xml').send('<a>1</a>').expect(201);
    const got = await auth(request(server).get('/db?query=/a%2B1')).expect(200);
    expect(got.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(got.text).toBe('2');
    const denied = await request(server).get('/db').auth(ADMIN.user, 'wrong').expect(401);
    expect(denied.headers['www-authenticate']).toBe('Basic realm="BaseX"');
    expect(denied.text).toBe('Access denied: admin.');
    await router.close();
  });

  test("headers a host set before the router stay, and the router's own replace those of the same name", async () => {
    const app = express5();
    app.use((_req, res, next) => {
      res.setHeader('X-Host', 'kept');
      res.setHeader('Content-Type', 'text/x-host');
      res.setHeader('Content-Length', '999');
      next();
    });
    const router = mount(app as unknown as AnyApp, tempDir());
    const auth = (t: request.Test) => t.auth(ADMIN.user, ADMIN.password);
    const got = await auth(request(app).get('/rest?query=1%2B1')).expect(200);
    expect(got.headers['x-host']).toBe('kept');
    expect(got.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(got.headers['content-length']).toBe('1');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.text).toBe('2');
    const head = await auth(request(app).head('/rest?query=1%2B1')).expect(200);
    expect(head.headers['x-host']).toBe('kept');
    expect(head.headers['content-length']).toBe('1');
    await router.close();
  });

  test('invalid options fail at creation with every problem named', () => {
    expect(() => createRestRouter({ dbPath: '', maxBodySize: -1, bogus: 1 } as never)).toThrow(
      'xmldb-rest: invalid options: unknown option "bogus"; "dbPath" must be a non-empty string; "maxBodySize" must be a positive integer.',
    );
  });

  test('a queryTimeout past what Node timers hold (twice it bounds lock waits) is refused', () => {
    expect(() => createRestRouter({ queryTimeout: 1_000_000_001 })).toThrow('xmldb-rest: invalid options: "queryTimeout" must be at most 1000000000 (milliseconds).');
    expect(() => createRestRouter({ queryTimeout: 2.5 })).toThrow('xmldb-rest: invalid options: "queryTimeout" must be a positive integer.');
  });
});
