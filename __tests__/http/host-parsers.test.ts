/**
 * Host applications with body parsers mounted in front of the router (body.ts): what a parser
 * kept exactly (text, raw bytes, `req.rawBody`) is stored as sent; a parsed object is refused
 * with 415 and a message for the host's developer. Never is something stored that was not sent.
 */
import express4 from 'express4';
import express5 from 'express';
import request from 'supertest';
import { createRestRouter, type RestRouter } from '../../lib';
import { ADMIN, asBytes, tempDir } from '../helpers/rest';

type Parsers = { json: (o?: object) => unknown; text: (o?: object) => unknown; raw: (o?: object) => unknown; urlencoded: (o?: object) => unknown };
type AnyApp = { use: (...args: unknown[]) => unknown };

const REFUSED =
  "The request body was read by a body parser of the host application (a body parser turned it into an object). Mount the REST router before body parsers, or keep the raw body with the parser's verify hook: express.json({ verify: rawBodySaver }), rawBodySaver exported by xmldb-rest.";

const VERSIONS: ReadonlyArray<[string, () => AnyApp, Parsers]> = [
  ['Express 4', () => express4() as unknown as AnyApp, express4 as unknown as Parsers],
  ['Express 5', () => express5() as unknown as AnyApp, express5 as unknown as Parsers],
];

describe.each(VERSIONS)('%s with json, text, raw and urlencoded parsers in front', (_name, makeApp, parsers) => {
  let app: AnyApp;
  let router: RestRouter;
  beforeAll(async () => {
    app = makeApp();
    app.use(parsers.json());
    app.use(parsers.text());
    app.use(parsers.raw());
    app.use(parsers.urlencoded({ extended: false }));
    router = createRestRouter({ dbPath: tempDir(), restPath: tempDir(), adminPassword: ADMIN.password, log: () => undefined });
    app.use('/rest', router);
    await router.ready();
    await as(request(app as never).put('/rest/db')).expect(201);
  });
  afterAll(() => router.close());
  const as = (t: request.Test) => t.auth(ADMIN.user, ADMIN.password);
  const put = (path: string, type: string, body: string | Buffer) => as(request(app as never).put(`/rest/db/${path}`)).set('Content-Type', type).send(body);
  const get = async (path: string) => (await asBytes(as(request(app as never).get(`/rest/db/${path}`))).expect(200)).body as Buffer;

  test('PUT of text (text parser) stores the exact text, in its charset too', async () => {
    await put('t.txt', 'text/plain', 'plain text: é').expect(201);
    expect((await get('t.txt')).toString('utf8')).toBe('plain text: é');
    await put('l.txt', 'text/plain; charset=iso-8859-1', Buffer.from('caf\xe9', 'latin1')).expect(201);
    expect(await get('l.txt')).toEqual(Buffer.from('caf\xe9', 'latin1'));
  });

  test('PUT of raw bytes (raw parser) stores them byte for byte', async () => {
    const bin = Buffer.from([0, 1, 2, 255, 254]);
    await put('b.bin', 'application/octet-stream', bin).expect(201);
    expect(await get('b.bin')).toEqual(bin);
  });

  test('PUT of XML, CSV and HTML (no parser of theirs) is converted as without a host', async () => {
    await put('x.xml', 'application/xml', '<x a="1">é</x>').expect(201);
    expect((await get('x.xml')).toString()).toBe('<x a="1">é</x>');
    await put('c.csv', 'text/csv', 'a,b\n1,2\n').expect(201);
    expect((await get('c.csv')).toString()).toBe('<csv><record><entry>a</entry><entry>b</entry></record><record><entry>1</entry><entry>2</entry></record></csv>');
    await put('h.html', 'text/html', '<p>hi</p>').expect(201);
    expect((await get('h.html')).toString()).toMatch(/<p>hi<\/p>/);
  });

  test('PUT of JSON or a form (parsed into objects) is refused with 415 and stores nothing', async () => {
    const json = await put('j.json', 'application/json', '{"n":12345678901234567890}').expect(415);
    expect(json.text).toBe(REFUSED);
    const form = await put('f.txt', 'application/x-www-form-urlencoded', 'a=1&b=2').expect(415);
    expect(form.text).toBe(REFUSED);
    const exists = await as(request(app as never).get(`/rest?query=${encodeURIComponent("db:exists('db', 'j.json'), db:exists('db', 'f.txt')")}`)).expect(200);
    expect(exists.text).toBe('false\nfalse');
  });

  test('every POST form, as XML and as text, and the QUERY method', async () => {
    const post = (body: string, type: string) => as(request(app as never).post('/rest')).set('Content-Type', type).send(body);
    for (const type of ['application/xml', 'text/plain']) {
      expect((await post('<query><text>1 + 1</text></query>', type).expect(200)).text).toBe('2');
      expect((await post('<command><text>XQUERY 2 + 2</text></command>', type).expect(200)).text).toBe('4');
      expect((await post('<commands><xquery>3 + 3</xquery></commands>', type).expect(200)).text).toBe('6');
      expect((await post('<run><text>missing.xq</text></run>', type).expect(404)).text).toBe('Resource "missing.xq" not found.');
    }
    const query = new request.Test(app as never, 'QUERY', '/rest');
    expect((await as(query).set('Content-Type', 'text/plain').send('5 * 5').expect(200)).text).toBe('25');
  });
});

describe('a host that keeps the raw body (verify hook)', () => {
  test.each(VERSIONS)('%s: JSON numbers and forms are stored exactly as sent', async (_name, makeApp, parsers) => {
    const app = makeApp();
    const keep = (req: { rawBody?: Buffer }, _res: unknown, buf: Buffer) => {
      req.rawBody = buf;
    };
    app.use(parsers.json({ verify: keep }));
    app.use(parsers.urlencoded({ extended: false, verify: keep }));
    const router = createRestRouter({ dbPath: tempDir(), restPath: tempDir(), adminPassword: ADMIN.password, log: () => undefined });
    app.use('/rest', router);
    const as = (t: request.Test) => t.auth(ADMIN.user, ADMIN.password);
    await as(request(app as never).put('/rest/db')).expect(201);
    await as(request(app as never).put('/rest/db/j.json')).set('Content-Type', 'application/json').send('{"n":12345678901234567890}').expect(201);
    expect((await as(request(app as never).get('/rest/db/j.json')).expect(200)).text).toBe('<json type="object"><n type="number">12345678901234567890</n></json>');
    await as(request(app as never).put('/rest/db/f.bin')).set('Content-Type', 'application/x-www-form-urlencoded').send('a=1&b=2').expect(201);
    expect((await asBytes(as(request(app as never).get('/rest/db/f.bin'))).expect(200)).body.toString()).toBe('a=1&b=2');
    await router.close();
  });
});
