/**
 * On PostgreSQL, requests that wait (for a query worker) or run long without reading hold no
 * pooled connection, and authentication uses connections of its own: more sleeping queries than
 * the pool has connections leave every other request its answer.
 */
import request from 'supertest';
import { createTestDatabase, describeWithPostgres } from '../helpers/postgres';
import { startTestServer, tempDir, type TestServer } from '../helpers/rest';

describeWithPostgres('the PostgreSQL pool under sleeping queries', () => {
  let db: { url: string; drop: () => Promise<void> };
  let s: TestServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    const dbPath = tempDir();
    s = await startTestServer({ dbPath, storeUrl: db.url, workers: 2, queryTimeout: 2500 });
    await s.put('/rest/db1', '<doc>kept</doc>', 'application/xml').expect(201);
    await s.get(`/rest?command=${encodeURIComponent('CREATE USER mallory pw')}`).expect(200);
    await s.get(`/rest?command=${encodeURIComponent('CREATE USER eve pw')}`).expect(200);
    await s.get(`/rest?command=${encodeURIComponent('GRANT READ TO eve')}`).expect(200);
  }, 120_000);
  afterAll(async () => {
    await s.close();
    await db.drop();
  });

  test('twelve sleeping commands of one user (pool: 10) hold up no one else: a read and a login of another user answer before any of them', async () => {
    const finished: string[] = [];
    const sleeps = Array.from({ length: 12 }, () =>
      request(s.app)
        .get(`/rest?command=${encodeURIComponent(`XQUERY prof:sleep(60000)`)}`)
        .auth('mallory', 'pw')
        .then((r) => finished.push(`sleep ${r.status}`)),
    );
    // Let them reach the store and the query queue first.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const read = await s.get('/rest/db1/db1.xml');
    finished.push(`read ${read.status} ${read.text}`);
    // Another user: mallory's own further requests wait for a turn of hers (maxUserRequests).
    const login = await request(s.app).get('/rest').auth('eve', 'pw');
    finished.push(`login ${login.status}`);
    await Promise.all(sleeps);
    expect(finished.slice(0, 2)).toEqual(['read 200 <doc>kept</doc>', 'login 200']);
    // Queued ones answer 503 after half the query time, running ones are stopped at its end.
    expect(finished.slice(2).every((f) => f === 'sleep 503' || f === 'sleep 500')).toBe(true);
  }, 30_000);

  test('twelve sleeping queries of one user that read a database (each holding a connection) take at most maxUserRequests (8) of the 10', async () => {
    const finished: string[] = [];
    const sleeps = Array.from({ length: 12 }, () =>
      request(s.app)
        .get(`/rest/db1?query=${encodeURIComponent('(count(db:get("db1")), prof:sleep(60000))')}`)
        .auth('eve', 'pw')
        .then((r) => finished.push(`sleep ${r.status}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const read = await s.get('/rest/db1/db1.xml');
    finished.push(`read ${read.status} ${read.text}`);
    await Promise.all(sleeps);
    expect(finished[0]).toBe('read 200 <doc>kept</doc>');
    expect(finished.slice(1).every((f) => f === 'sleep 503' || f === 'sleep 500')).toBe(true);
  }, 30_000);
});
