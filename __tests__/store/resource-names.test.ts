import fs from 'node:fs/promises';
import path from 'node:path';
import { XmldbError } from '../../lib/xmldb-error';
import { createFileStore } from '../../lib/store/file/file-store';
import { MAX_DATA_FOLDER_BYTES, MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_PATH_SEGMENTS, PATH_MAX } from '../../lib/store/path-limits';
import {
  ancestorsOf,
  checkDatabaseName,
  checkPath,
  checkPathLimits,
  checkResourcePath,
  isAtOrBelow,
  isValidDatabaseName,
  movedPath,
  normalizePath,
} from '../../lib/store/resource-names';
import { databaseFolder, resourceFile } from '../../lib/store/file/disk-paths';
import { codeOf, tempFolder } from './helpers';
import { thrown } from '../helpers/failure';

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

  test.each(['..', '../x', '../..', 'a/../../x', 'a/../..', 'a./b', 'a/b.', '...', 'a/b\0c'])(
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

describe('path limits', () => {
  const limits = `a resource path has at most ${MAX_PATH_BYTES} bytes, ${MAX_PATH_SEGMENTS} segments and ${MAX_NAME_BYTES} bytes in a segment.`;
  const messageOf = (fn: () => unknown): string => {
    const e = thrown(fn, XmldbError);
    if (e.code !== 'PATH_TOO_LONG_XXX' || e.status !== 400) throw e;
    return e.message;
  };
  // Segments of 255, 255, 255, 254 and 1 bytes, and 4 slashes: 1024 bytes.
  const longest = ['x'.repeat(255), 'x'.repeat(255), 'x'.repeat(255), 'x'.repeat(254), 'y'].join('/');
  const deepest = Array.from({ length: MAX_PATH_SEGMENTS }, () => 'a').join('/');

  test('the limits are 1024 bytes, 128 segments, 255 bytes in a segment', () => {
    expect([MAX_PATH_BYTES, MAX_PATH_SEGMENTS, MAX_NAME_BYTES]).toEqual([1024, 128, 255]);
  });

  test.each([
    ['the longest path', longest],
    ['the most segments', deepest],
    ['the longest segment, in UTF-8 bytes', 'é'.repeat(127) + 'x'],
    ['a long input that normalises to a short path', `${'a/'.repeat(3000)}${'../'.repeat(3000)}b`],
  ])('within: %s', (_, input) => {
    const expected = normalizePath(input);
    expect(expected).toBeDefined();
    expect(checkPath(input)).toBe(expected);
    expect(() => checkPathLimits(input)).not.toThrow();
  });

  test.each([
    ['a byte too long', `${longest}y`, '1025 bytes in 5 segments, the longest of 255 bytes'],
    ['a segment too many', `${deepest}/a`, '257 bytes in 129 segments, the longest of 1 bytes'],
    ['a segment a byte too long (UTF-8)', 'é'.repeat(128), '256 bytes in 1 segments, the longest of 256 bytes'],
    ['5,000 one-character segments and a leaf of 255', `${'a/'.repeat(5000)}${'b'.repeat(255)}`, '10255 bytes in 5001 segments, the longest of 255 bytes'],
  ])('beyond: %s', (_, input, measured) => {
    const message = `Path too long: ${measured}; ${limits}`;
    expect(normalizePath(input)).toBeUndefined();
    expect(messageOf(() => checkPath(input))).toBe(message);
    expect(messageOf(() => checkResourcePath(input))).toBe(message);
    expect(messageOf(() => checkPathLimits(input))).toBe(message);
  });

  test('checkPathLimits lets an otherwise invalid path through, for the store to refuse', async () => {
    expect(() => checkPathLimits('../x')).not.toThrow();
    expect(await codeOf(() => checkPath('../x'))).toBe('INVALID_PATH_X');
  });

  test('a move is held to the limits at its destination', async () => {
    const target = ['x'.repeat(255), 'x'.repeat(255), 'x'.repeat(255), 'x'.repeat(252)].join('/'); // 1020 bytes
    expect(movedPath(target, 'a/b', 'to')).toBe(`${target}/a/b`);
    expect(movedPath('', 'a/b', 'to')).toBe('a/b');
    expect(movedPath('t', '', 'to')).toBe('t');
    expect(messageOf(() => movedPath(target, 'a/bc', 'to'))).toBe(`Path too long: 1025 bytes in 6 segments, the longest of 255 bytes; ${limits}`);
    expect(await codeOf(() => movedPath('', '', 'to'))).toBe('INVALID_PATH_X');
  });

  describe('on disk', () => {
    const tmp = tempFolder();

    test(`a data folder of ${MAX_DATA_FOLDER_BYTES} bytes holds the longest path under the longest names, in backups too`, async () => {
      // Nested folders of at most 255 bytes, up to the longest data folder allowed.
      let dbPath = tmp.path;
      while (Buffer.byteLength(dbPath) < MAX_DATA_FOLDER_BYTES) {
        dbPath = path.join(dbPath, 'd'.repeat(Math.min(MAX_NAME_BYTES, MAX_DATA_FOLDER_BYTES - Buffer.byteLength(dbPath) - 1)));
      }
      expect(Buffer.byteLength(dbPath)).toBe(MAX_DATA_FOLDER_BYTES);
      const db = 'n'.repeat(MAX_NAME_BYTES);
      const store = await createFileStore(dbPath);
      try {
        await store.write([db], async (w) => {
          await w.createDatabase(db);
          await w.putResource(db, longest, { type: 'binary', data: Buffer.from('bytes') });
        });
        await store.write([db], (w) => w.createBackup(db, 'b'.repeat(MAX_NAME_BYTES)));
        await store.write([db], (w) => w.deleteResources(db, longest));
        await store.write([db], (w) => w.restoreBackup('b'.repeat(MAX_NAME_BYTES), db));
        expect((await store.read([db], (r) => r.readBytes(db, longest))).toString()).toBe('bytes');
        const file = path.join(dbPath, '.backups.', 'b'.repeat(MAX_NAME_BYTES), ...longest.split('/'));
        expect((await fs.readFile(file)).toString()).toBe('bytes');
        expect(Buffer.byteLength(file)).toBeLessThan(PATH_MAX);
      } finally {
        await store.close();
      }
    });
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
