/** A host application's first hour: health and OpenAPI beside the router, the admin password's file. */
import fs from 'node:fs';
import path from 'node:path';
import express4 from 'express4';
import express5 from 'express';
import request from 'supertest';
import { createOpsRouter, createRestRouter, openApiDocument } from '../../lib';
import { ADMIN_PASSWORD_FILE } from '../../lib/users/admin';
import { ADMIN, tempDir } from '../helpers/rest';
import '../helpers/fast-hashes';

describe.each([
  ['Express 5', () => express5()],
  ['Express 4', () => express4() as unknown as express5.Express],
])('%s host: createOpsRouter beside the REST router', (_name, makeApp) => {
  test('GET /healthz and /openapi.json without authentication; other paths go on to the host', async () => {
    const rest = createRestRouter({ dbPath: tempDir(), restPath: tempDir(), adminPassword: ADMIN.password, log: () => undefined, workers: 1 });
    const app = makeApp();
    app.use('/api/xml', rest);
    app.use(createOpsRouter(rest, { restUrl: '/api/xml' }));
    app.use((_req: express5.Request, res: express5.Response) => res.status(404).type('text/plain').send('host 404'));
    const health = await request(app).get('/healthz');
    expect(health.status).toBe(200);
    expect(health.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(health.headers['cache-control']).toBe('no-store');
    expect(health.text).toBe('{"status":"ok"}');
    const api = await request(app).get('/openapi.json');
    expect(api.status).toBe(200);
    expect(api.text).toBe(JSON.stringify(openApiDocument({ serverUrl: '/api/xml' })));
    const head = await request(app).head('/healthz');
    expect(head.status).toBe(200);
    expect(head.text).toBeUndefined();
    const other = await request(app).get('/elsewhere');
    expect([other.status, other.text]).toEqual([404, 'host 404']);
    // POST is not one of the endpoints': it reaches the host
    expect((await request(app).post('/healthz')).text).toBe('host 404');
    await rest.close();
    const down = await request(app).get('/healthz');
    expect([down.status, down.text]).toEqual([503, '{"status":"unavailable"}']);
  });
});

describe('the admin password', () => {
  const saved = process.env.XMLDB_ADMIN_PASSWORD;
  afterEach(() => {
    if (saved === undefined) delete process.env.XMLDB_ADMIN_PASSWORD;
    else process.env.XMLDB_ADMIN_PASSWORD = saved;
  });

  test('a generated password is in its file once ready() resolves, before any request', async () => {
    delete process.env.XMLDB_ADMIN_PASSWORD;
    const dbPath = path.join(tempDir(), 'data');
    const warnings: string[] = [];
    const rest = createRestRouter({ dbPath, restPath: tempDir(), workers: 1, log: (m) => warnings.push(m) });
    expect(fs.existsSync(dbPath)).toBe(false);
    await rest.ready();
    const file = path.join(dbPath, ADMIN_PASSWORD_FILE);
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(warnings).toEqual([
      `xmldb-rest: created user admin; its password is in ${file} (readable by this user only; set the adminPassword option or XMLDB_ADMIN_PASSWORD to choose it)`,
    ]);
    const password = fs.readFileSync(file, 'utf8').trim();
    const app = express5();
    app.use('/rest', rest);
    expect((await request(app).get('/rest').auth('admin', password)).status).toBe(200);
    await rest.close();
  });

  test('XMLDB_ADMIN_PASSWORD is used when the adminPassword option is absent; the option wins over it', async () => {
    process.env.XMLDB_ADMIN_PASSWORD = 'from-env';
    const fromEnv = tempDir();
    const a = createRestRouter({ dbPath: fromEnv, restPath: tempDir(), workers: 1, log: () => undefined });
    await a.ready();
    expect(fs.existsSync(path.join(fromEnv, ADMIN_PASSWORD_FILE))).toBe(false);
    const appA = express5();
    appA.use('/rest', a);
    expect((await request(appA).get('/rest').auth('admin', 'from-env')).status).toBe(200);
    await a.close();

    const fromOption = tempDir();
    const b = createRestRouter({ dbPath: fromOption, restPath: tempDir(), workers: 1, adminPassword: 'from-option', log: () => undefined });
    await b.ready();
    const appB = express5();
    appB.use('/rest', b);
    expect((await request(appB).get('/rest').auth('admin', 'from-option')).status).toBe(200);
    expect((await request(appB).get('/rest').auth('admin', 'from-env')).status).toBe(401);
    await b.close();
  });

  test.each([
    ['ALTER PASSWORD admin', (pw: string) => `ALTER PASSWORD admin ${pw}`],
    ['PASSWORD, run by admin', (pw: string) => `PASSWORD ${pw}`],
  ])('%s removes the generated password file, whose password nobody has any more', async (_name, command) => {
    delete process.env.XMLDB_ADMIN_PASSWORD;
    const dbPath = tempDir();
    const logs: string[] = [];
    const rest = createRestRouter({ dbPath, restPath: tempDir(), workers: 1, log: (m) => logs.push(m) });
    await rest.ready();
    const file = path.join(dbPath, ADMIN_PASSWORD_FILE);
    const password = fs.readFileSync(file, 'utf8').trim();
    const app = express5();
    app.use('/rest', rest);
    const changed = await request(app).get(`/rest?command=${encodeURIComponent(command('new-secret'))}`).auth('admin', password);
    expect(changed.status).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect(logs).toContain(`xmldb-rest: the password of admin changed; removed ${file}`);
    expect((await request(app).get('/rest').auth('admin', 'new-secret')).status).toBe(200);
    await rest.close();
  });

  test("another user's password change leaves the file", async () => {
    delete process.env.XMLDB_ADMIN_PASSWORD;
    const dbPath = tempDir();
    const rest = createRestRouter({ dbPath, restPath: tempDir(), workers: 1, log: () => undefined });
    await rest.ready();
    const file = path.join(dbPath, ADMIN_PASSWORD_FILE);
    const password = fs.readFileSync(file, 'utf8').trim();
    const app = express5();
    app.use('/rest', rest);
    const run = (c: string) => request(app).get(`/rest?command=${encodeURIComponent(c)}`).auth('admin', password);
    expect((await run('CREATE USER bob pw1')).status).toBe(200);
    expect((await run('ALTER PASSWORD bob pw2')).status).toBe(200);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${password}\n`);
    await rest.close();
  });
});
