import fs from 'node:fs/promises';
import path from 'node:path';
import * as catalog from '../../../lib/store/file/catalog';
import { createFileStore } from '../../../lib/store/file/file-store';
import { SyncReader } from '../../../lib/store/cache/sync-reader';
import { bin, codeOf, tempFolder, xml } from '../helpers';

const dir = tempFolder();

afterEach(() => jest.restoreAllMocks());

describe('sync reader', () => {
  test('sees what the async store wrote, and re-reads a catalog only when it changed', async () => {
    const store = await createFileStore(dir.path);
    await store.write(['db', 'other'], async (w) => {
      await w.createDatabase('db', { stripws: true });
      await w.createDatabase('other');
      await w.putResource('db', 'a.xml', xml('<a/>', 2));
      await w.putResource('db', 'd/b.png', bin('png!'));
    });
    const reader = new SyncReader(dir.path);
    expect(reader.listDatabases().map((d) => [d.name, d.resources, d.size])).toEqual([
      ['db', 2, 8],
      ['other', 0, 0],
    ]);
    const asyncList = await store.read(['db'], (r) => r.listResources('db'));
    expect(reader.listResources('db')).toEqual(asyncList);
    expect(reader.listResources('db', 'd').map((r) => r.path)).toEqual(['d/b.png']);
    expect(reader.resource('db', 'a.xml')).toEqual(asyncList[0]);
    expect(reader.readBytes('db', 'd/b.png').toString()).toBe('png!');
    expect(reader.database('db')?.options).toEqual({ stripws: true });

    const loads = jest.spyOn(catalog, 'readEntriesSync');
    reader.listResources('db');
    reader.resource('db', 'a.xml');
    expect(loads).not.toHaveBeenCalled();

    await store.write(['db'], (w) => w.putResource('db', 'a.xml', xml('<a>changed</a>', 3)));
    expect(reader.resource('db', 'a.xml')?.size).toBe(3);
    expect(reader.readBytes('db', 'a.xml').toString()).toBe('<a>changed</a>');
    expect(loads).toHaveBeenCalledTimes(1);

    // A replaced database is another incarnation, even if the generation happened to match.
    await store.write(['db'], async (w) => {
      await w.createDatabase('db');
      await w.putResource('db', 'z.xml', xml('<z/>'));
    });
    expect(reader.listResources('db').map((r) => r.path)).toEqual(['z.xml']);

    await store.write(['db'], (w) => w.dropDatabase('db'));
    expect(await codeOf(() => reader.listResources('db'))).toBe('DB_NOT_FOUND_X');
    expect(await codeOf(() => reader.readBytes('other', 'x'))).toBe('RESOURCE_NOT_FOUND_X');
    expect(reader.database('db')).toBeUndefined();
    await store.close();
  });

  test('an empty or missing data folder has no databases; stray folders are not databases', async () => {
    expect(new SyncReader(path.join(dir.path, 'missing')).listDatabases()).toEqual([]);
    await fs.mkdir(path.join(dir.path, 'stray'));
    await fs.writeFile(path.join(dir.path, 'users.json'), '{}');
    expect(new SyncReader(dir.path).listDatabases()).toEqual([]);
  });
});
