import { asBytes, getQuery, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
  await s.put('/rest/db').expect(201);
});
afterEach(() => s.close());

describe('GET of one resource (spec §5)', () => {
  test('XML is serialized without declaration or doctype, whitespace as stored', async () => {
    await s.put('/rest/db/a.xml', '<?xml version="1.0"?>\n<!DOCTYPE a>\n<a>\n  <b>x</b>\n</a>', 'application/xml').expect(201);
    const r = await s.get('/rest/db/a.xml').expect(200);
    expect(r.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(r.text).toBe('<a>\n  <b>x</b>\n</a>');
  });

  test('serialization parameters do not change a stored document', async () => {
    await s.put('/rest/db/a.xml', '<a><b/></a>', 'application/xml').expect(201);
    const r = await s.get('/rest/db/a.xml?indent=yes&omit-xml-declaration=no').expect(200);
    expect(r.text).toBe('<a><b/></a>');
  });

  test('binary bytes come back unchanged with the media type of the suffix', async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 10, 13]);
    await s.put('/rest/db/img/x.png', bytes, 'image/png').expect(201);
    const r = await asBytes(s.get('/rest/db/img/x.png')).expect(200);
    expect(r.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(r.body as Buffer, bytes)).toBe(0);
  });

  test('text stays binary: bytes unchanged, text/plain', async () => {
    await s.put('/rest/db/notes.txt', 'line 1\r\nline 2', 'text/plain').expect(201);
    const r = await s.get('/rest/db/notes.txt').expect(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toBe('line 1\r\nline 2');
  });

  test('no or unknown suffix is application/octet-stream', async () => {
    await s.put('/rest/db/blob', Buffer.from('abc'), 'application/octet-stream').expect(201);
    const r = await s.get('/rest/db/blob').expect(200);
    expect(r.headers['content-type']).toBe('application/octet-stream');
  });
});

describe('GET answers the version the request sees (resources are kept in memory by version)', () => {
  const command = (c: string) => s.get(`/rest?command=${encodeURIComponent(c)}`).expect(200);

  test('after a write, a replace, a delete, a rename and a restore', async () => {
    await s.put('/rest/db/a.xml', '<a>1</a>', 'application/xml').expect(201);
    expect((await s.get('/rest/db/a.xml').expect(200)).text).toBe('<a>1</a>');
    expect((await s.get('/rest/db/a.xml').expect(200)).text).toBe('<a>1</a>');
    await command('CREATE BACKUP db');
    await s.put('/rest/db/a.xml', '<a>2</a>', 'application/xml').expect(201);
    expect((await s.get('/rest/db/a.xml').expect(200)).text).toBe('<a>2</a>');
    await s.get(`/rest/db?query=${encodeURIComponent('replace value of node /a with 3')}`).expect(200);
    expect((await s.get('/rest/db/a.xml').expect(200)).text).toBe('<a>3</a>');
    await command('RESTORE db');
    expect((await s.get('/rest/db/a.xml').expect(200)).text).toBe('<a>1</a>');
    await s.put('/rest/db/b.txt', 'one', 'text/plain').expect(201);
    expect((await s.get('/rest/db/b.txt').expect(200)).text).toBe('one');
    await s.get(`/rest/db?command=${encodeURIComponent('RENAME b.txt c.txt')}`).expect(200);
    // no resource at the path: its (empty) listing
    expect((await s.get('/rest/db/b.txt').expect(200)).text).toBe('<database xmlns="http://basex.org/rest" name="db"/>');
    expect((await s.get('/rest/db/c.txt').expect(200)).text).toBe('one');
    await s.put('/rest/db/b.txt', 'two', 'text/plain').expect(201);
    expect((await s.get('/rest/db/b.txt').expect(200)).text).toBe('two');
    await s.del('/rest/db/a.xml').expect(200);
    expect((await s.get('/rest/db/a.xml').expect(200)).text).toBe('<database xmlns="http://basex.org/rest" name="db"/>');
    await command('DROP DB db');
    await s.put('/rest/db').expect(201);
    await s.put('/rest/db/a.xml', '<a>new</a>', 'application/xml').expect(201);
    expect((await s.get('/rest/db/a.xml').expect(200)).text).toBe('<a>new</a>');
  });
});

describe('value resources (db:put-value)', () => {
  test('GET answers the serialized value, as a query of db:get-value would', async () => {
    await s.put('/rest/vals').expect(201);
    await getQuery(s, "db:put-value('vals', map { 'a': (1, 'x') }, 'm'), db:put-value('vals', (42, <x/>), 'dir/n')").expect(200);
    const m = await s.get('/rest/vals/m').expect(200);
    expect(m.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(m.text).toBe('map{"a":(1,"x")}');
    expect((await s.get('/rest/vals/dir/n').expect(200)).text).toBe('42\n<x/>');
    expect((await s.get('/rest/vals/dir/n?method=json').expect(500)).text).toMatch(/^\[SERE0023\] /);
    expect((await s.get('/rest/vals/dir/n?method=text&item-separator=,').expect(200)).text).toBe('42,');
  });
});
