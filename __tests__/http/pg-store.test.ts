/** The REST interface on the PostgreSQL store (router option `storeUrl`), by one or two servers. */
import { createRestRouter } from '../../lib';
import { describeWithPostgres, freshDatabase } from '../helpers/postgres';
import { ADMIN, startTestServer, type TestServer } from '../helpers/rest';

test('storeUrl must be a PostgreSQL URL', () => {
  expect(() => createRestRouter({ storeUrl: 'mysql://h/db' })).toThrow(
    'xmldb-rest: invalid options: "storeUrl" must be a postgres:// or postgresql:// URL.',
  );
});

describeWithPostgres('REST on the PostgreSQL store', () => {
  const db = freshDatabase();
  let one: TestServer;
  let two: TestServer;

  beforeEach(async () => {
    one = await startTestServer({ storeUrl: db.url });
    two = await startTestServer({ storeUrl: db.url, adminPassword: 'ignored: admin exists' });
  });
  afterEach(async () => {
    await one.close();
    await two.close();
  });

  test('PUT, listing, GET and DELETE, each server seeing the other one\'s writes', async () => {
    await one.put('/rest/db').expect(201);
    await one.put('/rest/db/a.xml', '<a>1</a>', 'application/xml').expect(201);
    await two.put('/rest/db/dir/b.txt', 'text', 'text/plain').expect(201);
    const listing = await two.get('/rest/db').expect(200);
    expect(listing.text).toBe(
      '<database xmlns="http://basex.org/rest" name="db"><resource type="xml" content-type="application/xml" size="3">a.xml</resource><dir>dir</dir></database>',
    );
    expect((await two.get('/rest/db/a.xml').expect(200)).text).toBe('<a>1</a>');
    expect((await one.get('/rest/db/dir/b.txt').expect(200)).text).toBe('text');
    await two.del('/rest/db/a.xml').expect(200);
    expect((await one.get('/rest/db').expect(200)).text).toBe('<database xmlns="http://basex.org/rest" name="db"><dir>dir</dir></database>');
    expect((await one.get('/rest').expect(200)).text).toBe(
      '<databases xmlns="http://basex.org/rest"><database resources="1" size="4">db</database></databases>',
    );
  });

  test('a user created on one server logs in on the other; the configured admin password of a later server changes nothing', async () => {
    await one.get(`/rest?command=${encodeURIComponent('CREATE USER ann secret')}`).expect(200);
    await two.get('/rest').auth('ann', 'secret').expect(200);
    await two.get('/rest').auth(ADMIN.user, 'ignored: admin exists').expect(401);
    await one.get(`/rest?command=${encodeURIComponent('DROP USER ann')}`).expect(200);
    await two.get('/rest').auth('ann', 'secret').expect(401);
  });

  test('queries read stored documents through the store, and see changes made by the other server', async () => {
    await one.put('/rest/q').expect(201);
    await one.put('/rest/q/a.xml', '<a><n>1</n><n>2</n></a>', 'application/xml').expect(201);
    await one.put('/rest/q/b.xml', '<a><n>3</n></a>', 'application/xml').expect(201);
    const sum = encodeURIComponent('sum(//n)');
    expect((await two.get(`/rest/q?query=${sum}`).expect(200)).text).toBe('6');
    expect((await one.get(`/rest?query=${encodeURIComponent("count(collection('q')), doc('q/b.xml')/a/n/string()")}`).expect(200)).text).toBe('2\n3');
    // a change on one server, queried (from its cache) on the other
    await one.put('/rest/q/b.xml', '<a><n>30</n></a>', 'application/xml').expect(201);
    expect((await two.get(`/rest/q?query=${sum}`).expect(200)).text).toBe('33');
    // an updating query on one server, read on the other
    await two.get(`/rest/q?query=${encodeURIComponent('insert node <n>100</n> into /a[n = 30]')}`).expect(200);
    expect((await one.get(`/rest/q?query=${sum}`).expect(200)).text).toBe('133');
    expect((await one.get('/rest/q/b.xml').expect(200)).text).toBe('<a><n>30</n><n>100</n></a>');
    await one.get(`/rest?command=${encodeURIComponent('DROP DB q')}`).expect(200);
    expect((await two.get(`/rest?query=${encodeURIComponent("db:exists('q')")}`).expect(200)).text).toBe('false');
  });
});
