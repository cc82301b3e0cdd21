import fs from 'node:fs/promises';
import path from 'node:path';
import { createFileStore, type FileStore } from '../../lib/store/file/file-store';
import { codeOf, tempFolder, xml } from './helpers';
import { storeSuite } from './store-suite';

const dir = tempFolder();

describe('the store contract, on files', () => {
  storeSuite({ open: (options) => createFileStore(dir.path, options), folder: () => dir.path });
});

describe('files at startup', () => {
  let store: FileStore;

  beforeEach(async () => {
    store = await createFileStore(dir.path);
  });
  afterEach(async () => {
    await store.close();
  });

  test('stale temp files and work folders are swept at startup', async () => {
    await store.write(['db'], (w) => w.createDatabase('db'));
    await fs.mkdir(path.join(dir.path, 'db', 'sub'));
    await fs.writeFile(path.join(dir.path, 'db', 'sub', '.abcdefghijkl.tmp.'), 'x');
    await fs.mkdir(path.join(dir.path, '.stage-abc.'));
    await fs.mkdir(path.join(dir.path, '.trash-abc.'));
    await createFileStore(dir.path);
    expect(await fs.readdir(path.join(dir.path, 'db', 'sub'))).toEqual([]);
    expect((await fs.readdir(dir.path)).sort()).toEqual(['.store.', 'db']);
  });

  test('a corrupt catalog is refused, not trusted', async () => {
    await store.write(['db'], async (w) => {
      await w.createDatabase('db');
      await w.putResource('db', 'a.xml', xml('<a/>'));
    });
    const catalog = path.join(dir.path, 'db', '.catalog.');
    const shard = (await fs.readdir(catalog)).find((f) => f.startsWith('shard-')) as string;
    await fs.writeFile(path.join(catalog, shard), JSON.stringify({ entries: { 'a.xml': { type: 'bogus' } } }));
    const reopened = await createFileStore(dir.path);
    expect(await codeOf(() => reopened.read(['db'], (r) => r.listResources('db')))).toBe('CATALOG_CORRUPT_XX');
    await fs.writeFile(path.join(catalog, 'meta.json'), '{"format":1');
    await expect(createFileStore(dir.path)).rejects.toMatchObject({ code: 'CATALOG_CORRUPT_XX' });
  });
});
