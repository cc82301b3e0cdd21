import { DocCache } from '../../../lib/store/cache/doc-cache';

const parse = (bytes: Buffer | string) => ({ text: bytes.toString() });

describe('parsed-document cache', () => {
  test('hits by (db, path, etag); a new etag parses again and replaces the old version', () => {
    const cache = new DocCache<{ text: string }>({ maxSize: 1000 });
    const parser = jest.fn(parse);
    const load = jest.fn(() => Buffer.from('<a/>'));
    const key = { db: 'db', path: 'a.xml' };
    const first = cache.get(key, 'e1', load, parser);
    expect(cache.get(key, 'e1', load, parser)).toBe(first);
    expect(parser).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledTimes(1);
    cache.get(key, 'e2', '<b/>', parser);
    expect(parser).toHaveBeenCalledTimes(2);
    expect(cache.has(key, 'e1')).toBe(false);
    expect(cache.count).toBe(1);
  });

  test('stays within maxSize (source bytes)', () => {
    const cache = new DocCache<{ text: string }>({ maxSize: 100 });
    for (let i = 0; i < 50; i++) cache.get({ db: 'db', path: `d${i}` }, 'e', 'x'.repeat(30), parse);
    expect(cache.size).toBe(90);
    expect(cache.count).toBe(3);
    expect(cache.databases()).toEqual([['db', 90]]);
    expect(() => new DocCache({ maxSize: 0 })).toThrow(RangeError);
  });

  test('keeps a document larger than maxSize alone, until the next document is parsed', () => {
    const cache = new DocCache<{ text: string }>({ maxSize: 100 });
    const parser = jest.fn(parse);
    cache.get({ db: 'a', path: 'small' }, 'e', 'x'.repeat(30), parser);
    const big = cache.get({ db: 'b', path: 'big' }, 'e', 'x'.repeat(101), parser);
    expect(cache.has({ db: 'a', path: 'small' }, 'e')).toBe(false);
    expect(cache.get({ db: 'b', path: 'big' }, 'e', 'unused', parser)).toBe(big);
    expect(parser).toHaveBeenCalledTimes(2);
    expect([cache.count, cache.size, cache.databases()]).toEqual([1, 101, [['b', 101]]]);
    cache.get({ db: 'a', path: 'small' }, 'e', 'x'.repeat(30), parser);
    expect(cache.has({ db: 'b', path: 'big' }, 'e')).toBe(false);
    expect([cache.count, cache.size, cache.databases()]).toEqual([1, 30, [['a', 30]]]);
    // evict, delete and a newer version drop it like any other document
    cache.get({ db: 'b', path: 'big' }, 'e', 'x'.repeat(101), parser);
    cache.evict('b');
    expect([cache.count, cache.size, cache.databases()]).toEqual([0, 0, []]);
    cache.get({ db: 'b', path: 'big' }, 'e2', 'x'.repeat(120), parser);
    cache.get({ db: 'b', path: 'big' }, 'e3', 'x'.repeat(130), parser);
    expect([cache.has({ db: 'b', path: 'big' }, 'e2'), cache.size]).toEqual([false, 130]);
    cache.delete({ db: 'b', path: 'big' });
    expect([cache.count, cache.size, cache.databases()]).toEqual([0, 0, []]);
  });

  test('counts source bytes per database and bumps `changes` when documents come or go', () => {
    const cache = new DocCache<{ text: string }>({ maxSize: 100 });
    const before = cache.changes;
    cache.get({ db: 'a', path: 'x' }, 'e', 'x'.repeat(40), parse);
    cache.get({ db: 'b', path: 'y' }, 'e', 'y'.repeat(20), parse);
    const after = cache.changes;
    expect(after).toBeGreaterThan(before);
    cache.get({ db: 'a', path: 'x' }, 'e', 'unused', parse);
    expect(cache.changes).toBe(after);
    // a third document pushes the least recently used one out
    cache.get({ db: 'c', path: 'z' }, 'e', 'z'.repeat(50), parse);
    expect(new Map(cache.databases())).toEqual(new Map([['a', 40], ['c', 50]]));
    cache.clear();
    expect(cache.databases()).toEqual([]);
  });

  test('evict drops one database; delete one resource', () => {
    const cache = new DocCache<{ text: string }>({ maxSize: 1000 });
    cache.get({ db: 'a', path: 'x' }, 'e', 'x', parse);
    cache.get({ db: 'a', path: 'y' }, 'e', 'y', parse);
    cache.get({ db: 'ab', path: 'x' }, 'e', 'x', parse);
    cache.evict('a');
    expect(cache.count).toBe(1);
    expect(cache.has({ db: 'ab', path: 'x' }, 'e')).toBe(true);
    cache.delete({ db: 'ab', path: 'x' });
    expect(cache.count).toBe(0);
  });

  test('parallel async misses share one load', async () => {
    const cache = new DocCache<{ text: string }>({ maxSize: 1000 });
    const load = jest.fn(async () => Buffer.from('<a/>'));
    const key = { db: 'db', path: 'a' };
    const [a, b] = await Promise.all([cache.getAsync(key, 'e', load, parse), cache.getAsync(key, 'e', load, parse)]);
    expect(a).toBe(b);
    expect(load).toHaveBeenCalledTimes(1);
    expect(await cache.getAsync(key, 'e', load, parse)).toBe(a);
  });

  test('renews documents in place: sizes, versions and the LRU order stay', () => {
    const cache = new DocCache<{ text: string }>({ maxSize: 100 });
    const a = cache.get({ db: 'db', path: 'a' }, 'e', 'x'.repeat(40), parse);
    const b = cache.get({ db: 'db', path: 'b' }, 'e', 'y'.repeat(40), parse);
    cache.lookup({ db: 'db', path: 'a' }, 'e'); // a is now the most recent
    const seen: string[] = [];
    cache.renew((doc, key, etag) => {
      seen.push(`${key.db}/${key.path}@${etag}`);
      return doc === b ? doc : { text: `${doc.text}!` };
    });
    expect(seen.sort()).toEqual(['db/a@e', 'db/b@e']);
    expect([cache.count, cache.size, cache.databases()]).toEqual([2, 80, [['db', 80]]]);
    // b, still the least recent, goes first
    cache.get({ db: 'db', path: 'c' }, 'e', 'z'.repeat(40), parse);
    expect([cache.has({ db: 'db', path: 'a' }, 'e'), cache.has({ db: 'db', path: 'b' }, 'e')]).toEqual([true, false]);
    expect(cache.lookup({ db: 'db', path: 'a' }, 'e')).toEqual({ text: `${'x'.repeat(40)}!` });
    expect(cache.lookup({ db: 'db', path: 'a' }, 'e')).not.toBe(a);
    const big = cache.get({ db: 'db', path: 'big' }, 'e', 'w'.repeat(101), parse);
    cache.renew((doc) => ({ text: doc.text.slice(0, 3) }));
    expect(cache.lookup({ db: 'db', path: 'big' }, 'e')).toEqual({ text: 'www' });
    expect(cache.lookup({ db: 'db', path: 'big' }, 'e')).not.toBe(big);
    expect(cache.size).toBe(101);
  });
});
