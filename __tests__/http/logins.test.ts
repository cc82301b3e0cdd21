/**
 * Logins (spec §13.1; throttling, hashing cost and storage are our decisions): failed logins are
 * throttled per client and per user name, unknown names cost what known ones cost, scrypt runs
 * one at a time at OWASP cost, old hashes are upgraded on login, users.json is private.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { FREE_FAILURES } from '../../lib/users/login-throttle';
import { useRealHashCost } from '../helpers/fast-hashes';
import { CHEAP_HASH_COST } from '../helpers/hash-cost';
import { ADMIN, seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

interface ScryptCall {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * Records every scrypt the server computes, and how many ran at once at most. `holdMs`: each
 * answers that much later than it is computed, as a hash at the production cost takes that long,
 * so that requests sent together overlap it without a core computing it meanwhile.
 */
function watchScrypt(holdMs = 0): { calls: ScryptCall[]; maxConcurrent: () => number; restore: () => void } {
  const calls: ScryptCall[] = [];
  let running = 0;
  let max = 0;
  const real = crypto.scrypt;
  const spy = jest.spyOn(crypto, 'scrypt').mockImplementation(((...args: unknown[]) => {
    const options = args[3] as ScryptCall;
    const done = args[4] as (err: Error | null, key: Buffer) => void;
    calls.push({ N: options.N, r: options.r, p: options.p });
    running++;
    max = Math.max(max, running);
    (real as (...a: unknown[]) => void)(args[0], args[1], args[2], options, (err: Error | null, key: Buffer) => {
      setTimeout(() => {
        running--;
        done(err, key);
      }, holdMs);
    });
  }) as unknown as typeof crypto.scrypt);
  return { calls, maxConcurrent: () => max, restore: () => spy.mockRestore() };
}

const OWASP = { N: 2 ** 17, r: 8, p: 1 };

describe('throttling of failed logins', () => {
  let s: TestServer;
  beforeAll(async () => {
    const dbPath = tempDir();
    await seedUsers(dbPath, [{ name: 'bob', password: 'bob-pw', perm: 'read' }]);
    s = await startTestServer({ dbPath });
    await s.get('/rest').expect(200); // admin's login is now remembered
  });
  afterAll(() => s.close());

  test(`after ${FREE_FAILURES} failures from one client: 429 with Retry-After, for every name; remembered logins still pass`, async () => {
    for (let i = 0; i < FREE_FAILURES / 5; i++) {
      const batch = await Promise.all(Array.from({ length: 5 }, (_, j) => request(s.app).get('/rest').auth(j % 2 ? 'admin' : 'ghost', `guess${i}`)));
      expect(batch.map((r) => r.status)).toStrictEqual([401, 401, 401, 401, 401]);
    }
    const throttled = await request(s.app).get('/rest').auth('admin', 'another guess').expect(429);
    expect(throttled.headers['retry-after']).toBe('1');
    expect(throttled.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(throttled.text).toBe('Too many failed logins; try again in 1 s.');
    // Right credentials that were not proven yet wait too: the client is blocked, not the guess.
    expect((await request(s.app).get('/rest').auth('bob', 'bob-pw').expect(429)).headers['retry-after']).toBe('1');
    await request(s.app).get('/rest').auth('ghost', 'x').expect(429);
    // A login proven before costs no scrypt and is not held back.
    await s.get('/rest').expect(200);
  });
});

describe('the cost of a login', () => {
  useRealHashCost();
  let s: TestServer;
  let scrypt: ReturnType<typeof watchScrypt>;
  beforeAll(async () => {
    s = await startTestServer();
    await request(s.app).get('/rest').auth('nobody', 'x').expect(401); // makes the stand-in hash for unknown names
    scrypt = watchScrypt();
  });
  afterAll(async () => {
    scrypt.restore();
    await s.close();
  });
  beforeEach(() => {
    scrypt.calls.length = 0;
  });

  test('an unknown name costs one scrypt at OWASP cost, like a wrong password of a known name', async () => {
    await request(s.app).get('/rest').auth('ghost', 'guess').expect(401, 'Access denied: ghost.');
    expect(scrypt.calls).toStrictEqual([OWASP]);
    await request(s.app).get('/rest').auth('admin', 'guess').expect(401, 'Access denied: admin.');
    expect(scrypt.calls).toStrictEqual([OWASP, OWASP]);
  });
});

/**
 * What requests at once cost: the same at any hash cost, so at the cheap one, each scrypt held
 * for as long as one at the production cost takes (about 0.3 s).
 */
describe('logins at once', () => {
  let s: TestServer;
  let scrypt: ReturnType<typeof watchScrypt>;
  beforeAll(async () => {
    s = await startTestServer();
    await request(s.app).get('/rest').auth('nobody', 'x').expect(401); // makes the stand-in hash for unknown names
    scrypt = watchScrypt(300);
  });
  afterAll(async () => {
    scrypt.restore();
    await s.close();
  });
  beforeEach(() => {
    scrypt.calls.length = 0;
  });

  test('a successful login is remembered: the next requests cost no scrypt', async () => {
    await s.get('/rest').expect(200);
    const after = scrypt.calls.length;
    await s.get('/rest').expect(200);
    await s.get('/rest').expect(200);
    expect(scrypt.calls.length).toBe(after);
  });

  test('requests with the same unproven credentials at once share one scrypt', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => request(s.app).get('/rest').auth('admin', 'same guess')));
    expect(results.map((r) => r.status)).toStrictEqual([401, 401, 401, 401]);
    expect(scrypt.calls).toStrictEqual([CHEAP_HASH_COST]);
  });

  test('many requests at once with the same right password share one scrypt and all pass (none counted as pending)', async () => {
    const dbPath = tempDir();
    await seedUsers(dbPath, [{ name: 'carol', password: 'carol-pw', perm: 'read' }]);
    const fresh = await startTestServer({ dbPath });
    try {
      scrypt.calls.length = 0;
      const results = await Promise.all(Array.from({ length: 24 }, () => request(fresh.app).get('/rest').auth('carol', 'carol-pw')));
      expect(results.map((r) => r.status)).toStrictEqual(Array(24).fill(200));
      expect(scrypt.calls).toStrictEqual([CHEAP_HASH_COST]);
    } finally {
      await fresh.close();
    }
  });

  test('scrypt runs one at a time, leaving the thread pool to the store', async () => {
    const results = await Promise.all(['g1', 'g2', 'g3', 'g4'].map((name) => request(s.app).get('/rest').auth(name, name)));
    expect(results.map((r) => r.status)).toStrictEqual([401, 401, 401, 401]);
    expect(scrypt.calls).toHaveLength(4);
    expect(scrypt.maxConcurrent()).toBe(1);
  });
});

