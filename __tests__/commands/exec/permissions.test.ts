import fs from 'node:fs/promises';
import path from 'node:path';
import type { User } from '../../../lib/users/user-store';
import { newState, setup, type Fixture } from './setup';

let f: Fixture;
let none: User, read: User, write: User, create: User;

beforeEach(async () => {
  f = await setup();
  await f.run('CREATE DB pub1 <a/>\nCREATE DB pub2\nCREATE DB priv <secret/>');
  none = await f.user('none', 'none');
  read = await f.user('read', 'read');
  write = await f.user('write', 'write');
  create = await f.user('create', 'create');
});
afterEach(async () => {
  await f.close();
});

const as = (user: User, script: string) => f.run(script, { env: f.env(user) });
const failAs = (user: User, script: string) => f.fail(script, { env: f.env(user) });
const refused = (perm: string) => ({ status: 403, code: 'PERMISSION_NEEDED_X', message: `${perm} permission needed.` });
const notFound = (status: number, db: string) => ({ status, code: 'DB_NOT_FOUND_X', message: `Database '${db}' was not found.` });

describe('global permission levels', () => {
  test('none: information commands only; OPEN answers not found', async () => {
    expect(await as(none, 'INFO\nSET stripws\nSHOW OPTIONS stripws\nXQUERY 1+1')).toContain('[-|-] 1+1');
    expect(await as(none, 'LIST')).toContain('\n0 database(s).\n');
    expect(await failAs(none, 'OPEN pub1')).toStrictEqual(notFound(404, 'pub1'));
    expect(await failAs(none, 'LIST pub1')).toStrictEqual(notFound(500, 'pub1'));
    expect(await failAs(none, 'INFO DB')).toStrictEqual(refused('Read'));
  });

  test('read: open, list and get; no writing', async () => {
    expect(await as(read, 'OPEN pub1\nGET pub1.xml')).toBe('<a/>');
    expect(await as(read, 'LIST')).toContain('\n3 database(s).\n');
    expect(await as(read, 'LIST')).not.toContain('Input Path');
    expect(await failAs(read, 'OPEN pub1\nADD TO b.xml <b/>')).toStrictEqual(refused('Write'));
    expect(await failAs(read, 'XQUERY db:put("pub1", <x/>, "x.xml")')).toStrictEqual(refused('Write'));
    // an updating query needs write somewhere even when it changes no database, as over REST
    expect(await failAs(read, 'XQUERY update:output(1)')).toStrictEqual(refused('Write'));
  });

  test('write: resources, no databases', async () => {
    expect(await as(write, 'OPEN pub1\nADD TO b.xml <b/>\nDELETE pub1.xml')).toBe('');
    expect(await f.resources('pub1')).toStrictEqual(['b.xml']);
    expect(await failAs(write, 'CREATE DB x')).toStrictEqual(refused('Create'));
    expect(await failAs(write, 'DROP DB pub*')).toStrictEqual(refused('Create'));
    expect(await failAs(write, 'XQUERY db:create("x")')).toStrictEqual(refused('Create'));
  });

  test('create: databases, no users; LIST shows the input path column', async () => {
    expect(await as(create, 'CREATE DB x\nCOPY x y\nALTER DB y z\nDROP DB x')).toBe('');
    expect(await f.databases()).toStrictEqual(['priv', 'pub1', 'pub2', 'z']);
    expect(await as(create, 'LIST')).toContain('Input Path');
    expect(await failAs(create, 'CREATE USER y pw')).toStrictEqual(refused('Admin'));
    expect(await failAs(create, 'GRANT read TO none')).toStrictEqual(refused('Admin'));
  });

  test('admin: everything', async () => {
    expect(await f.run('CREATE USER y pw\nGRANT admin TO y\nDROP USER y\nCREATE DB q\nOPEN priv\nGET priv.xml')).toBe('<secret/>');
  });
});

describe('refused before any command runs', () => {
  test('CREATE DB x; CREATE USER y by a create-level user creates nothing', async () => {
    expect(await failAs(create, 'CREATE DB x; CREATE USER y pw')).toStrictEqual(refused('Admin'));
    expect(await f.databases()).toStrictEqual(['priv', 'pub1', 'pub2']);
    expect(f.users.get('y')).toBeUndefined();
  });

  test('a refused command late in a script: earlier commands do not run, state is unchanged', async () => {
    const state = newState();
    const e = await f.fail('SET stripws true\nOPEN pub1\nADD TO n.xml <n/>\nOPEN priv\nADD TO m.xml <m/>', {
      env: f.env(await f.user('w1', 'none', [['pub*', 'write']])),
      state,
    });
    expect(e).toStrictEqual(notFound(404, 'priv'));
    expect(await f.resources('pub1')).toStrictEqual(['pub1.xml']);
    expect(state).toStrictEqual(newState());
  });

  test('nested EXECUTE and RUN scripts are checked up front too', async () => {
    expect(await failAs(create, 'CREATE DB x\nEXECUTE "CREATE USER y pw"')).toStrictEqual(refused('Admin'));
    await fs.writeFile(path.join(f.restPath, 'admin.bxs'), 'CREATE USER y pw\n');
    expect(await failAs(create, 'CREATE DB x\nRUN admin.bxs')).toStrictEqual(refused('Admin'));
    expect(await f.databases()).not.toContain('x');
  });
});

describe('per-database grants', () => {
  test('read on a pattern: only those databases are visible and readable', async () => {
    const u = await f.user('g', 'none', [['pub*', 'read']]);
    const list = await as(u, 'LIST');
    expect(list).toContain('pub1');
    expect(list).toContain('pub2');
    expect(list).not.toContain('priv');
    expect(await as(u, 'OPEN pub1\nGET pub1.xml')).toBe('<a/>');
    // an unreadable database looks like an unknown one
    const hidden = await failAs(u, 'OPEN priv');
    const unknown = await failAs(u, 'OPEN nosuch');
    expect(hidden).toStrictEqual(notFound(404, 'priv'));
    expect({ ...hidden, message: '' }).toStrictEqual({ ...unknown, message: '' });
    expect(await failAs(u, 'LIST priv')).toStrictEqual(notFound(500, 'priv'));
    expect(await failAs(u, 'OPEN pub1\nADD TO b.xml <b/>')).toStrictEqual(refused('Write'));
  });

  test('write on a pattern lifts a global read; none on a pattern lowers a global write', async () => {
    const u = await f.user('g', 'read', [['pub2', 'write'], ['priv', 'none']]);
    expect(await as(u, 'OPEN pub2\nADD TO b.xml <b/>')).toBe('');
    expect(await failAs(u, 'OPEN pub1\nADD TO b.xml <b/>')).toStrictEqual(refused('Write'));
    expect(await failAs(u, 'OPEN priv')).toStrictEqual(notFound(404, 'priv'));
    // the database of the URL (state) counts like an opened one
    expect(await f.run('ADD TO c.xml <c/>', { env: f.env(u), state: newState('pub2') })).toBe('');
    expect(await f.resources('pub2')).toStrictEqual(['b.xml', 'c.xml']);
  });
});
