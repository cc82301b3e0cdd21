import { asBytes, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
const RAW = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
beforeAll(async () => {
  s = await startTestServer();
  await s.put('/rest/db').expect(201);
  await s.put('/rest/db/r.bin', RAW, 'application/octet-stream').expect(201);
  await s.put('/rest/db/x.xml', '<x>text</x>').expect(201);
});
afterAll(() => s.close());

describe('byte ranges of raw resources (RFC 9110 §14)', () => {
  test('a raw resource accepts byte ranges; a whole GET is unchanged', async () => {
    const r = await asBytes(s.get('/rest/db/r.bin')).expect(200);
    expect(r.headers['accept-ranges']).toBe('bytes');
    expect(r.headers['content-length']).toBe('1000');
    expect(Buffer.compare(r.body as Buffer, RAW)).toBe(0);
  });

  test.each([
    ['bytes=10-19', 10, 19],
    ['bytes=990-', 990, 999],
    ['bytes=-5', 995, 999],
    ['bytes=-5000', 0, 999],
    ['bytes=995-2000', 995, 999],
    ['bytes=0-0', 0, 0],
  ])('%s → 206 with exactly those bytes', async (range, start, end) => {
    const r = await asBytes(s.get('/rest/db/r.bin').set('Range', range)).expect(206);
    expect(r.headers['content-range']).toBe(`bytes ${start}-${end}/1000`);
    expect(r.headers['content-length']).toBe(String(end - start + 1));
    expect(r.headers['content-type']).toBe((await s.get('/rest/db/r.bin')).headers['content-type']);
    expect(Buffer.compare(r.body as Buffer, RAW.subarray(start, end + 1))).toBe(0);
  });

  test.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])('%s → 416 with the length', async (range) => {
    const r = await s.get('/rest/db/r.bin').set('Range', range).expect(416);
    expect(r.headers['content-range']).toBe('bytes */1000');
    expect(r.text).toBe('Range not satisfiable: the resource has 1000 bytes.');
  });

  test('malformed ranges, several ranges and other units are ignored (200, whole body)', async () => {
    for (const range of ['bytes=5-1', 'bytes=a-b', 'bytes=0-1,5-6', 'lines=1-2', 'bytes=']) {
      const r = await asBytes(s.get('/rest/db/r.bin').set('Range', range)).expect(200);
      expect((r.body as Buffer).length).toBe(1000);
    }
  });

  test('If-Range with the current tag serves the range, with another one the whole resource', async () => {
    const etag = (await s.get('/rest/db/r.bin')).headers.etag;
    await s.get('/rest/db/r.bin').set('Range', 'bytes=0-9').set('If-Range', etag).expect(206);
    const whole = await asBytes(s.get('/rest/db/r.bin').set('Range', 'bytes=0-9').set('If-Range', '"old"')).expect(200);
    expect((whole.body as Buffer).length).toBe(1000);
  });

  test('XML resources do not serve ranges', async () => {
    const r = await s.get('/rest/db/x.xml').set('Range', 'bytes=0-1').expect(200);
    expect(r.text).toBe('<x>text</x>');
    expect(r.headers['accept-ranges']).toBeUndefined();
  });
});

describe('paging of query results (Range: items=START-END)', () => {
  const q = encodeURIComponent('(1 to 100) ! <i>{.}</i>');

  test('no header: the whole result, 200, no Content-Range', async () => {
    const r = await s.get(`/rest?query=${q}`).expect(200);
    expect(r.headers['content-range']).toBeUndefined();
    expect(r.text.split('\n')).toHaveLength(100);
  });

  test('GET ?query= → 206 with exactly those items, separated as unpaged', async () => {
    const r = await s.get(`/rest?query=${q}`).set('Range', 'items=10-12').expect(206);
    expect(r.headers['content-range']).toBe('items 10-12/100');
    expect(r.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(r.text).toBe('<i>11</i>\n<i>12</i>\n<i>13</i>');
  });

  test('serialization parameters and the item separator apply as unpaged', async () => {
    const r = await s.get(`/rest?query=${encodeURIComponent('1 to 10')}&method=text&item-separator=,`).set('Range', 'items=2-4').expect(206);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toBe('3,4,5');
    const json = await s.get(`/rest?query=${encodeURIComponent('(map{"a":1}, map{"b":2})')}&method=json`).set('Range', 'items=1-1').expect(206);
    expect(json.text).toBe('{"b":2}');
  });

  test('a range past the end is clipped; one starting past the end is 416', async () => {
    const r = await s.get(`/rest?query=${q}`).set('Range', 'items=95-200').expect(206);
    expect(r.headers['content-range']).toBe('items 95-99/100');
    expect(r.text.split('\n')).toStrictEqual(['<i>96</i>', '<i>97</i>', '<i>98</i>', '<i>99</i>', '<i>100</i>']);
    const beyond = await s.get(`/rest?query=${q}`).set('Range', 'items=100-110').expect(416);
    expect(beyond.headers['content-range']).toBe('items */100');
    expect(beyond.text).toBe('Range not satisfiable: the result has 100 items.');
    const empty = await s.get(`/rest?query=${encodeURIComponent('()')}`).set('Range', 'items=0-9').expect(416);
    expect(empty.headers['content-range']).toBe('items */0');
  });

  test('the QUERY method and POST <query> page the same way', async () => {
    const viaQuery = await s.query('/rest', '(1 to 100) ! <i>{.}</i>').set('Range', 'items=0-1').expect(206);
    expect(viaQuery.headers['content-range']).toBe('items 0-1/100');
    expect(viaQuery.text).toBe('<i>1</i>\n<i>2</i>');
    const viaPost = await s.post('/rest', '<query><text>(1 to 100) ! &lt;i&gt;{.}&lt;/i&gt;</text></query>').set('Range', 'items=99-99').expect(206);
    expect(viaPost.headers['content-range']).toBe('items 99-99/100');
    expect(viaPost.text).toBe('<i>100</i>');
  });

  test('a database context and a compiled (non-XPath) query page too', async () => {
    const r = await s.get(`/rest/db?query=${encodeURIComponent('declare function local:f($n) { $n * 2 }; (1 to 5) ! local:f(.)')}`).set('Range', 'items=3-').expect(206);
    expect(r.headers['content-range']).toBe('items 3-4/5');
    expect(r.text).toBe('8\n10');
  });

  test('only the requested items are serialized: an item that cannot be serialized outside the page is no error', async () => {
    const query = encodeURIComponent('(1, 2, function($x) { $x })');
    await s.get(`/rest?query=${query}&method=xml`).expect(500);
    const r = await s.get(`/rest?query=${query}&method=xml`).set('Range', 'items=0-1').expect(206);
    expect(r.text).toBe('1 2');
  });

  test('an updating query whose page cannot be served changes nothing', async () => {
    await s.put('/rest/db/u.xml', '<u>0</u>').expect(201);
    const update = encodeURIComponent('replace value of node doc("db/u.xml")/u with 1');
    await s.get(`/rest/db?query=${update}`).set('Range', 'items=0-0').expect(416);
    expect((await s.get('/rest/db/u.xml')).text).toBe('<u>0</u>');
  });

  test('byte ranges do not apply to query results, item ranges not to resources', async () => {
    const r = await s.get(`/rest?query=${encodeURIComponent('1 to 3')}`).set('Range', 'bytes=0-0').expect(200);
    expect(r.text).toBe('1\n2\n3');
    const x = await s.get('/rest/db/x.xml').set('Range', 'items=0-0').expect(200);
    expect(x.text).toBe('<x>text</x>');
  });
});