describe('stored hashes', () => {
  useRealHashCost();
  test('a hash of older parameters is replaced with an OWASP-cost one on the next successful login', async () => {
    const dbPath = tempDir();
    fs.chmodSync(dbPath, 0o700);
    const salt = crypto.randomBytes(16);
    const old = { algorithm: 'scrypt', N: 16384, r: 8, p: 1, salt: salt.toString('base64'), key: crypto.scryptSync('old-pw', salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64') };
    fs.writeFileSync(path.join(dbPath, 'users.json'), JSON.stringify({ users: [{ name: 'old', perm: 'read', grants: [], password: old }] }));
    const s = await startTestServer({ dbPath });
    const stored = () => (JSON.parse(fs.readFileSync(path.join(dbPath, 'users.json'), 'utf8')) as { users: Array<{ name: string; password: typeof old }> }).users.find((u) => u.name === 'old')!.password;
    try {
      await request(s.app).get('/rest').auth('old', 'wrong').expect(401);
      expect(stored()).toStrictEqual(old);
      await request(s.app).get('/rest').auth('old', 'old-pw').expect(200);
      const upgraded = stored();
      expect(upgraded).toMatchObject({ algorithm: 'scrypt', ...OWASP });
      expect(upgraded.salt).not.toBe(old.salt);
      const key = crypto.scryptSync('old-pw', Buffer.from(upgraded.salt, 'base64'), 32, { ...OWASP, maxmem: 256 * 1024 * 1024 });
      expect(key.toString('base64')).toBe(upgraded.key);
      await request(s.app).get('/rest').auth('old', 'old-pw').expect(200);
      await request(s.app).get('/rest').auth('old', 'wrong').expect(401);
    } finally {
      await s.close();
    }
  });
});

describe('the users file', () => {
  test('users.json is readable by its owner only, when created and after changes; a new data folder is 0700', async () => {
    if (process.platform === 'win32') return;
    const dbPath = path.join(tempDir(), 'fresh');
    const s = await startTestServer({ dbPath });
    try {
      expect(fs.statSync(dbPath).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dbPath, 'users.json')).mode & 0o777).toBe(0o600);
      await s.get('/rest?command=CREATE%20USER%20carl%20pw').expect(200);
      expect(fs.statSync(path.join(dbPath, 'users.json')).mode & 0o777).toBe(0o600);
      expect(fs.existsSync(path.join(dbPath, 'admin-password.txt'))).toBe(false); // the password was given
    } finally {
      await s.close();
    }
  });

  test('an existing users.json readable by others is made private when opened', async () => {
    if (process.platform === 'win32') return;
    const dbPath = tempDir();
    await seedUsers(dbPath, [{ name: 'dora', password: 'pw', perm: 'none' }]);
    fs.chmodSync(path.join(dbPath, 'users.json'), 0o644);
    const s = await startTestServer({ dbPath });
    try {
      expect(fs.statSync(path.join(dbPath, 'users.json')).mode & 0o777).toBe(0o600);
      await request(s.app).get('/rest').auth(ADMIN.user, ADMIN.password).expect(200);
    } finally {
      await s.close();
    }
  });
});
