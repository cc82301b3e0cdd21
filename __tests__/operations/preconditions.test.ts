import request from 'supertest';
import { ADMIN, asBytes, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.put('/rest/db').expect(201);
});
afterAll(() => s.close());

const RAW = Buffer.from('0123456789abcdefghij');

describe('HEAD (RFC 9110 §9.3.2)', () => {
  beforeAll(async () => {
    await s.put('/rest/db/h.xml', '<h>head</h>').expect(201);
    await s.put('/rest/db/h.bin', RAW, 'application/octet-stream').expect(201);
  });

  test.each([
    ['a listing', '/rest'],
    ['a database listing', '/rest/db'],
    ['an XML resource', '/rest/db/h.xml'],
    ['a raw resource', '/rest/db/h.bin'],
    ['a query', '/rest?query=1%20to%203'],
    ['a command', '/rest?command=list'],
  ])('%s: the status and headers of GET, no body', async (_what, url) => {
    const get = await asBytes(s.get(url)).expect(200);
    const head = await request(s.app).head(url).auth(ADMIN.user, ADMIN.password).expect(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(String((get.body as Buffer).length));
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.text ?? '').toBe('');
  });

  test('errors as for GET, without a body', async () => {
    const r = await request(s.app).head('/rest/nodb').auth(ADMIN.user, ADMIN.password).expect(404);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toBeUndefined();
    await request(s.app).head('/rest/db').expect(401);
  });
});

describe('OPTIONS (RFC 9110 §9.3.7)', () => {
  test.each(['/rest', '/rest/db', '/rest/db/h.xml?query=1', '/rest/nodb/x'])('%s: 204 with Allow, no credentials needed', async (url) => {
    const r = await request(s.app).options(url).expect(204);
    expect(r.headers.allow).toBe('GET, HEAD, PUT, DELETE, POST, QUERY, OPTIONS');
    expect(r.text).toBe('');
  });
});

