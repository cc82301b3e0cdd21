/** Users kept in the PostgreSQL store, shared by the servers on it. */
import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { ADMIN_PASSWORD_FILE, ensureAdmin } from '../../lib/users/admin';
import { loggerFromLog } from '../../lib/logger';
import { createPostgresStore, type PostgresStore } from '../../lib/store/postgres/pg-store';
import { PgUsers } from '../../lib/users/pg-users';
import { UserStore } from '../../lib/users/user-store';
import '../helpers/fast-hashes';
import { describeWithPostgres, freshDatabase } from '../helpers/postgres';
import { tempDir } from '../helpers/temp-dir';

describeWithPostgres('users on PostgreSQL', () => {
  const db = freshDatabase();
  let store: PostgresStore;
  let one: UserStore;
  let two: UserStore;

  beforeEach(async () => {
    store = await createPostgresStore(db.url);
    one = await UserStore.on(new PgUsers(store.pool));
    two = await UserStore.on(new PgUsers(store.pool));
  });
  afterEach(async () => {
    await one.close();
    await two.close();
    await store.close();
  });

  const names = (users: UserStore) => users.list().map((u) => [u.name, u.perm, u.grants]);

  test('changes made through one server apply on the other from its next sync', async () => {
    await one.create('admin', 'pw', 'admin');
    await one.create('ann', 'secret', 'read');
    await one.grant('ann', 'write', 'docs*');
    expect(two.get('ann')).toBeUndefined();
    await two.sync();
    expect(names(two)).toEqual([
      ['admin', 'admin', []],
      ['ann', 'read', [{ pattern: 'docs*', perm: 'write' }]],
    ]);
    expect(await two.authenticate('ann', 'secret', '127.0.0.1')).toMatchObject({ kind: 'accepted', user: { name: 'ann' } });
    await two.rename('ann', 'anna');
    await two.setPassword('anna', 'other');
    await one.sync();
    expect(one.get('ann')).toBeUndefined();
    expect(await one.authenticate('anna', 'other', '127.0.0.1')).toMatchObject({ kind: 'accepted' });
    await one.drop('anna');
    await two.sync();
    expect(names(two)).toEqual([['admin', 'admin', []]]);
  });

  test('each change is made on the users as stored: concurrent changes from two servers are all kept', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? one : two).create(`u${i}`, 'pw')));
    await one.sync();
    expect(one.list().map((u) => u.name)).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8', 'u9']);
    // A name taken on the other server is refused, though this one has not seen it yet.
    await two.create('late', 'pw');
    await expect(one.create('late', 'pw')).rejects.toMatchObject({ code: 'USER_EXISTS_X' });
  });

  test('a new store on the same database loads the users', async () => {
    await one.create('admin', 'pw', 'admin');
    const pool = new Pool({ connectionString: db.url });
    // pool.end() settles once it has told its connections to end, not once they have: the
    // database's drop after the test (WITH (FORCE)) may end one first, whose error then reaches
    // the pool, and a pool without a listener throws it (as the store's own pools have one)
    pool.on('error', () => undefined);
    try {
      const fresh = await UserStore.on(new PgUsers(pool));
      expect(fresh.list().map((u) => u.name)).toEqual(['admin']);
    } finally {
      await pool.end();
    }
  });

  test('two servers starting on an empty store: one creates admin, only its password file is written', async () => {
    const dirs = [one, two].map(() => tempDir('xmldb-admin-race-'));
    try {
      const logs: string[][] = [[], []];
      await Promise.all([one, two].map((users, i) => ensureAdmin(users, dirs[i], undefined, loggerFromLog((m) => logs[i].push(m)))));
      const written = dirs.map((dir) => fs.readdirSync(dir).filter((name) => name.startsWith(ADMIN_PASSWORD_FILE)));
      const winner = written.findIndex((names) => names.length > 0);
      expect(written[winner]).toEqual([ADMIN_PASSWORD_FILE]);
      expect(written[1 - winner]).toEqual([]);
      expect(logs[1 - winner]).toEqual([
        'xmldb-rest: user admin was created by another server sharing the store; its password file is beside that server',
      ]);
      const password = fs.readFileSync(path.join(dirs[winner], ADMIN_PASSWORD_FILE), 'utf8').trim();
      const loser = [one, two][1 - winner];
      await loser.sync();
      expect(await loser.authenticate('admin', password, '127.0.0.1')).toMatchObject({ kind: 'accepted' });
    } finally {
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
