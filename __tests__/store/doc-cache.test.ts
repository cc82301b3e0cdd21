import { DocCache } from '../../lib/store/doc-cache';

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

  test('stays within maxSize (source bytes) and skips documents larger than it', () => {
    const cache = new DocCache<{ text: string }>({ maxSize: 100 });
    for (let i = 0; i < 50; i++) cache.get({ db: 'db', path: `d${i}` }, 'e', 'x'.repeat(30), parse);
    expect(cache.size).toBeLessThanOrEqual(100);
    expect(cache.count).toBe(3);
    cache.get({ db: 'db', path: 'big' }, 'e', 'x'.repeat(101), parse);
    expect(cache.has({ db: 'db', path: 'big' }, 'e')).toBe(false);
    expect(() => new DocCache({ maxSize: 0 })).toThrow(RangeError);
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
});
