import { createFileStore } from '../../../lib/store/file/file-store';
import type { User } from '../../../lib/users/user-store';
import { newState, setup, type Fixture } from './setup';

let f: Fixture;
beforeEach(async () => {
  f = await setup();
  await f.run('CREATE DB db <a/>\nADD TO dir/b.xml <b/>\nCREATE DB db2 <c/>\nCREATE DB other');
});
// no jest.restoreAllMocks(): it would also restore the cheap password hashes of setup.ts
// (fast-hashes.ts), and every later fixture would hash at the production cost
afterEach(async () => {
  await f.close();
});

const T1 = Date.UTC(2026, 0, 1, 10, 0, 0);
const T2 = Date.UTC(2026, 0, 2, 10, 0, 0);
const S1 = '-2026-01-01-10-00-00';
const S2 = '-2026-01-02-10-00-00';

/** Runs a script with Date.now() fixed at `ms` (backup names carry the time). */
async function at(ms: number, script: string): Promise<string> {
  const spy = jest.spyOn(Date, 'now').mockReturnValue(ms);
  try {
    return await f.run(script);
  } finally {
    spy.mockRestore();
  }
}

async function backups(): Promise<string[]> {
  return f.store.read([], async (v) => (await v.listBackups()).map((b) => b.name));
}

describe('CREATE BACKUP', () => {
  test('backs up one database as db-YYYY-MM-DD-HH-MM-SS; no output', async () => {
    expect(await at(T1, 'CREATE BACKUP db')).toBe('');
    expect(await backups()).toStrictEqual([`db${S1}`]);
  });

  test('patterns: globs and lists; without a pattern every database', async () => {
    await at(T1, 'CREATE BACKUP db*');
    expect(await backups()).toStrictEqual([`db${S1}`, `db2${S1}`]);
    await at(T2, 'CREATE BACKUP db2,other');
    expect(await backups()).toStrictEqual([`db${S1}`, `db2${S1}`, `db2${S2}`, `other${S2}`]);
    await f.run('DROP BACKUP *');
    await at(T1, 'CREATE BACKUP');
    expect(await backups()).toStrictEqual([`db${S1}`, `db2${S1}`, `other${S1}`]);
  });

  test('a pattern that matches no database fails', async () => {
    expect(await f.fail('CREATE BACKUP nope*')).toStrictEqual({
      status: 500,
      code: 'DB_NOT_FOUND_X',
      message: "Database 'nope*' was not found.",
    });
    expect(await backups()).toStrictEqual([]);
  });
});

describe('SHOW BACKUPS', () => {
  test('table Name  Size, N backup(s).', async () => {
    expect(await f.run('SHOW BACKUPS')).toBe('Name  Size  \n----------\n\n0 backup(s).\n');
    await at(T1, 'CREATE BACKUP db,other');
    const bytes = await f.store.read(['db'], async (v) => (await v.database('db'))?.size);
    expect(bytes).toBe(8);
    expect(await f.run('SHOW BACKUPS')).toBe(
      'Name                       Size  \n' +
        '-------------------------------\n' +
        'db-2026-01-01-10-00-00     8     \n' +
        'other-2026-01-01-10-00-00  0     \n' +
        '\n2 backup(s).\n',
    );
  });
});

describe('RESTORE', () => {
  test('a database name restores its newest backup; the content is replaced', async () => {
    await at(T1, 'CREATE BACKUP db');
    await f.run('OPEN db\nADD TO c.xml <c/>');
    await at(T2, 'CREATE BACKUP db');
    await f.run('OPEN db\nDELETE a.xml\nPUT dir/b.xml <changed/>');
    expect(await f.run('RESTORE db')).toBe('');
    expect(await f.resources('db')).toStrictEqual(['c.xml', 'db.xml', 'dir/b.xml']);
    expect(await f.run('OPEN db\nGET dir/b.xml')).toBe('<b/>');
  });

  test('a backup name restores that backup, also after the database was dropped', async () => {
    await at(T1, 'CREATE BACKUP db');
    await f.run('OPEN db\nADD TO c.xml <c/>');
    await at(T2, 'CREATE BACKUP db');
    await f.run('DROP DB db');
    await f.run(`RESTORE db${S1}`);
    expect(await f.resources('db')).toStrictEqual(['db.xml', 'dir/b.xml']);
    expect(await backups()).toStrictEqual([`db${S1}`, `db${S2}`]);
  });

  test('a failing restore changes nothing', async () => {
    await at(T1, 'CREATE BACKUP db');
    await f.run('OPEN db\nADD TO c.xml <c/>');
    for (const name of ['nope', `db${S2}`, `other${S1}`]) {
      expect(await f.fail(`RESTORE ${name}`)).toStrictEqual({
        status: 500,
        code: 'BACKUP_NOT_FOUND_X',
        message: `No backup found: ${name}.`,
      });
    }
    expect(await f.fail('<restore/>')).toMatchObject({ status: 500, code: 'BACKUP_NOT_FOUND_X' });
    expect(await f.resources('db')).toStrictEqual(['c.xml', 'db.xml', 'dir/b.xml']);
    expect(await backups()).toStrictEqual([`db${S1}`]);
  });

  test('in a script, the commands after it see the restored database', async () => {
    await at(T1, 'CREATE BACKUP db');
    expect(await f.run('OPEN db\nDELETE dir\nRESTORE db\nLIST db')).toContain('2 Resource(s).');
  });
});

