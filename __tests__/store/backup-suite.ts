/** Backups (lib/store/types.ts, WriteView), one suite for every store; see store-suite.ts. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Store } from '../../lib/store/types';
import { bin, codeOf, listFiles, xml } from './helpers';
import type { StoreKind } from './store-suite';

export const B1 = 'db-2026-01-01-10-00-00';
export const B2 = 'db-2026-01-02-10-00-00';

export function backupSuite(kind: StoreKind): void {
  let store: Store;
  const folder = kind.folder;
  const onDisk = folder === undefined ? undefined : { get path() { return folder(); } };

  beforeEach(async () => {
    store = await kind.open();
    await store.write(['db'], async (w) => {
      await w.createDatabase('db', { stripws: true });
      await w.putResource('db', 'a.xml', xml('<a/>'));
      await w.putResource('db', 'dir/b.bin', bin('bytes'));
    });
  });
  afterEach(async () => {
    await store.close();
  });

  const backups = (s: Store = store) => s.read([], async (r) => (await r.listBackups()).map((b) => b.name));
  const resources = (db = 'db', s: Store = store) =>
    s.read([db], async (r) => (await r.listResources(db)).map((x) => x.path));
  const text = (p: string, db = 'db') => store.read([db], async (r) => (await r.readBytes(db, p)).toString());

  describe('backups', () => {
    test('create and list (in the file store: a copy of the database folder under .backups./)', async () => {
      await store.write(['db'], (w) => w.createBackup('db', B1));
      const list = await store.read([], (r) => r.listBackups());
      expect(list).toStrictEqual([{ name: B1, resources: 2, size: 9, modified: expect.any(Number) }]);
      if (onDisk) {
        const files = await listFiles(path.join(onDisk.path, '.backups.', B1));
        expect(files.filter((f) => !f.startsWith('.catalog./'))).toStrictEqual(['a.xml', 'dir/b.bin']);
        // The data folder holds no work folders after the commit, and the backup is no database.
        expect((await fs.readdir(onDisk.path)).sort()).toStrictEqual(['.backups.', '.store.', 'db']);
      }
      expect(await store.read('*', async (r) => (await r.listDatabases()).map((d) => d.name))).toStrictEqual(['db']);
    });

    test('restore replaces the database content and keeps its options; the backup stays', async () => {
      await store.write(['db'], (w) => w.createBackup('db', B1));
      await store.write(['db'], async (w) => {
        await w.putResource('db', 'a.xml', xml('<changed/>'));
        await w.putResource('db', 'c.xml', xml('<c/>'));
        await w.deleteResources('db', 'dir');
        await w.setOptions('db', { stripws: false });
      });
      await store.write(['db'], (w) => w.restoreBackup(B1, 'db'));
      expect(await resources()).toStrictEqual(['a.xml', 'dir/b.bin']);
      expect(await text('a.xml')).toBe('<a/>');
      expect(await text('dir/b.bin')).toBe('bytes');
      expect((await store.read(['db'], (r) => r.database('db')))?.options).toStrictEqual({ stripws: true });
      expect(await backups()).toStrictEqual([B1]);
      // A change after the restore does not reach the backup (the files are never written in place).
      await store.write(['db'], (w) => w.putResource('db', 'a.xml', xml('<later/>')));
      await store.write(['db'], (w) => w.restoreBackup(B1, 'db'));
      expect(await text('a.xml')).toBe('<a/>');
    });

    test('restore into another (missing) database', async () => {
      await store.write(['db'], (w) => w.createBackup('db', B1));
      await store.write(['db'], (w) => w.dropDatabase('db'));
      await store.write(['other'], (w) => w.restoreBackup(B1, 'other'));
      expect(await resources('other')).toStrictEqual(['a.xml', 'dir/b.bin']);
    });

    test('a backup sees the staged state of its write; later changes of the write do not reach it', async () => {
      await store.write(['db'], async (w) => {
        await w.putResource('db', 'staged.xml', xml('<s/>'));
        await w.createBackup('db', B1);
        await w.putResource('db', 'after.xml', xml('<after/>'));
        expect(await w.listBackups()).toStrictEqual([expect.objectContaining({ name: B1, resources: 3 })]);
      });
      await store.write(['db'], (w) => w.restoreBackup(B1, 'db'));
      expect(await resources()).toStrictEqual(['a.xml', 'dir/b.bin', 'staged.xml']);
      expect(await text('staged.xml')).toBe('<s/>');
    });

    test('drop and rename', async () => {
      await store.write(['db'], async (w) => {
        await w.createBackup('db', B1);
        await w.createBackup('db', B2);
      });
      expect(await backups()).toStrictEqual([B1, B2]);
      expect(await store.write(['db'], (w) => w.dropBackup(B1))).toBe(true);
      expect(await store.write(['db'], (w) => w.dropBackup(B1))).toBe(false);
      await store.write(['db', 'new'], (w) => w.renameBackup(B2, 'new-2026-01-02-10-00-00'));
      expect(await backups()).toStrictEqual(['new-2026-01-02-10-00-00']);
      await store.write(['db'], (w) => w.restoreBackup('new-2026-01-02-10-00-00', 'db'));
      expect(await resources()).toStrictEqual(['a.xml', 'dir/b.bin']);
      if (onDisk) expect(await fs.readdir(path.join(onDisk.path, '.backups.'))).toStrictEqual(['new-2026-01-02-10-00-00']);
    });

    test('a backup of an existing name is replaced', async () => {
      await store.write(['db'], (w) => w.createBackup('db', B1));
      await store.write(['db'], (w) => w.putResource('db', 'c.xml', xml('<c/>')));
      await store.write(['db'], (w) => w.createBackup('db', B1));
      expect(await store.read([], (r) => r.listBackups())).toStrictEqual([expect.objectContaining({ name: B1, resources: 3 })]);
    });

    test('persist across a new store on the same storage', async () => {
      await store.write(['db'], (w) => w.createBackup('db', B1));
      await store.close();
      store = await kind.open();
      expect(await backups()).toStrictEqual([B1]);
      await store.write(['db'], (w) => w.deleteResources('db', ''));
      await store.write(['db'], (w) => w.restoreBackup(B1, 'db'));
      expect(await resources()).toStrictEqual(['a.xml', 'dir/b.bin']);
    });

    test('changes are staged: a write that fails applies none of them', async () => {
      await store.write(['db'], (w) => w.createBackup('db', B1));
      const failing = store.write(['db', 'other'], async (w) => {
        await w.createBackup('db', B2);
        await w.deleteResources('db', '');
        await w.restoreBackup(B1, 'other');
        await w.dropBackup(B1);
        expect(await w.listBackups()).toStrictEqual([expect.objectContaining({ name: B2, resources: 2 })]);
        throw new Error('boom');
      });
      await expect(failing).rejects.toThrow('boom');
      expect(await backups()).toStrictEqual([B1]);
      expect(await store.read(['other'], (r) => r.database('other'))).toBeUndefined();
      expect(await resources()).toStrictEqual(['a.xml', 'dir/b.bin']);
      if (onDisk) expect((await fs.readdir(onDisk.path)).sort()).toStrictEqual(['.backups.', '.store.', 'db']);
    });

    test('a failing restore changes nothing', async () => {
      await store.write(['db'], (w) => w.putResource('db', 'c.xml', xml('<c/>')));
      expect(await codeOf(() => store.write(['db'], (w) => w.restoreBackup(B1, 'db')))).toBe('BACKUP_NOT_FOUND_X');
      expect(await resources()).toStrictEqual(['a.xml', 'c.xml', 'dir/b.bin']);
    });

    test('names are checked, and the databases involved must be locked', async () => {
      expect(await codeOf(() => store.write(['db'], (w) => w.createBackup('db', '../x')))).toBe('INVALID_DB_NAME_X');
      expect(await codeOf(() => store.write(['db'], (w) => w.createBackup('nope', B1)))).toBe('NOT_LOCKED_X');
      expect(await codeOf(() => store.write(['nope'], (w) => w.createBackup('nope', B1)))).toBe('DB_NOT_FOUND_X');
      expect(await codeOf(() => store.write(['other'], (w) => w.dropBackup(B1)))).toBe('NOT_LOCKED_X');
      expect(await codeOf(() => store.write(['other'], (w) => w.restoreBackup(B1, 'db')))).toBe('NOT_LOCKED_X');
      expect(await codeOf(() => store.write(['db'], (w) => w.renameBackup(B1, 'x-2026-01-01-10-00-00')))).toBe('NOT_LOCKED_X');
      expect(await codeOf(() => store.write(['db'], (w) => w.renameBackup(B1, B2)))).toBe('BACKUP_NOT_FOUND_X');
      expect(await backups()).toStrictEqual([]);
    });
  });
}
