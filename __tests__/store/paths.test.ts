import path from 'node:path';
import {
  ancestorsOf,
  checkDatabaseName,
  checkPath,
  databaseFolder,
  isAtOrBelow,
  isValidDatabaseName,
  normalizePath,
  resourceFile,
} from '../../lib/store/paths';
import { codeOf } from './helpers';

describe('database names', () => {
  test.each([
    'db',
    'DB_1',
    'a.b',
    'a-b+c=d~e!f#g$h%i^j&k(l)m[n]o{p}q@r\'s`t',
    'users.json2',
    'x'.repeat(255),
  ])('valid: %s', (name) => {
    expect(isValidDatabaseName(name)).toBe(true);
    expect(checkDatabaseName(name)).toBe(name);
  });

  test.each([
    '',
    '.db',
    'db.',
    '.',
    '..',
    'a b',
    'a/b',
    'a\\b',
    'café',
    'a:b',
    'a*b',
    'a\0b',
    'users.json',
    'USERS.JSON',
    'x'.repeat(256),
  ])('invalid: %j', async (name) => {
    expect(isValidDatabaseName(name)).toBe(false);
    expect(await codeOf(() => checkDatabaseName(name))).toBe('INVALID_DB_NAME_X');
  });
});

describe('resource paths', () => {
  test.each([
    ['a.xml', 'a.xml'],
    ['/a/b.xml/', 'a/b.xml'],
    ['a//b', 'a/b'],
    ['a\\b\\c', 'a/b/c'],
    ['./a/./b', 'a/b'],
    ['a/../b', 'b'],
    ['a/b/../../c', 'c'],
    ['', ''],
    ['/', ''],
    ['a/..', ''],
    ['..a/b..c/.d', '..a/b..c/.d'],
    ['日本/ü.xml', '日本/ü.xml'],
    ['/etc/passwd', 'etc/passwd'],
    ['C:\\Windows\\x', 'C:/Windows/x'],
  ])('%j → %j', (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
    expect(checkPath(input)).toBe(expected);
  });

  test.each(['..', '../x', '../..', 'a/../../x', 'a/../..', 'a./b', 'a/b.', '...', 'a/b\0c', `${'é'.repeat(128)}`])(
    'invalid: %j',
    async (input) => {
      expect(normalizePath(input)).toBeUndefined();
      expect(await codeOf(() => checkPath(input))).toBe('INVALID_PATH_X');
    },
  );

  test('isAtOrBelow and ancestorsOf', () => {
    expect(isAtOrBelow('a/b', 'a')).toBe(true);
    expect(isAtOrBelow('a', 'a')).toBe(true);
    expect(isAtOrBelow('ab', 'a')).toBe(false);
    expect(isAtOrBelow('x', '')).toBe(true);
    expect(ancestorsOf('a/b/c')).toEqual(['a', 'a/b']);
    expect(ancestorsOf('a')).toEqual([]);
  });
});

describe('files on disk', () => {
  const root = path.resolve('/data/store');

  test('a resource maps below its database folder', () => {
    expect(databaseFolder(root, 'db')).toBe(path.join(root, 'db'));
    expect(resourceFile(root, 'db', 'a/b.xml')).toBe(path.join(root, 'db', 'a', 'b.xml'));
    expect(resourceFile(root, 'db', '/a/../b.xml')).toBe(path.join(root, 'db', 'b.xml'));
  });

  test.each(['../..', 'a/../../x', '../other/x', '..', '', '/', 'a/..', 'x\0y', 'a./b'])(
    'no escape or root through %j',
    async (p) => {
      expect(await codeOf(() => resourceFile(root, 'db', p))).toBe('INVALID_PATH_X');
    },
  );

  test.each(['..', '../x', '/abs', 'a/b', '.', 'users.json'])('no escape through database name %j', async (db) => {
    expect(await codeOf(() => resourceFile(root, db, 'a.xml'))).toBe('INVALID_DB_NAME_X');
  });

  test('every valid path stays strictly inside the database folder', () => {
    const segments = ['a', '..', '.', '', '\\', 'b', '..x', 'x..y', '%2e%2e', '~', 'C:'];
    for (let i = 0; i < 2000; i++) {
      const p = Array.from({ length: 1 + (i % 6) }, (_, j) => segments[(i * 7 + j * 13) % segments.length]).join(
        i % 2 ? '/' : '\\',
      );
      const normalized = normalizePath(p);
      if (normalized === undefined || normalized === '') continue;
      const file = resourceFile(root, 'db', p);
      expect(file.startsWith(path.join(root, 'db') + path.sep)).toBe(true);
    }
  });
});
