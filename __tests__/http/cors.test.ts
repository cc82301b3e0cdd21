/**
 * A front end on another origin (a dev server on another port): the `cors` package with
 * `corsOptions(origins)` in front of the router, the same origins in `trustedOrigins`, and what
 * a browser sends: a preflight for QUERY and PUT, then the requests with their `Origin`.
 */
import cors from 'cors';
import express4 from 'express4';
import express5 from 'express';
import request from 'supertest';
import { corsOptions, createRestRouter, type RestRouter } from '../../lib';
import { ADMIN, queryRequest, tempDir } from '../helpers/rest';

const UI = 'http://localhost:5173';
const OTHER = 'http://localhost:3000';

describe.each([
  ['Express 5', () => express5()],
  ['Express 4', () => express4() as unknown as express5.Express],
])('%s: cors(corsOptions([UI])) in front of the router', (_name, makeApp) => {
  let rest: RestRouter;
  let app: express5.Express;
  beforeAll(async () => {
    rest = createRestRouter({ dbPath: tempDir(), restPath: tempDir(), adminPassword: ADMIN.password, trustedOrigins: [UI], log: () => undefined, workers: 1 });
    app = makeApp();
    app.use('/rest', cors(corsOptions([UI])), rest);
    await rest.ready();
  });
  afterAll(() => rest.close());

  test('a preflight for QUERY with credentials and a Range header is allowed', async () => {
    const r = await request(app)
      .options('/rest/db')
      .set('Origin', UI)
      .set('Access-Control-Request-Method', 'QUERY')
      .set('Access-Control-Request-Headers', 'authorization,content-type,range');
    expect(r.status).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe(UI);
    expect(r.headers['access-control-allow-credentials']).toBe('true');
    expect(r.headers['access-control-allow-methods']).toBe('GET,HEAD,PUT,DELETE,POST,QUERY,OPTIONS');
    expect(r.headers['access-control-allow-headers']).toBe('Authorization,Content-Type,Accept,Range,If-Match,If-None-Match,If-Modified-Since,If-Range');
    expect(r.headers['access-control-max-age']).toBe('600');
    expect(r.headers.vary).toMatch(/Origin/);
  });

  test('PUT and QUERY from the UI origin run, and the headers a script reads are exposed', async () => {
    const put = await request(app).put('/rest/db').auth(ADMIN.user, ADMIN.password).set('Origin', UI).set('Content-Type', 'application/xml').send('<a><b>1</b><b>2</b></a>');
    expect(put.status).toBe(201);
    expect(put.headers['access-control-allow-origin']).toBe(UI);
    expect(put.headers['access-control-expose-headers']).toBe('ETag,Last-Modified,Content-Range,Accept-Ranges,Retry-After,WWW-Authenticate');
    const q = await queryRequest(app, '/rest/db').auth(ADMIN.user, ADMIN.password).set('Origin', UI).set('Content-Type', 'text/plain').set('Range', 'items=0-0').send('//b/string()');
    expect(q.status).toBe(206);
    expect(q.headers['access-control-allow-origin']).toBe(UI);
    expect(q.headers['content-range']).toBe('items 0-0/2');
    expect(q.text).toBe('1');
  });

  test('another origin gets no CORS headers, and its PUT is refused naming trustedOrigins', async () => {
    const pre = await request(app).options('/rest/db').set('Origin', OTHER).set('Access-Control-Request-Method', 'PUT');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const put = await request(app).put('/rest/db/x.xml').auth(ADMIN.user, ADMIN.password).set('Origin', OTHER).set('Content-Type', 'application/xml').send('<x/>');
    expect(put.status).toBe(403);
    expect(put.text).toBe("Cross-site request refused: PUT. A page of another origin may send it only if the router's trustedOrigins option lists that origin.");
  });
});
