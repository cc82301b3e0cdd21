/**
 * Default credentials (`user`/`password` options, spec §13.1) and their limits (our decision): a
 * privileged default user needs an explicit opt-in, and requests that use the default credentials
 * must be addressed to a loopback host name or one the host lists (DNS rebinding).
 */
import request from 'supertest';
import { createRestRouter } from '../../lib';
import { ADMIN, seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

describe('a privileged default user needs allowPrivilegedDefaultUser', () => {
  test('user "admin": a TypeError when the router is created', () => {
    expect(() => createRestRouter({ dbPath: tempDir(), user: 'admin', password: 'pw' })).toThrow(
      new TypeError(
        'xmldb-rest: invalid options: the default user "admin" has admin permission; set "allowPrivilegedDefaultUser" to allow it.',
      ),
    );
  });

  test.each(['create', 'admin'] as const)('a user with %s permission: ready() fails with a TypeError', async (perm) => {
    const dbPath = tempDir();
    await seedUsers(dbPath, [{ name: 'boss', password: 'pw', perm }]);
    const router = createRestRouter({ dbPath, user: 'boss', password: 'pw', adminPassword: ADMIN.password, log: () => undefined });
    await expect(router.ready()).rejects.toThrow(
      new TypeError(`xmldb-rest: the default user "boss" has ${perm} permission; set "allowPrivilegedDefaultUser" to allow it.`),
    );
    await router.close();
  });

  test('with the opt-in, a privileged default user works', async () => {
    const dbPath = tempDir();
    await seedUsers(dbPath, [{ name: 'boss', password: 'pw', perm: 'create' }]);
    const t = await startTestServer({ dbPath, user: 'boss', password: 'pw', allowPrivilegedDefaultUser: true });
    try {
      await request(t.app).put('/rest/made').expect(201);
    } finally {
      await t.close();
    }
  });

  test.each([
    [{ allowPrivilegedDefaultUser: 'yes' }, '"allowPrivilegedDefaultUser" must be a boolean'],
    [{ allowedHosts: 'db.example' }, '"allowedHosts" must be an array of host names'],
    [{ trustedOrigins: ['ftp://x.example'] }, '"ftp://x.example" is not an http(s) origin'],
    [{ trustedOrigins: [''] }, '"trustedOrigins" must be an array of origins'],
  ])('option types are checked: %j', (options, problem) => {
    expect(() => createRestRouter({ dbPath: tempDir(), ...(options as object) })).toThrow(
      new TypeError(`xmldb-rest: invalid options: ${problem}.`),
    );
  });
});

describe('requests with the default credentials', () => {
  let s: TestServer;
  beforeAll(async () => {
    const dbPath = tempDir();
    await seedUsers(dbPath, [{ name: 'guest', password: 'guest-pw', perm: 'read' }]);
    s = await startTestServer({ dbPath, user: 'guest', password: 'guest-pw', allowedHosts: ['DB.Internal'] });
    await s.put('/rest/db', '<a/>').expect(201);
  });
  afterAll(() => s.close());

  test.each(['localhost', 'localhost:8080', '127.0.0.1:3000', '127.1.2.3', '[::1]:8080', 'app.localhost', 'db.internal:8080', 'DB.INTERNAL'])(
    'are served for Host %s',
    async (host) => {
      const r = await request(s.app).get('/rest/db/db.xml').set('Host', host).expect(200);
      expect(r.text).toBe('<a/>');
    },
  );

  test.each(['evil.example', 'evil.example:8080', '127.0.0.1.evil.example', 'localhost.evil.example', '10.0.0.5'])(
    'are refused for Host %s (DNS rebinding)',
    async (host) => {
      const r = await request(s.app).get('/rest/db/db.xml').set('Host', host).expect(403);
      expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
      expect(r.text).toBe(`Default credentials are not accepted for host "${host}".`);
    },
  );

  test('requests with their own credentials are served under any host name', async () => {
    await request(s.app).get('/rest/db/db.xml').set('Host', 'evil.example').auth(ADMIN.user, ADMIN.password).expect(200);
  });

  test('a default user raised to create permission later is refused per request', async () => {
    await s.get('/rest?command=GRANT%20create%20TO%20guest').expect(200);
    try {
      const r = await request(s.app).get('/rest/db/db.xml').expect(403);
      expect(r.text).toBe("Default credentials refused: user 'guest' has create permission.");
    } finally {
      await s.get('/rest?command=GRANT%20read%20TO%20guest').expect(200);
    }
    await request(s.app).get('/rest/db/db.xml').expect(200);
  });
});
