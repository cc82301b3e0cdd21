/** The built-in admin of a new data folder or store, and its generated password file (spec §13.2). */
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_PASSWORD_FILE, ensureAdmin } from '../../lib/users/admin';
import { loggerFromLog } from '../../lib/logger';
import { UserStore } from '../../lib/users/user-store';
import '../helpers/fast-hashes';
import { tempDir } from '../helpers/temp-dir';

describe('admin password file', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('xmldb-admin-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const files = () => fs.readdirSync(dir).filter((name) => name.startsWith(ADMIN_PASSWORD_FILE)).sort();

  test('a generated password is in the named file, and only there', async () => {
    const users = await UserStore.open(dir);
    const logs: string[] = [];
    await ensureAdmin(users, dir, undefined, loggerFromLog((m) => logs.push(m)));
    const file = path.join(dir, ADMIN_PASSWORD_FILE);
    expect(files()).toEqual([ADMIN_PASSWORD_FILE]);
    expect(logs).toEqual([
      `xmldb-rest: created user admin; its password is in ${file} (readable by this user only; set the adminPassword option or XMLDB_ADMIN_PASSWORD to choose it)`,
    ]);
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(await users.authenticate('admin', password, '127.0.0.1')).toMatchObject({ kind: 'accepted' });
    await users.close();
  });

  test('files left by a start that crashed or lost the race are settled at the next start', async () => {
    const users = await UserStore.open(dir);
    await users.create('admin', 'right', 'admin');
    fs.writeFileSync(path.join(dir, `${ADMIN_PASSWORD_FILE}.pending-a`), 'wrong\n', { mode: 0o600 });
    fs.writeFileSync(path.join(dir, `${ADMIN_PASSWORD_FILE}.pending-b`), 'right\n', { mode: 0o600 });
    const logs: string[] = [];
    await ensureAdmin(users, dir, undefined, loggerFromLog((m) => logs.push(m)));
    expect(files()).toEqual([ADMIN_PASSWORD_FILE]);
    expect(fs.readFileSync(path.join(dir, ADMIN_PASSWORD_FILE), 'utf8')).toBe('right\n');
    expect(logs).toEqual([]);
    await users.close();
  });
});