describe('DROP BACKUP, ALTER BACKUP', () => {
  beforeEach(async () => {
    await at(T1, 'CREATE BACKUP');
    await at(T2, 'CREATE BACKUP db');
  });

  test('DROP BACKUP db drops all backups of db; a full name drops one; no match is no error', async () => {
    expect(await f.run(`DROP BACKUP db${S1}`)).toBe('');
    expect(await backups()).toStrictEqual([`db${S2}`, `db2${S1}`, `other${S1}`]);
    await f.run('DROP BACKUP db');
    expect(await backups()).toStrictEqual([`db2${S1}`, `other${S1}`]);
    await f.run('DROP BACKUP nope');
    await f.run('DROP BACKUP o*,db2');
    expect(await backups()).toStrictEqual([]);
  });

  test('ALTER BACKUP renames one backup, or all backups of a database, keeping the timestamps', async () => {
    await f.run(`ALTER BACKUP db${S1} old`);
    expect(await backups()).toStrictEqual([`db${S2}`, `db2${S1}`, `old${S1}`, `other${S1}`]);
    await f.run('ALTER BACKUP db2 renamed');
    expect(await backups()).toStrictEqual([`db${S2}`, `old${S1}`, `other${S1}`, `renamed${S1}`]);
    await f.run(`RESTORE old${S1}`);
    expect(await f.resources('old')).toStrictEqual(['db.xml', 'dir/b.xml']);
    expect(await f.fail('ALTER BACKUP nope x')).toMatchObject({ status: 500, code: 'BACKUP_NOT_FOUND_X' });
    expect(await f.fail('<alter-backup name="db" newname="../x"/>')).toMatchObject({ status: 500, code: 'INVALID_DB_NAME_X' });
  });
});

describe('permissions', () => {
  let write: User, create: User;
  beforeEach(async () => {
    write = await f.user('write', 'write');
    create = await f.user('create', 'create');
  });

  test('backup commands need the create permission', async () => {
    await at(T1, 'CREATE BACKUP db');
    for (const cmd of ['CREATE BACKUP db', 'RESTORE db', 'DROP BACKUP db', 'ALTER BACKUP db x', 'SHOW BACKUPS']) {
      expect(await f.fail(cmd, { env: f.env(write) })).toStrictEqual({
        status: 403,
        code: 'PERMISSION_NEEDED_X',
        message: 'Create permission needed.',
      });
    }
    expect(await backups()).toStrictEqual([`db${S1}`]);
    expect(await f.run('SHOW BACKUPS', { env: f.env(create) })).toContain('1 backup(s).');
    await f.run('DROP BACKUP db', { env: f.env(create) });
    expect(await backups()).toStrictEqual([]);
  });

  test('a refused command stops the script before anything runs', async () => {
    expect(await f.fail('CREATE DB x\nCREATE BACKUP db', { env: f.env(write) })).toMatchObject({ status: 403 });
    expect(await f.databases()).toStrictEqual(['db', 'db2', 'other']);
  });

  test('SHOW SESSIONS needs admin and lists no sessions', async () => {
    expect(await f.run('SHOW SESSIONS')).toBe('0 session(s).\n');
    expect(await f.fail('SHOW SESSIONS', { env: f.env(create) })).toMatchObject({ status: 403, message: 'Admin permission needed.' });
  });
});

describe('persistence', () => {
  test('backups survive a new store on the same folder', async () => {
    await at(T1, 'CREATE BACKUP db');
    await f.store.close();
    const store = await createFileStore(f.dbPath);
    try {
      const env = { ...f.env(), store };
      await f.run('OPEN db\nDELETE dir', { env, state: newState() });
      expect(await f.run('SHOW BACKUPS', { env })).toContain(`db${S1}`);
      await f.run('RESTORE db', { env });
      expect(await store.read(['db'], async (v) => (await v.listResources('db')).map((r) => r.path))).toStrictEqual([
        'db.xml',
        'dir/b.xml',
      ]);
    } finally {
      await store.close();
    }
  });
});
