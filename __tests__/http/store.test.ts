import { asBytes, NS, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

const listing = async (url = '/rest/db') => (await s.get(url).expect(200)).text;

describe('PUT of a whole database (spec §8.2)', () => {
  test('empty body creates an empty database', async () => {
    const r = await s.put('/rest/db').expect(201);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toMatch(/^Database 'db' created in [\d.]+ ms\.$/);
    expect(await listing()).toBe(`<database xmlns="${NS}" name="db"/>`);
  });

  test.each([
    ['application/xml', '<r/>', 'db.xml', 'xml'],
    ['application/json', '{"a":1}', 'db.json', 'xml'],
    ['text/csv', 'a,b', 'db.csv', 'xml'],
    ['text/html', '<p>x', 'db.html', 'xml'],
  ])('%s body becomes %s', async (type, body, name) => {
    await s.put('/rest/db', body, type).expect(201);
    expect(await listing()).toMatch(new RegExp(`<resource type="xml" content-type="application/xml" size="\\d+">${name.replace('.', '\\.')}</resource>`));
  });

  test('a binary body becomes a resource named like the database', async () => {
    await s.put('/rest/db', Buffer.from('raw'), 'application/octet-stream').expect(201);
    expect(await listing()).toBe(
      `<database xmlns="${NS}" name="db"><resource type="binary" content-type="application/octet-stream" size="3">db</resource></database>`,
    );
  });

  test('an existing database is replaced', async () => {
    await s.put('/rest/db', '<old/>', 'application/xml').expect(201);
    await s.put('/rest/db/extra.xml', '<e/>', 'application/xml').expect(201);
    await s.put('/rest/db', '<new/>').expect(201);
    expect((await s.get('/rest/db/db.xml').expect(200)).text).toBe('<new/>');
    await s.get('/rest/db').expect(200).then((r) => expect(r.text).not.toContain('extra.xml'));
  });

  test('an invalid database name is 400', async () => {
    const r = await s.put('/rest/.hidden').expect(400);
    expect(r.text).toContain('.hidden');
  });

  test('no database is 404', async () => {
    const r = await s.put('/rest', '<a/>').expect(404);
    expect(r.text).toBe('No database specified.');
  });
});

describe('PUT of a resource (spec §8.1, §8.3, §14)', () => {
  beforeEach(() => s.put('/rest/db').expect(201));

  test('into an unknown database is 404', async () => {
    const r = await s.put('/rest/nodb/a.xml', '<a/>').expect(404);
    expect(r.text).toBe("Database 'nodb' was not found.");
  });

  test('without a content type the body is parsed as XML', async () => {
    await s.put('/rest/db/a', '<a/>').expect(201);
    expect((await s.get('/rest/db/a')).text).toBe('<a/>');
  });

  test.each(['text/xml', 'application/atom+xml', 'application/xml-external-parsed-entity', '*/*'])('%s is XML', async (type) => {
    await s.put('/rest/db/a.xml', '<a>1</a>', type).expect(201);
    expect(await listing()).toContain('<resource type="xml" content-type="application/xml" size="3">a.xml</resource>');
  });

  test('JSON is converted to the direct format', async () => {
    await s.put('/rest/db/doc.json', '{"name":"Ann","age":30}', 'application/json').expect(201);
    expect((await s.get('/rest/db/doc.json')).text).toBe('<json type="object"><name>Ann</name><age type="number">30</age></json>');
    expect(await listing()).toContain('<resource type="xml" content-type="application/xml" size="8">doc.json</resource>');
  });

  test('CSV with header=true uses the first line for names', async () => {
    await s.put('/rest/db/t.csv', 'name,age\n"Smith, J",41\n', 'text/csv; header=true').expect(201);
    expect((await s.get('/rest/db/t.csv')).text).toBe('<csv><record><name>Smith, J</name><age>41</age></record></csv>');
  });

  test('HTML is parsed leniently into well-formed XML', async () => {
    await s.put('/rest/db/p.html', '<p>one<br>two', 'text/html').expect(201);
    const text = (await s.get('/rest/db/p.html')).text;
    expect(text).toMatch(/^<html>.*<body><p>one<br\/>two<\/p><\/body><\/html>$/);
  });

  test('an existing resource is replaced', async () => {
    await s.put('/rest/db/a.xml', '<a>1</a>').expect(201);
    await s.put('/rest/db/a.xml', '<a>2</a>').expect(201);
    expect((await s.get('/rest/db/a.xml')).text).toBe('<a>2</a>');
  });

  test('replace=false keeps an existing XML resource and an existing binary', async () => {
    await s.put('/rest/db/a.xml', '<a>1</a>').expect(201);
    await s.put('/rest/db/a.xml?replace=false', '<a>2</a>').expect(201);
    expect((await s.get('/rest/db/a.xml')).text).toBe('<a>1</a>');
    await s.put('/rest/db/b.bin', Buffer.from('one'), 'application/octet-stream').expect(201);
    await s.put('/rest/db/b.bin?REPLACE=false', Buffer.from('two'), 'application/octet-stream').expect(201);
    expect(((await asBytes(s.get('/rest/db/b.bin'))).body as Buffer).toString()).toBe('one');
    await s.put('/rest/db/new.xml?replace=false', '<n/>').expect(201);
    expect((await s.get('/rest/db/new.xml')).text).toBe('<n/>');
  });

  test('XML onto a binary resource replaces the bytes; it stays binary', async () => {
    await s.put('/rest/db/x', Buffer.from('raw'), 'application/octet-stream').expect(201);
    await s.put('/rest/db/x', '<a/>', 'application/xml').expect(201);
    expect(await listing()).toContain('<resource type="binary" content-type="application/octet-stream" size="4">x</resource>');
    expect(((await asBytes(s.get('/rest/db/x'))).body as Buffer).toString()).toBe('<a/>');
  });

  test('stripws=true drops whitespace-only text; default keeps it; chop is an alias', async () => {
    const xml = '<a>\n <b>x</b>\n</a>';
    await s.put('/rest/db/keep.xml', xml).expect(201);
    await s.put('/rest/db/strip.xml?stripws=true', xml).expect(201);
    await s.put('/rest/db/chop.xml?chop=true', xml).expect(201);
    expect((await s.get('/rest/db/keep.xml')).text).toBe(xml);
    expect((await s.get('/rest/db/strip.xml')).text).toBe('<a><b>x</b></a>');
    expect((await s.get('/rest/db/chop.xml')).text).toBe('<a><b>x</b></a>');
  });

  test('stripns=true removes namespaces', async () => {
    await s.put('/rest/db/n.xml?stripns=true', '<p:a xmlns:p="urn:x"><p:b/></p:a>').expect(201);
    expect((await s.get('/rest/db/n.xml')).text).toBe('<a><b/></a>');
  });

  test.each([
    ['application/xml', '<a><b></a>'],
    ['application/json', '{"a":'],
    ['text/csv', '"unterminated'],
    [undefined, 'not xml at all'],
  ])('malformed %s body is 400 and stores nothing', async (type, body) => {
    const r = await s.put('/rest/db/bad', body, type).expect(400);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text.length).toBeGreaterThan(0);
    expect(await listing()).toBe(`<database xmlns="${NS}" name="db"/>`);
  });

  test('an invalid path is 400', async () => {
    await s.put('/rest/db/a./b.xml', '<a/>').expect(400);
    await s.put('/rest/db/x/..%2F..%2F..%2Fescape.xml', '<a/>').expect(400);
  });

  test('unknown query parameters are 400', async () => {
    const r = await s.put('/rest/db/a.xml?method=xml', '<a/>').expect(400);
    expect(r.text).toBe('Unknown parameter: method.');
  });

  test('an invalid option value is 400', async () => {
    await s.put('/rest/db/a.xml?stripws=maybe', '<a/>').expect(400);
  });
});
