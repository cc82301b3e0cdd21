/**
 * The cache that keeps a value from its key's second offer on (threads/second-sight-cache.ts),
 * and its use for the compiled plans of engine:leaf-tuples.
 */
import { SecondSightCache } from '../../lib/threads/second-sight-cache';

describe('SecondSightCache', () => {
  it('keeps nothing for a key offered once, and keeps it from the second offer on', () => {
    const cache = new SecondSightCache<string>(4);
    cache.offer('plan a', 'first');
    expect(cache.has('plan a')).toBe(false);
    expect(cache.get('plan a')).toBeUndefined();
    cache.offer('plan a', 'second');
    expect(cache.has('plan a')).toBe(true);
    expect(cache.get('plan a')).toBe('second');
  });

  it('keeps null values (a plan that declines is remembered as such)', () => {
    const cache = new SecondSightCache<string | null>(4);
    cache.offer('k', null);
    cache.offer('k', null);
    expect(cache.has('k')).toBe(true);
    expect(cache.get('k')).toBeNull();
  });

  it('never answers one key with the value of another, whatever their hashes', () => {
    const cache = new SecondSightCache<number>(1000);
    const keys = Array.from({ length: 500 }, (_, i) => `for $i in 1 to ${i} return $i`);
    for (const [i, key] of keys.entries()) cache.offer(key, i);
    for (const [i, key] of keys.entries()) cache.offer(key, i);
    for (const [i, key] of keys.entries()) expect(cache.get(key)).toBe(i);
    expect(cache.get('for $i in 1 to 500 return $i')).toBeUndefined();
  });

  it('holds at most `size` values, evicting the least recently used', () => {
    const cache = new SecondSightCache<number>(3);
    for (const key of ['a', 'b', 'c']) {
      cache.offer(key, 1);
      cache.offer(key, 2);
    }
    expect(cache.get('a')).toBe(2); // b is now the least recently used
    cache.offer('d', 1);
    cache.offer('d', 2);
    expect(['a', 'b', 'c', 'd'].filter((k) => cache.has(k))).toEqual(['a', 'c', 'd']);
    cache.offer('a', 3); // a value offered again replaces the kept one
    expect(cache.get('a')).toBe(3);
    expect(['a', 'b', 'c', 'd'].filter((k) => cache.has(k))).toEqual(['a', 'c', 'd']);
  });

  it('remembers at most `remembered` keys seen once: older ones are first sights again', () => {
    const cache = new SecondSightCache<number>(10, 2);
    cache.offer('a', 1);
    cache.offer('b', 1);
    cache.offer('c', 1); // the set of seen keys was full: it starts again with c
    cache.offer('a', 2);
    expect(cache.has('a')).toBe(false);
    cache.offer('c', 2);
    expect(cache.get('c')).toBe(2);
  });

  it('replaces a kept value even after the seen keys started again', () => {
    const cache = new SecondSightCache<number>(10, 1);
    cache.offer('a', 1);
    cache.offer('a', 2);
    cache.offer('b', 1); // the set of seen keys starts again with b: a is no longer in it
    cache.offer('a', 3); // a plan compiled again for other parameter names
    expect(cache.get('a')).toBe(3);
  });
});
