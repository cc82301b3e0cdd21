import request from 'supertest';
import { ADMIN, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

describe('HTTP Basic authentication (spec §13.1)', () => {
  test('no Authorization header: 401, nothing executed', async () => {
    const r = await request(s.app).put('/rest/db').expect(401);
    expect(r.headers['www-authenticate']).toBe('Basic realm="BaseX"');
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toBe('Basic authentication expected.');
    await s.get('/rest/db').expect(404);
  });

  test('another scheme: 401', async () => {
    const r = await request(s.app).get('/rest').set('Authorization', 'Bearer abc').expect(401);
    expect(r.text).toBe('Basic authentication expected.');
  });

  test('wrong password or unknown user: 401 naming the user', async () => {
    const r1 = await request(s.app).get('/rest').auth('admin', 'nope').expect(401);
    expect(r1.text).toBe('Access denied: admin.');
    expect(r1.headers['www-authenticate']).toBe('Basic realm="BaseX"');
    const r2 = await request(s.app).get('/rest').auth('ghost', 'x').expect(401);
    expect(r2.text).toBe('Access denied: ghost.');
  });

  test('undecodable header or no colon: 401, and the submitted text is never echoed', async () => {
    const secret = 'admin-pw-typed-as-user-name';
    const r = await request(s.app).get('/rest').set('Authorization', `Basic ${Buffer.from(secret).toString('base64')}`).expect(401);
    expect(r.text).toBe('Access denied.');
    expect(r.headers['www-authenticate']).toBe('Basic realm="BaseX"');
    const garbled = await request(s.app).get('/rest').set('Authorization', 'Basic !!!').expect(401);
    expect(garbled.text).toBe('Access denied.');
  });

  test('authentication comes before method checks', async () => {
    await request(s.app).patch('/rest').expect(401);
  });

  test('credentials work', async () => {
    await request(s.app).get('/rest').auth(ADMIN.user, ADMIN.password).expect(200);
  });

  test('default credentials of the router apply to requests without a header', async () => {
    const t = await startTestServer({ user: 'admin', password: 'pw2', adminPassword: 'pw2', allowPrivilegedDefaultUser: true });
    try {
      await request(t.app).get('/rest').expect(200);
      await request(t.app).get('/rest').auth('admin', 'wrong').expect(401);
    } finally {
      await t.close();
    }
  });
});

