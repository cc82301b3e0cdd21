import fs from 'node:fs/promises';
import path from 'node:path';
import { backupName, backupOwner, backupStamp } from '../../lib/store/backup-names';
import { createFileStore, type FileStore } from '../../lib/store/file/file-store';
import { B1, backupSuite } from './backup-suite';
import { codeOf, listFiles, tempFolder, xml } from './helpers';

const dir = tempFolder();

describe('names', () => {
  test('backupName, backupOwner, backupStamp', () => {
    expect(backupName('db', Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('db-2026-01-02-03-04-05');
    expect(backupOwner('my-db-2026-01-02-03-04-05')).toBe('my-db');
    expect(backupOwner('my-db')).toBe('my-db');
    expect(backupStamp('db-2026-01-02-03-04-05')).toBe('-2026-01-02-03-04-05');
    expect(backupStamp('db')).toBe('');
  });
});

describe('backups, on files', () => {
  backupSuite({ open: () => createFileStore(dir.path), folder: () => dir.path });
});

describe('backup files', () => {
  let store: FileStore;

  beforeEach(async () => {
    store = await createFileStore(dir.path);
  });
  afterEach(async () => {
    await store.close();
  });

  test('a corrupt backup catalog fails while staging: the database stays as it was', async () => {
    await store.write(['db'], async (w) => {
      await w.createDatabase('db');
      await w.putResource('db', 'a.xml', xml('<a/>'));
      await w.createBackup('db', B1);
    });
    const shards = (await listFiles(path.join(dir.path, '.backups.', B1))).filter((f) => /shard-/.test(f));
    await fs.writeFile(path.join(dir.path, '.backups.', B1, shards[0]), '{"entries": 42}');
    expect(await codeOf(() => store.write(['db'], (w) => w.restoreBackup(B1, 'db')))).toBe('CATALOG_CORRUPT_XX');
    const paths = await store.read(['db'], async (r) => (await r.listResources('db')).map((x) => x.path));
    expect(paths).toStrictEqual(['a.xml']);
  });
});
