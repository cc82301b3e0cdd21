/**
 * A host app with a global `express.json()` in front of the router: `rawBodySaver` keeps bodies
 * as sent (and compiles in strict TypeScript, as this file does), the parser's refusals reach
 * `rest.errorHandler` and answer as the router's errors do, and a JSON POST is told the XML format.
 */
import express4 from 'express4';
import express5 from 'express';
import request from 'supertest';
import { createRestRouter, rawBodySaver, type RestRouter } from '../../lib';
import { ADMIN, tempDir } from '../helpers/rest';

const POST_JSON =
  'The POST body is JSON; it must be XML: <query><text>1+1</text></query>, with optional <variable name="n" value="1"/>, <context>, <parameter name="method" value="json"/> and <option> children; or <command><text>LIST</text></command>, <commands>, <run><text>file.xq</text></run>. To send a query as plain text, use the QUERY method.';

/** A host app of one Express version: global JSON and text parsers, the router, an HTML error page. */
function hostOf(lib: typeof express5): (rest: RestRouter) => express5.Express {
  return (rest) => {
    const app = lib();
    app.use(lib.json({ verify: rawBodySaver }));
    app.use(lib.text({ verify: rawBodySaver }));
    app.use('/rest', rest, rest.errorHandler);
    app.use((err: Error, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => {
      res.status(500).type('text/html').send(`<h1>host: ${err.message}</h1>`);
    });
    return app;
  };
}

describe.each([
  ['Express 5', hostOf(express5)],
  ['Express 4', hostOf(express4 as unknown as typeof express5)],
])('%s, express.json({ verify: rawBodySaver }) in front of the router', (_name, makeHost) => {
  let rest: RestRouter;
  let app: express5.Express;
  beforeAll(async () => {
    rest = createRestRouter({ dbPath: tempDir(), restPath: tempDir(), adminPassword: ADMIN.password, log: () => undefined, workers: 1 });
    app = makeHost(rest);
    await rest.ready();
  });
  afterAll(() => rest.close());
  const as = (t: request.Test) => t.auth(ADMIN.user, ADMIN.password);

  test('a JSON resource is stored as sent, numbers and key order kept', async () => {
    await as(request(app).put('/rest/db')).expect(201);
    await as(request(app).put('/rest/db/a.json')).set('Content-Type', 'application/json').send('{"b":1.50,"a":[true]}').expect(201);
    const got = await as(request(app).get('/rest/db/a.json')).expect(200);
    expect(got.text).toBe('<json type="object"><b type="number">1.50</b><a type="array"><_ type="boolean">true</_></a></json>');
  });

  test('malformed JSON: the parser status and a text body, not the host HTML page', async () => {
    const r = await as(request(app).put('/rest/db/b.json')).set('Content-Type', 'application/json').send('{"a":');
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.text).toMatch(/^The request body was refused by a body parser of the host application: the body is not valid JSON \(.+\)\.$/);
  });

  test('malformed JSON, problem details preferred: RFC 9457 JSON', async () => {
    const r = await as(request(app).post('/rest')).set('Content-Type', 'application/json').set('Accept', 'application/problem+json').send('{oops');
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('application/problem+json');
    expect(r.body).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400 });
    expect(r.body.detail).toMatch(/^The request body was refused by a body parser of the host application: the body is not valid JSON/);
  });

  test('a body too large for the parser keeps its 413', async () => {
    const r = await as(request(app).put('/rest/db/c.json')).set('Content-Type', 'application/json').send(`{"a":"${'x'.repeat(200 * 1024)}"}`);
    expect(r.status).toBe(413);
    expect(r.text).toBe('The request body was refused by a body parser of the host application: request entity too large.');
  });

  test('POST {"query":"1+1"} is told the XML body format', async () => {
    const r = await as(request(app).post('/rest')).set('Content-Type', 'application/json').send('{"query":"1+1"}');
    expect([r.status, r.text]).toEqual([400, POST_JSON]);
    const ok = await as(request(app).post('/rest')).set('Content-Type', 'application/xml').send('<query><text>1+1</text></query>');
    expect([ok.status, ok.text]).toEqual([200, '2']);
  });

  test("errors that are not a body parser's go on to the host", async () => {
    const other = express5();
    other.use('/rest', (_req: express5.Request, _res: express5.Response, next: express5.NextFunction) => next(new Error('session store down')), rest, rest.errorHandler);
    other.use((err: Error, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => {
      res.status(503).type('text/plain').send(`host: ${err.message}`);
    });
    const r = await as(request(other).get('/rest'));
    expect([r.status, r.text]).toEqual([503, 'host: session store down']);
  });
});

test('without rest.errorHandler, a JSON POST without rawBodySaver is refused with the fix in the message', async () => {
  const rest = createRestRouter({ dbPath: tempDir(), restPath: tempDir(), adminPassword: ADMIN.password, log: () => undefined, workers: 1 });
  const app = express5();
  app.use(express5.json());
  app.use('/rest', rest);
  const r = await request(app).post('/rest').auth(ADMIN.user, ADMIN.password).set('Content-Type', 'application/json').send('{"query":"1+1"}');
  expect(r.status).toBe(415);
  expect(r.text).toBe(
    "The request body was read by a body parser of the host application (a body parser turned it into an object). Mount the REST router before body parsers, or keep the raw body with the parser's verify hook: express.json({ verify: rawBodySaver }), rawBodySaver exported by xmldb-rest.",
  );
  await rest.close();
});
