/**
 * Database versions (types.ts `ReadView.versions`): the keys of the query workers' caches. They
 * change with every committed change, never come back, and the worker's direct reader of the file
 * store sees the same ones as the views.
 */
import { createFileStore } from '../../lib/store/file/file-store';
import { SyncReader } from '../../lib/store/cache/sync-reader';
import type { ReadView } from '../../lib/store/types';
import { bin, tempFolder, xml } from './helpers';

const dir = tempFolder();

const versionsOf = (view: ReadView, dbs: readonly string[] | '*' = '*') => view.versions(dbs).then((v) => Object.fromEntries(v));

describe('database versions', () => {
  test('change with every commit of the database only, and the sync reader sees the same', async () => {
    const store = await createFileStore(dir.path);
    await store.write(['a', 'b'], async (w) => {
      await w.createDatabase('a');
      await w.createDatabase('b');
    });
    const first = await store.read('*', (r) => versionsOf(r));
    expect(Object.keys(first)).toEqual(['a', 'b']);
    expect(Object.fromEntries(new SyncReader(dir.path).versions('*'))).toEqual(first);

    await store.read(['a'], (r) => r.listResources('a'));
    expect(await store.read('*', (r) => versionsOf(r))).toEqual(first);

    await store.write(['a'], (w) => w.putResource('a', 'x.xml', xml('<x/>')));
    const second = await store.read('*', (r) => versionsOf(r));
    expect(second.a).not.toBe(first.a);
    expect(second.b).toBe(first.b);
    expect(new SyncReader(dir.path).versions(['a']).get('a')).toBe(second.a);

    await store.write(['b'], (w) => w.setOptions('b', { stripws: true }));
    expect((await store.read(['b'], (r) => versionsOf(r, ['b']))).b).not.toBe(first.b);
    await store.close();
  });

  test('a replaced database never repeats a version; unknown and invalid names are left out', async () => {
    const store = await createFileStore(dir.path);
    await store.write(['a'], (w) => w.createDatabase('a'));
    const before = await store.read(['a'], (r) => versionsOf(r, ['a']));
    await store.write(['a'], async (w) => {
      await w.dropDatabase('a');
      await w.createDatabase('a');
    });
    const after = await store.read(['a', 'nope', '../x'], (r) => versionsOf(r, ['a', 'nope', '../x']));
    expect(Object.keys(after)).toEqual(['a']);
    expect(after.a).not.toBe(before.a);
    expect(new SyncReader(dir.path).versions(['a', 'nope', '../x'])).toEqual(new Map([['a', after.a]]));
    await store.close();
  });

  test('a write view answers the committed version until it stages a change, then one no state has', async () => {
    const store = await createFileStore(dir.path);
    await store.write(['a', 'b'], async (w) => {
      await w.createDatabase('a');
      await w.createDatabase('b');
    });
    const committed = await store.read('*', (r) => versionsOf(r));
    await store.write(['a', 'b'], async (w) => {
      expect(await versionsOf(w)).toEqual(committed);
      await w.putResource('a', 'x.bin', bin('x'));
      const staged = await versionsOf(w);
      expect(staged.b).toBe(committed.b);
      expect(staged.a).not.toBe(committed.a);
      // not even twice the same: nothing may cache a state that is not committed
      expect((await versionsOf(w)).a).not.toBe(staged.a);
    });
    await store.close();
  });
});

describe('the sync reader as a worker reader', () => {
  test('catalog: every resource sorted by path at the current version, read again only after a change', async () => {
    const store = await createFileStore(dir.path);
    await store.write(['db'], async (w) => {
      await w.createDatabase('db');
      await w.putResource('db', 'z.xml', xml('<z/>'));
      await w.putResource('db', 'd/a.bin', bin('a'));
    });
    const reader = new SyncReader(dir.path);
    const catalog = reader.catalog('db');
    expect(catalog.version).toBe(reader.versions(['db']).get('db'));
    expect(catalog.resources).toEqual(await store.read(['db'], (r) => r.listResources('db')));
    expect(reader.catalog('db')).toBe(catalog);
    expect(reader.read('db', ['z.xml', 'd/a.bin']).map(String)).toEqual(['<z/>', 'a']);

    await store.write(['db'], (w) => w.deleteResources('db', 'd'));
    expect(reader.catalog('db').resources.map((r) => r.path)).toEqual(['z.xml']);
    expect(() => reader.read('db', ['d/a.bin'])).toThrow("Resource 'd/a.bin' was not found.");
    expect(() => reader.catalog('nope')).toThrow("Database 'nope' was not found.");
    await store.close();
  });
});
