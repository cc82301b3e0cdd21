import fs from 'node:fs/promises';
import path from 'node:path';
import {
  Catalog,
  CATALOG_DIR,
  newMeta,
  parseMeta,
  parseShard,
  SHARD_COUNT,
  SHARD_ENTRIES,
  shardCountFor,
  shardOf,
  type CatalogEntry,
} from '../../lib/store/file/catalog';
import { createFileStore } from '../../lib/store/file/file-store';
import { codeOf, tempFolder, xml } from './helpers';

const dir = tempFolder();

/** Inode and size of every file in a folder. */
/** The files of a catalog folder with their content (a commit writes catalog files in place). */
async function snapshot(folder: string): Promise<Map<string, { text: string; size: number }>> {
  const result = new Map<string, { text: string; size: number }>();
  for (const name of await fs.readdir(folder)) {
    const text = await fs.readFile(path.join(folder, name), 'utf8');
    result.set(name, { text, size: Buffer.byteLength(text) });
  }
  return result;
}

describe('catalog', () => {
  test('shards are stable and spread', () => {
    expect(shardOf('a.xml', SHARD_COUNT)).toBe(shardOf('a.xml', SHARD_COUNT));
    const used = new Set(Array.from({ length: 1000 }, (_, i) => shardOf(`doc${i}.xml`, SHARD_COUNT)));
    expect(used.size).toBe(SHARD_COUNT);
  });

  test('validation refuses what a plain JSON parse would trust', async () => {
    const good = { type: 'xml', contentType: 'application/xml', size: 2, bytes: 4, modified: 1, etag: 'e' };
    const shard = shardOf('a.xml', 4);
    expect(parseShard(JSON.stringify({ entries: { 'a.xml': good } }), 'f', shard, 4).entries['a.xml']).toEqual(good);
    const bad = [
      'not json',
      '[]',
      JSON.stringify({ entries: { 'a.xml': { ...good, type: 'other' } } }),
      JSON.stringify({ entries: { 'a.xml': { ...good, size: -1 } } }),
      JSON.stringify({ entries: { '../x': good } }),
      JSON.stringify({ entries: { 'a.xml': { ...good, etag: '' } } }),
    ];
    for (const text of bad) expect(await codeOf(() => parseShard(text, 'f', shard, 4))).toBe('CATALOG_CORRUPT_XX');
    const wrongShard = (shard + 1) % 4;
    expect(await codeOf(() => parseShard(JSON.stringify({ entries: { 'a.xml': good } }), 'f', wrongShard, 4))).toBe(
      'CATALOG_CORRUPT_XX',
    );
    expect(await codeOf(() => parseMeta('{"format":2}', 'm'))).toBe('CATALOG_CORRUPT_XX');
  });

  test('paths such as __proto__ are plain keys', async () => {
    const store = await createFileStore(dir.path);
    await store.write(['db'], async (w) => {
      await w.createDatabase('db');
      await w.putResource('db', '__proto__', xml('<p/>'));
      await w.putResource('db', 'constructor', xml('<c/>'));
    });
    const reopened = await createFileStore(dir.path);
    expect((await reopened.read(['db'], (r) => r.listResources('db'))).map((r) => r.path)).toEqual([
      '__proto__',
      'constructor',
    ]);
    const loaded = await Catalog.load(path.join(dir.path, 'db'), SHARD_COUNT);
    expect(loaded.get('toString')).toBeUndefined();
    expect(loaded.count).toBe(2);
  });

  test('a put into a database of 10,000 resources rewrites one small shard, not the catalog', async () => {
    // The catalog of a database holding 10,000 resources (their files are not needed here).
    const db = path.join(dir.path, 'db');
    const entries = new Map<string, CatalogEntry>();
    for (let i = 0; i < 10_000; i++) {
      entries.set(`dir${i % 20}/doc${i}.xml`, {
        type: 'xml',
        contentType: 'application/xml',
        size: 3,
        bytes: 14,
        modified: Date.now(),
        etag: `etag-${i}`,
      });
    }
    // as many shard files as a database of 10,000 resources has (shardCountFor)
    const count = shardCountFor(entries.size, SHARD_COUNT);
    expect(count).toBe(128);
    const meta = { ...newMeta({}, Date.now()), resources: entries.size, size: entries.size * 14, shards: count };
    await Catalog.of(db, entries, count).write(db, meta);

    const store = await createFileStore(dir.path);
    expect(await store.read(['db'], (r) => r.database('db'))).toMatchObject({ resources: 10_000 });
    const folder = path.join(db, CATALOG_DIR);
    const before = await snapshot(folder);
    const catalogBytes = [...before.values()].reduce((sum, f) => sum + f.size, 0);
    await store.write(['db'], (w) => w.putResource('db', 'dir3/new.xml', xml('<new/>')));
    const after = await snapshot(folder);
    const rewritten = [...after].filter(([name, f]) => before.get(name)?.text !== f.text);
    const rewrittenBytes = rewritten.reduce((sum, [, f]) => sum + f.size, 0);
    // meta.json and the one shard holding the new path, a small fraction of the catalog
    expect(rewritten.map(([name]) => name).sort()).toEqual(
      [`shard-${shardOf('dir3/new.xml', count).toString(16).padStart(2, '0')}.json`, 'meta.json'].sort(),
    );
    expect(catalogBytes).toBeGreaterThan(1_000_000);
    expect(rewrittenBytes).toBeLessThan(catalogBytes / 20);
    expect(await store.read(['db'], (r) => r.database('db'))).toMatchObject({ resources: 10_001 });
    expect((await store.read(['db'], (r) => r.listResources('db', 'dir3'))).length).toBe(501);

    // a conflict check against 10,000 resources, and a delete, touch no more than that
    expect(await codeOf(() => store.write(['db'], (w) => w.putResource('db', 'dir3', xml('<x/>'))))).toBe(
      'PATH_CONFLICT_XX',
    );
    const snap2 = await snapshot(folder);
    await store.write(['db'], (w) => w.deleteResources('db', 'dir3/new.xml'));
    const changed = [...(await snapshot(folder))].filter(([name, f]) => snap2.get(name)?.text !== f.text);
    expect(changed).toHaveLength(2);
    await store.close();
  });

  test('a commit that would put more than SHARD_ENTRIES resources per shard file doubles the files, all in that commit', async () => {
    // the catalog of a database at the limit (its files are not needed here)
    const db = path.join(dir.path, 'grow');
    const full = SHARD_COUNT * SHARD_ENTRIES;
    const entries = new Map<string, CatalogEntry>();
    for (let i = 0; i < full; i++) {
      entries.set(`d${i % 7}/r${i}.xml`, { type: 'xml', contentType: 'application/xml', size: 2, bytes: 10, modified: Date.now(), etag: `etag-${i}` });
    }
    await Catalog.of(db, entries, SHARD_COUNT).write(db, { ...newMeta({}, Date.now()), resources: full, size: full * 10 });
    const store = await createFileStore(dir.path);
    const folder = path.join(db, CATALOG_DIR);
    const shardFiles = async () => (await fs.readdir(folder)).filter((f) => f.startsWith('shard-')).length;
    const meta = async () => JSON.parse(await fs.readFile(path.join(folder, 'meta.json'), 'utf8')) as { shards: number; resources: number };
    expect(await meta()).toMatchObject({ shards: SHARD_COUNT, resources: full });
    // two more resources, one replaced and one deleted in the same commit: one over the limit
    await store.write(['grow'], async (w) => {
      await w.putResource('grow', 'd0/over.xml', xml('<over/>'));
      await w.putResource('grow', 'd4/over.xml', xml('<over/>'));
      await w.putResource('grow', 'd1/r1.xml', xml('<again/>'));
      await w.deleteResources('grow', 'd2/r2.xml');
    });
    expect(await meta()).toMatchObject({ shards: 2 * SHARD_COUNT, resources: full + 1 });
    expect(await shardFiles()).toBe(2 * SHARD_COUNT);
    const check = async (s: typeof store) => {
      expect(await s.read(['grow'], (r) => r.database('grow'))).toMatchObject({ resources: full + 1 });
      expect((await s.read(['grow'], (r) => r.listResources('grow', 'd0'))).length).toBe(Math.ceil(full / 7) + 1);
      expect(await s.read(['grow'], (r) => r.listResources('grow', 'd2/r2.xml'))).toEqual([]);
      expect((await s.read(['grow'], (r) => r.readBytes('grow', 'd1/r1.xml'))).toString()).toBe('<again/>');
      expect((await s.read(['grow'], (r) => r.readBytes('grow', 'd0/over.xml'))).toString()).toBe('<over/>');
    };
    await check(store);
    // the next put rewrites one shard of the new layout
    const before = await snapshot(folder);
    await store.write(['grow'], (w) => w.putResource('grow', 'd3/next.xml', xml('<next/>')));
    const rewritten = [...(await snapshot(folder))].filter(([name, f]) => before.get(name)?.text !== f.text).map(([name]) => name);
    expect(rewritten.sort()).toEqual([`shard-${shardOf('d3/next.xml', 2 * SHARD_COUNT).toString(16).padStart(2, '0')}.json`, 'meta.json'].sort());
    await store.write(['grow'], (w) => w.deleteResources('grow', 'd3/next.xml'));
    await store.close();
    // read back from disk: every shard file validates against the new count
    const reopened = await createFileStore(dir.path);
    await check(reopened);
    await reopened.close();
  });
});
