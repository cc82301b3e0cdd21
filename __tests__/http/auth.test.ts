import http from 'node:http';
import type { AddressInfo } from 'node:net';
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


describe('Basic credentials on a kept-alive connection', () => {
  /** Requests over one kept-alive connection (the way browsers and clients reuse connections). */
  async function connection() {
    const server = http.createServer(s.app).listen(0);
    const port = (server.address() as AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = (path: string, user: string, password: string) =>
      new Promise<string>((resolve, reject) => {
        const auth = Buffer.from(`${user}:${password}`).toString('base64');
        const req = http.get({ port, path, agent, headers: { Authorization: `Basic ${auth}` } }, (res) => {
          sockets.add(res.socket);
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(`${res.statusCode} ${text}`));
        });
        req.on('error', reject);
      });
    const close = () => {
      agent.destroy();
      server.close();
    };
    return { get, close, sockets };
  }

  test('a changed password, permission or dropped user counts from the next request of the connection', async () => {
    await s.get(`/rest?command=${encodeURIComponent('CREATE USER bob pw1')}`).expect(200);
    await s.put('/rest/db', '<a>1</a>').expect(201);
    const c = await connection();
    try {
      expect(await c.get('/rest/db?query=string(.)', 'bob', 'pw1')).toBe("404 Database 'db' was not found.");
      await s.get(`/rest?command=${encodeURIComponent('GRANT read TO bob')}`).expect(200);
      expect(await c.get('/rest/db?query=string(.)', 'bob', 'pw1')).toBe('200 1');
      await s.get(`/rest?command=${encodeURIComponent('ALTER PASSWORD bob pw2')}`).expect(200);
      expect(await c.get('/rest/db?query=string(.)', 'bob', 'pw1')).toBe('401 Access denied: bob.');
      expect(await c.get('/rest/db?query=string(.)', 'bob', 'pw2')).toBe('200 1');
      await s.get(`/rest?command=${encodeURIComponent('DROP USER bob')}`).expect(200);
      expect(await c.get('/rest/db?query=string(.)', 'bob', 'pw2')).toBe('401 Access denied: bob.');
      expect(c.sockets.size).toBe(1); // every request went over the one connection
    } finally {
      c.close();
    }
  });

  test('other credentials on the same connection are checked as theirs', async () => {
    await s.get(`/rest?command=${encodeURIComponent('CREATE USER eve pw')}`).expect(200);
    const c = await connection();
    try {
      expect(await c.get('/rest?query=1', ADMIN.user, ADMIN.password)).toBe('200 1');
      expect(await c.get('/rest?query=1', ADMIN.user, 'guess')).toBe('401 Access denied: admin.');
      expect(await c.get(`/rest?command=${encodeURIComponent('CREATE DB x')}`, 'eve', 'pw')).toBe('403 Create permission needed.');
      expect(await c.get('/rest?query=2', ADMIN.user, ADMIN.password)).toBe('200 2');
      expect(c.sockets.size).toBe(1);
    } finally {
      c.close();
    }
  });
});
