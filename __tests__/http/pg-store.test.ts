/** The REST interface on the PostgreSQL store (router option `storeUrl`), by one or two servers. */
import { createRestRouter } from '../../lib';
import { describeWithPostgres } from '../helpers/postgres';
import { twoServersOnFreshDatabase } from '../helpers/pg-two-servers';
import { ADMIN } from '../helpers/rest';

test('storeUrl must be a PostgreSQL URL', () => {
  expect(() => createRestRouter({ storeUrl: 'mysql://h/db' })).toThrow(
    'xmldb-rest: invalid options: "storeUrl" must be a postgres:// or postgresql:// URL.',
  );
});

describeWithPostgres('REST on the PostgreSQL store', () => {
  const servers = twoServersOnFreshDatabase();

  test('PUT, listing, GET and DELETE, each server seeing the other one\'s writes', async () => {
    await servers.one.put('/rest/db').expect(201);
    await servers.one.put('/rest/db/a.xml', '<a>1</a>', 'application/xml').expect(201);
    await servers.two.put('/rest/db/dir/b.txt', 'text', 'text/plain').expect(201);
    const listing = await servers.two.get('/rest/db').expect(200);
    expect(listing.text).toBe(
      '<database xmlns="http://basex.org/rest" name="db"><resource type="xml" content-type="application/xml" size="3">a.xml</resource><dir>dir</dir></database>',
    );
    expect((await servers.two.get('/rest/db/a.xml').expect(200)).text).toBe('<a>1</a>');
    expect((await servers.one.get('/rest/db/dir/b.txt').expect(200)).text).toBe('text');
    await servers.two.del('/rest/db/a.xml').expect(200);
    expect((await servers.one.get('/rest/db').expect(200)).text).toBe('<database xmlns="http://basex.org/rest" name="db"><dir>dir</dir></database>');
    expect((await servers.one.get('/rest').expect(200)).text).toBe(
      '<databases xmlns="http://basex.org/rest"><database resources="1" size="4">db</database></databases>',
    );
  });

  test('a user created on one server logs in on the other; the configured admin password of a later server changes nothing', async () => {
    await servers.one.get(`/rest?command=${encodeURIComponent('CREATE USER ann secret')}`).expect(200);
    await servers.two.get('/rest').auth('ann', 'secret').expect(200);
    await servers.two.get('/rest').auth(ADMIN.user, 'ignored: admin exists').expect(401);
    await servers.one.get(`/rest?command=${encodeURIComponent('DROP USER ann')}`).expect(200);
    await servers.two.get('/rest').auth('ann', 'secret').expect(401);
  });

  test('queries read stored documents through the store, and see changes made by the other server', async () => {
    await servers.one.put('/rest/q').expect(201);
    await servers.one.put('/rest/q/a.xml', '<a><n>1</n><n>2</n></a>', 'application/xml').expect(201);
    await servers.one.put('/rest/q/b.xml', '<a><n>3</n></a>', 'application/xml').expect(201);
    const sum = encodeURIComponent('sum(//n)');
    expect((await servers.two.get(`/rest/q?query=${sum}`).expect(200)).text).toBe('6');
    expect((await servers.one.get(`/rest?query=${encodeURIComponent("count(collection('q')), doc('q/b.xml')/a/n/string()")}`).expect(200)).text).toBe('2\n3');
    // a change on one server, queried (from its cache) on the other
    await servers.one.put('/rest/q/b.xml', '<a><n>30</n></a>', 'application/xml').expect(201);
    expect((await servers.two.get(`/rest/q?query=${sum}`).expect(200)).text).toBe('33');
    // an updating query on one server, read on the other
    await servers.two.get(`/rest/q?query=${encodeURIComponent('insert node <n>100</n> into /a[n = 30]')}`).expect(200);
    expect((await servers.one.get(`/rest/q?query=${sum}`).expect(200)).text).toBe('133');
    expect((await servers.one.get('/rest/q/b.xml').expect(200)).text).toBe('<a><n>30</n><n>100</n></a>');
    await servers.one.get(`/rest?command=${encodeURIComponent('DROP DB q')}`).expect(200);
    expect((await servers.two.get(`/rest?query=${encodeURIComponent("db:exists('q')")}`).expect(200)).text).toBe('false');
  });
});