describe('validators and conditional GET (RFC 9110 §13)', () => {
  test('a resource has a strong ETag and Last-Modified; a listing has neither', async () => {
    await s.put('/rest/db/v.xml', '<v/>').expect(201);
    const r = await s.get('/rest/db/v.xml').expect(200);
    expect(r.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(new Date(r.headers['last-modified']).toUTCString()).toBe(r.headers['last-modified']);
    expect(Math.abs(Date.parse(r.headers['last-modified']) - Date.now())).toBeLessThan(60_000);
    const listing = await s.get('/rest/db').expect(200);
    expect(listing.headers.etag).toBeUndefined();
    expect(listing.headers['last-modified']).toBeUndefined();
  });

  test('the ETag changes on every write of the resource, and only then', async () => {
    const put = await s.put('/rest/db/e.xml', '<e>1</e>').expect(201);
    const first = (await s.get('/rest/db/e.xml')).headers.etag;
    expect(put.headers.etag).toBe(first);
    expect((await s.get('/rest/db/e.xml')).headers.etag).toBe(first);
    await s.put('/rest/db/other.xml', '<o/>').expect(201);
    await s.get('/rest/db?query=' + encodeURIComponent('doc("db/e.xml")')).expect(200);
    expect((await s.get('/rest/db/e.xml')).headers.etag).toBe(first);
    await s.put('/rest/db/e.xml', '<e>1</e>').expect(201); // same content, still a new write
    const second = (await s.get('/rest/db/e.xml')).headers.etag;
    expect(second).not.toBe(first);
    await s.get('/rest/db?query=' + encodeURIComponent('replace value of node doc("db/e.xml")/e with 2')).expect(200);
    expect((await s.get('/rest/db/e.xml')).headers.etag).not.toBe(second);
  });

  test('If-None-Match with the current tag (also weak, in a list, or *) → 304 without a body', async () => {
    await s.put('/rest/db/c.xml', '<c/>').expect(201);
    const { etag, 'last-modified': modified } = (await s.get('/rest/db/c.xml')).headers;
    for (const value of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
      const r = await s.get('/rest/db/c.xml').set('If-None-Match', value).expect(304);
      expect(r.text).toBe('');
      expect(r.headers.etag).toBe(etag);
      expect(r.headers['last-modified']).toBe(modified);
    }
    const r = await s.get('/rest/db/c.xml').set('If-None-Match', '"stale"').expect(200);
    expect(r.text).toBe('<c/>');
  });

  test('If-Modified-Since → 304 unless modified later; If-None-Match takes precedence', async () => {
    await s.put('/rest/db/m.xml', '<m/>').expect(201);
    const modified = (await s.get('/rest/db/m.xml')).headers['last-modified'];
    await s.get('/rest/db/m.xml').set('If-Modified-Since', modified).expect(304);
    await s.get('/rest/db/m.xml').set('If-Modified-Since', new Date(Date.now() + 3_600_000).toUTCString()).expect(304);
    await s.get('/rest/db/m.xml').set('If-Modified-Since', new Date(Date.now() - 3_600_000).toUTCString()).expect(200);
    await s.get('/rest/db/m.xml').set('If-Modified-Since', 'not a date').expect(200);
    await s.get('/rest/db/m.xml').set('If-Modified-Since', modified).set('If-None-Match', '"other"').expect(200);
  });
});

describe('preconditions on PUT and DELETE', () => {
  test('PUT with a stale If-Match → 412 and nothing changes; the current one stores', async () => {
    await s.put('/rest/db/p.xml', '<p>1</p>').expect(201);
    const etag = (await s.get('/rest/db/p.xml')).headers.etag;
    await s.put('/rest/db/p.xml', '<p>2</p>').expect(201);
    const r = await s.put('/rest/db/p.xml', '<p>3</p>').set('If-Match', etag).expect(412);
    expect(r.text).toBe('Precondition failed: resource "db/p.xml" has changed.');
    expect((await s.get('/rest/db/p.xml')).text).toBe('<p>2</p>');
    const current = (await s.get('/rest/db/p.xml')).headers.etag;
    await s.put('/rest/db/p.xml', '<p>4</p>').set('If-Match', current).expect(201);
    expect((await s.get('/rest/db/p.xml')).text).toBe('<p>4</p>');
    // a weak tag never matches If-Match (strong comparison)
    const now = (await s.get('/rest/db/p.xml')).headers.etag;
    await s.put('/rest/db/p.xml', '<p>5</p>').set('If-Match', `W/${now}`).expect(412);
  });

  test('If-Match on a missing resource → 412', async () => {
    const r = await s.put('/rest/db/none.xml', '<n/>').set('If-Match', '*').expect(412);
    expect(r.text).toBe('Precondition failed: resource "db/none.xml" does not exist.');
    await s.get('/rest/db/none.xml').expect(200).expect((res) => expect(res.text).not.toBe('<n/>'));
  });

  test('PUT with If-None-Match: * creates, but never replaces', async () => {
    await s.put('/rest/db/once.xml', '<a/>').set('If-None-Match', '*').expect(201);
    const r = await s.put('/rest/db/once.xml', '<b/>').set('If-None-Match', '*').expect(412);
    expect(r.text).toBe('Precondition failed: resource "db/once.xml" exists.');
    expect((await s.get('/rest/db/once.xml')).text).toBe('<a/>');
  });

  test('DELETE with a stale If-Match → 412 and the resource stays; the current one deletes', async () => {
    await s.put('/rest/db/d.xml', '<d/>').expect(201);
    const etag = (await s.get('/rest/db/d.xml')).headers.etag;
    await s.del('/rest/db/d.xml').set('If-Match', '"stale"').expect(412);
    expect((await s.get('/rest/db/d.xml')).text).toBe('<d/>');
    await s.del('/rest/db/d.xml').set('If-Match', etag).expect(200);
    expect((await s.get('/rest/db/d.xml')).text).not.toBe('<d/>');
  });
});
