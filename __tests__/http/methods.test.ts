import request from 'supertest';
import { ADMIN, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer({ maxBodySize: 1024 });
});
afterEach(() => s.close());

describe('methods and parameters', () => {
  test.each(['patch', 'trace'] as const)('%s is 501', async (m) => {
    const r = await request(s.app)[m]('/rest').auth(ADMIN.user, ADMIN.password).expect(501);
    expect(r.text).toBe(`Method not supported: ${m.toUpperCase()}.`);
  });

  test('two operations are 400', async () => {
    const r = await s.get('/rest?query=1&command=list').expect(400);
    expect(r.text).toBe('Multiple operations supplied: query, command.');
    await s.get('/rest?query=1&query=2').expect(400);
  });

  test('an invalid serialization value is 400', async () => {
    await s.get('/rest?method=xxx').expect(400);
    await s.get('/rest?indent=maybe').expect(400);
  });

  test('a body over the limit is 413 and stores nothing', async () => {
    await s.put('/rest/db').expect(201);
    const r = await s.put('/rest/db/big.xml', `<a>${'x'.repeat(2000)}</a>`).expect(413);
    expect(r.text).toBe('Request body too large: at most 1024 bytes are accepted; the router option maxBodySize raises the limit (standalone server: --max-body-size or XMLDB_MAX_BODY_SIZE, in MiB).');
    expect((await s.get('/rest/db').expect(200)).text).not.toContain('big.xml');
  });
});

describe('POST bodies (spec §7)', () => {
  test('not well-formed is 400', async () => {
    const r = await s.post('/rest', '<query><text>1</text>').expect(400);
    expect(r.text).toMatch(/^The POST body is not well-formed XML: /);
  });

  test('empty is 400', async () => {
    await s.post('/rest', '').expect(400);
  });

  test('an unknown root is 400', async () => {
    expect((await s.post('/rest', '<select/>').expect(400)).text).toBe('Invalid POST command: select');
  });

  test('an unknown serialization parameter is 400', async () => {
    const r = await s.post('/rest', '<query><text>1</text><parameter name="nope" value="1"/></query>').expect(400);
    expect(r.text).toBe('Unknown parameter: nope.');
  });

  test('two context elements are 400', async () => {
    const r = await s.post('/rest', '<query><text>.</text><context><a/><b/></context></query>').expect(400);
    expect(r.text).toBe('Multiple contexts supplied.');
  });

  test('an unknown database in the URL is 404', async () => {
    await s.post('/rest/nodb', '<query><text>1</text></query>').expect(404);
  });
});
