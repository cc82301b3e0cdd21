import { setup, type Fixture } from './setup';

let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});

describe('user management', () => {
  test('CREATE USER, GRANT, ALTER USER, ALTER PASSWORD, DROP USER: no output, users change', async () => {
    expect(await f.run('CREATE USER bob pw1\nGRANT write TO bob\nGRANT read ON doc* TO bob')).toBe('');
    expect(f.users.get('bob')).toMatchObject({ perm: 'write', grants: [{ pattern: 'doc*', perm: 'read' }] });
    await f.run('ALTER USER bob rob\nALTER PASSWORD rob pw2');
    expect(f.users.get('bob')).toBeUndefined();
    expect(await f.users.authenticate('rob', 'pw2', 'test')).toMatchObject({ kind: 'accepted' });
    await f.run('DROP USER rob ON doc*');
    expect(f.users.get('rob')?.grants).toStrictEqual([]);
    await f.run('DROP USER rob');
    expect(f.users.get('rob')).toBeUndefined();
  });

  test('DROP USER with a glob passes over admin; by name admin cannot be dropped', async () => {
    await f.run('CREATE USER u1 a\nCREATE USER u2 b');
    await f.run('DROP USER *');
    expect(f.users.list().map((u) => u.name)).toStrictEqual(['admin']);
    expect(await f.fail('DROP USER admin')).toMatchObject({ status: 500, code: 'ADMIN_STATIC' });
  });

  test('failures: existing user, unknown user, missing password, admin permission', async () => {
    await f.run('CREATE USER bob pw');
    expect(await f.fail('CREATE USER bob pw')).toStrictEqual({ status: 500, code: 'USER_EXISTS_X', message: "User 'bob' already exists." });
    expect(await f.fail('DROP USER zed')).toMatchObject({ status: 500, code: 'USER_NOT_FOUND_X' });
    expect(await f.fail('GRANT read TO zed')).toMatchObject({ status: 500, code: 'USER_NOT_FOUND_X' });
    expect(await f.fail('CREATE USER joe')).toMatchObject({ status: 500, code: 'PASSWORD_MISSING' });
    expect(await f.fail('GRANT none TO admin')).toMatchObject({ status: 500, code: 'ADMIN_PERMISSION' });
    expect(await f.fail('GRANT create ON db TO bob')).toMatchObject({ status: 500, code: 'INVALID_PERMISSION_X' });
  });

  test('PASSWORD changes one’s own password, with no permission needed', async () => {
    const bob = await f.user('bob', 'none');
    expect(await f.run('PASSWORD secret', { env: f.env(bob) })).toBe('');
    expect(await f.users.authenticate('bob', 'secret', 'test')).toMatchObject({ kind: 'accepted' });
    expect(await f.run('ALTER PASSWORD bob again', { env: f.env(bob) })).toBe('');
    expect(await f.fail('ALTER PASSWORD admin x', { env: f.env(bob) })).toMatchObject({ status: 403 });
  });
});

describe('SHOW USERS', () => {
  beforeEach(async () => {
    await f.user('zoe', 'read', [['db*', 'write']]);
    await f.user('bob', 'none');
  });

  test('admin sees everyone, admin first', async () => {
    expect(await f.run('SHOW USERS')).toBe(
      'Username  Permission  \n' +
        '--------------------\n' +
        'admin     admin       \n' +
        'bob       none        \n' +
        'zoe       read        \n' +
        '\n3 user(s).\n',
    );
  });

  test('ON db: the permission each user holds there', async () => {
    const out = await f.run('SHOW USERS ON db1');
    expect(out).toContain('zoe       write');
    expect(out).toContain('bob       none');
  });

  test('a non-admin sees only itself', async () => {
    const zoe = f.users.get('zoe')!;
    expect(await f.run('SHOW USERS', { env: f.env(zoe) })).toBe(
      'Username  Permission  \n' + '--------------------\n' + 'zoe       read        \n' + '\n1 user(s).\n',
    );
  });
});
