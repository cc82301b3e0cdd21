/** users.json on disk: written atomically, readable by the owner only, validated when read. */
import fs from 'node:fs';
import path from 'node:path';
import { XmldbError } from '../../lib/xmldb-error';
import { USERS_FILE, UserStore } from '../../lib/users/user-store';
import { tempDir } from '../helpers/rest';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('the users file', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('xmldb-users-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('is written with mode 0600, also over a file that had wider permissions, and leaves no temp file', async () => {
    const store = await UserStore.open(dir);
    await store.create('admin', 'pw', 'admin');
    const file = path.join(dir, USERS_FILE);
    expect(modeOf(file)).toBe(0o600);
    fs.chmodSync(file, 0o644);
    await store.create('reader', 'pw2', 'read');
    expect(modeOf(file)).toBe(0o600);
    expect(fs.readdirSync(dir)).toStrictEqual([USERS_FILE]);
    const reopened = await UserStore.open(dir);
    expect(reopened.list().map((u) => [u.name, u.perm])).toStrictEqual([
      ['admin', 'admin'],
      ['reader', 'read'],
    ]);
  });

  test('a file that is not JSON is refused with the catalog error, not a parser exception', async () => {
    fs.writeFileSync(path.join(dir, USERS_FILE), '{"users": [');
    const error = await UserStore.open(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(XmldbError);
    expect(error).toMatchObject({ code: 'USERS_FILE_INVALID_X', status: 500, message: 'The users file is invalid: not JSON' });
  });
});
