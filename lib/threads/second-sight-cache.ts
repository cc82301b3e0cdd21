/**
 * A bounded cache of values made from a key (compiled plans by their text) that keeps a value
 * only when its key has been offered before: what is made for a key seen once is used once and
 * dropped, and only what repeats is kept.
 *
 * Why not keep everything, as an LRU would: in a long-lived thread, a value kept in a cache
 * outlives two minor collections and moves to the old generation, where it stays after its
 * eviction until the next full collection. A stream of never-repeated keys (new queries of new
 * shapes) then fills the old generation with evicted values, and V8 collects it in full every
 * few hundred queries. Each full collection also drops the maps (hidden classes) that no live
 * object has any more (between two queries, those of most objects a query makes), and with them
 * the optimized code that checks for those maps: the thread compiles its hot code again after
 * each one. Measured in a query worker (2,000 queries first, then counted): over 5,000
 * never-seen FLWORs of the comparison kit's row f, 4-5 full collections and about 180 optimizing
 * compilations (535 ms of compiler threads) when every compiled leaf-tuple plan was kept, none
 * and 57 (197 ms) with this; over 3,000 never-seen XPath expressions
 * (`let $vK := (1 to N) return sum($vK[. mod 3 = 0]) + …`), 3 and 200 (932 ms) when every
 * XPath plan was kept, none and 56 (180 ms) with this. A text run twice is compiled twice.
 *
 * A key is remembered by a 32-bit hash of its text: a key whose hash another key had is kept on
 * its first sight, which costs a little memory and never a wrong value (the value is still
 * looked up by its whole key).
 */
export class SecondSightCache<V> {
  private readonly kept = new Map<string, V>();
  private readonly seen = new Set<number>();

  /** `size`: values kept at most; `remembered`: hashes of keys seen once, at most. */
  constructor(
    private readonly size: number,
    private readonly remembered: number = size * 16,
  ) {}

  /** The value kept for `key`, if any (it becomes the most recently used). */
  get(key: string): V | undefined {
    const value = this.kept.get(key);
    if (value !== undefined && this.kept.size > 1) {
      // a Map iterates in insertion order: inserted again, the key is the last to be evicted
      this.kept.delete(key);
      this.kept.set(key, value);
    }
    return value;
  }

  /** Whether a value is kept for `key`. */
  has(key: string): boolean {
    return this.kept.has(key);
  }

  /**
   * Offers the value made for `key`: kept when `key` was offered before (its hash, or a value
   * kept for it, which this one replaces), evicting the least recently used value when `size`
   * are kept; else only remembered as seen (when `remembered` hashes are, that set is emptied
   * and starts again).
   */
  offer(key: string, value: V): void {
    if (!this.kept.delete(key)) {
      const hash = hashOf(key);
      if (!this.seen.has(hash)) {
        if (this.seen.size >= this.remembered) this.seen.clear();
        this.seen.add(hash);
        return;
      }
    }
    if (this.kept.size >= this.size) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, value);
  }
}

/** A 32-bit hash of the characters of `s`. */
function hashOf(s: string): number {
  let h = s.length;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}
