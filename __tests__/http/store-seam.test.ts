/**
 * REST queries over a store whose files the query workers cannot see (helpers/channel-store.ts):
 * every stored document, catalog and database version reaches the workers through the store
 * seam, answered by the request's view; the answers are those of the file store.
 */
import { seamCalls } from '../helpers/channel-store';
import { getQuery, startTestServer, type TestServer } from '../helpers/rest';

jest.mock('../../lib/store/file/file-store', () => {
  const actual = jest.requireActual<typeof import('../../lib/store/file/file-store')>('../../lib/store/file/file-store');
  const { withoutWorkerReader } = jest.requireActual<typeof import('../helpers/channel-store')>('../helpers/channel-store');
  return { ...actual, createFileStore: async (...args: Parameters<typeof actual.createFileStore>) => withoutWorkerReader(await actual.createFileStore(...args)) };
});

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
  await s.put('/rest/shop').expect(201);
  await s.put('/rest/shop/a.xml', '<a><x>1</x><x>2</x></a>', 'application/xml').expect(201);
  await s.put('/rest/shop/dir/b.xml', '<b n="1"/>', 'application/xml').expect(201);
  await s.put('/rest/shop/dir/logo.png', Buffer.from([0, 1, 255]), 'image/png').expect(201);
});
afterAll(() => s.close());

describe('the engine reads through the store seam', () => {
  test('documents, collections, the database context and db: functions', async () => {
    const before = seamCalls.documents;
    expect((await getQuery(s, 'count(//x)', '/shop').expect(200)).text).toBe('2');
    expect((await getQuery(s, "doc('shop/dir/b.xml')").expect(200)).text).toBe('<b n="1"/>');
    expect((await getQuery(s, "collection('shop/dir') ! name(*)").expect(200)).text).toBe('b');
    expect((await getQuery(s, "string-join(db:list('shop'), ',')").expect(200)).text).toBe('a.xml,dir/b.xml,dir/logo.png');
    expect((await getQuery(s, "string(xs:hexBinary(db:get-binary('shop', 'dir/logo.png')))").expect(200)).text).toBe('0001FF');
    // the worker's reads went through the views of the requests: b.xml for doc() (collection()
    // then finds it parsed), the binary for db:get-binary; count(//x) read the summaries the
    // store kept when both documents were stored, not their text
    expect(seamCalls.documents - before).toBe(2);
  });

  test('a query that reaches no database runs without a view: the seam is not asked', async () => {
    const before = { ...seamCalls };
    expect((await getQuery(s, '1 + 1').expect(200)).text).toBe('2');
    expect((await getQuery(s, '<a>{ 1 to 3 }</a>').expect(200)).text).toBe('<a>1 2 3</a>');
    expect((await getQuery(s, 'count(collection())').expect(500)).text).toMatch(/\[FODC0002\] No default collection is available\./);
    expect(seamCalls).toEqual(before);
    // one that names a database reads it through the request's view
    expect((await getQuery(s, "doc-available('shop/a.xml')").expect(200)).text).toBe('true');
    expect(seamCalls.versions).toBeGreaterThan(before.versions);
  });

  test('errors are those of the file store', async () => {
    expect((await getQuery(s, "doc('shop/none.xml')").expect(500)).text).toBe("Stopped at ., 1/1:\n[FODC0002] Database path 'shop/none.xml' yields no documents.");
    expect((await getQuery(s, "doc('nodb/a.xml')").expect(500)).text).toBe("Stopped at ., 1/1:\n[FODC0002] Resource 'nodb/a.xml' not found.");
    expect((await getQuery(s, "db:list('nodb')").expect(500)).text).toBe("Stopped at ., 1/1:\n[db:open] Database 'nodb' was not found.");
  });

  test('an update is seen by the next query; an unchanged database is served from the caches', async () => {
    expect((await getQuery(s, 'sum(//x ! xs:integer(.))', '/shop').expect(200)).text).toBe('3');
    await getQuery(s, "replace value of node doc('shop/a.xml')//x[1] with 10").expect(200);
    expect((await getQuery(s, 'sum(//x ! xs:integer(.))', '/shop').expect(200)).text).toBe('12');
    const before = seamCalls.documents;
    expect((await getQuery(s, 'sum(//x ! xs:integer(.))', '/shop').expect(200)).text).toBe('12');
    expect(seamCalls.documents).toBe(before);
  });

  test('commands, scripts and value resources', async () => {
    expect((await s.get(`/rest/shop?command=${encodeURIComponent('XQUERY count(//x)')}`).expect(200)).text).toBe('2');
    const script = '<commands><open name="shop"/><xquery>db:put-value("shop", (1, 2), "v")</xquery><xquery>count(collection())</xquery></commands>';
    expect((await s.post('/rest', script).expect(200)).text).toBe('2');
    expect((await s.get('/rest/shop/v').expect(200)).text).toBe('1\n2');
  });
});
