/**
 * A bounded cache of parsed documents, keyed by database, path and etag. A stored resource gets a
 * new etag on every write, so an entry can never be stale: at worst it is unreachable until the
 * LRU policy drops it (or until evict() or a newer etag for the same path removes it early).
 *
 * A document larger than the whole bound is still kept while it is the most recent one: it takes
 * the place of everything else (so a database of one large document is not parsed again for
 * every query), and the next document that is parsed takes its place.
 */
import { LRUCache } from 'lru-cache';

/** Default bound: source bytes of the cached documents (the router's `documentCacheSize`, README). */
export const DEFAULT_DOC_CACHE_BYTES = 16 * 1024 * 1024;

export interface DocCacheOptions {
  /** Upper bound of the summed source sizes of cached documents, in bytes. */
  readonly maxSize?: number;
}

/** Which resource a document was parsed from. */
export interface DocKey {
  readonly db: string;
  readonly path: string;
}

/** The bytes of a document, or a function that reads them (called on a miss only). */
export type DocBytes = Buffer | string | (() => Buffer | string);

interface Cached<D> {
  /** Replaced in place by `renew`. */
  doc: D;
  readonly size: number;
}

const SEP = '\u0000';

export class DocCache<D extends object> {
  private readonly lru: LRUCache<string, Cached<D>>;
  /** The one document larger than the bound, kept alone (see the file comment). */
  private oversized: (Cached<D> & { readonly id: string }) | undefined;
  /** Summed source bytes per database (oversized document included). */
  private readonly bytesByDb = new Map<string, number>();
  /** Bumped whenever a document comes or goes (so a reader of `databases()` knows when to look again). */
  changes = 0;
  /** Etag cached per `db SEP path`, so a newer version replaces the older one at once. */
  private readonly etags = new Map<string, string>();
  /** Loads in flight (getAsync), by cache key. */
  private readonly loading = new Map<string, Promise<D>>();

  constructor(options: DocCacheOptions = {}) {
    const maxSize = options.maxSize ?? DEFAULT_DOC_CACHE_BYTES;
    if (!(Number.isSafeInteger(maxSize) && maxSize > 0)) throw new RangeError('maxSize must be a positive integer.');
    this.lru = new LRUCache<string, Cached<D>>({
      maxSize,
      sizeCalculation: (value) => Math.max(1, value.size),
      dispose: (value, key, reason) => {
        const [db, path, etag] = key.split(SEP);
        this.account(db, -Math.max(1, value.size));
        if (reason === 'set') return;
        const resource = db + SEP + path;
        if (this.etags.get(resource) === etag) this.etags.delete(resource);
      },
    });
  }

  /**
   * The parsed document of `key` at version `etag`: from the cache, or parsed from `bytes` now
   * (and cached if it fits within maxSize).
   */
  get(key: DocKey, etag: string, bytes: DocBytes, parse: (bytes: Buffer | string) => D): D {
    const id = cacheKey(key, etag);
    const hit = this.entry(id);
    if (hit) return hit.doc;
    const source = typeof bytes === 'function' ? bytes() : bytes;
    const doc = parse(source);
    this.remember(key, etag, doc, typeof source === 'string' ? Buffer.byteLength(source) : source.length);
    return doc;
  }

  /** Like get, with bytes read asynchronously; parallel misses for one key share one load. */
  async getAsync(
    key: DocKey,
    etag: string,
    bytes: () => Promise<Buffer | string>,
    parse: (bytes: Buffer | string) => D | Promise<D>,
  ): Promise<D> {
    const id = cacheKey(key, etag);
    const hit = this.entry(id);
    if (hit) return hit.doc;
    let pending = this.loading.get(id);
    if (!pending) {
      pending = (async () => {
        const source = await bytes();
        const doc = await parse(source);
        this.remember(key, etag, doc, typeof source === 'string' ? Buffer.byteLength(source) : source.length);
        return doc;
      })();
      this.loading.set(id, pending);
      const done = () => this.loading.delete(id);
      pending.then(done, done);
    }
    return pending;
  }

  /** The cached document of `key` at `etag` (refreshing its LRU position), if any. */
  lookup(key: DocKey, etag: string): D | undefined {
    return this.entry(cacheKey(key, etag))?.doc;
  }

  /** Whether the document of `key` at `etag` is cached. */
  has(key: DocKey, etag: string): boolean {
    const id = cacheKey(key, etag);
    return this.oversized?.id === id || this.lru.has(id);
  }

  /** Drops the documents of one resource. */
  delete(key: DocKey): void {
    const resource = key.db + SEP + key.path;
    const etag = this.etags.get(resource);
    if (etag !== undefined) this.drop(resource + SEP + etag);
  }

  /** Drops every document of a database. */
  evict(db: string): void {
    const prefix = db + SEP;
    if (this.oversized?.id.startsWith(prefix)) this.drop(this.oversized.id);
    for (const key of [...this.lru.keys()]) if (key.startsWith(prefix)) this.lru.delete(key);
  }

  /**
   * Replaces each cached document by `renewed(doc, key, etag)` (the same content in new objects),
   * in place: sizes, versions and LRU order stay as they were.
   */
  renew(renewed: (doc: D, key: DocKey, etag: string) => D): void {
    const replace = (id: string, entry: Cached<D>) => {
      const [db, path, etag] = id.split(SEP);
      entry.doc = renewed(entry.doc, { db, path }, etag);
    };
    if (this.oversized) replace(this.oversized.id, this.oversized);
    // entries() reads without refreshing recency
    for (const [id, entry] of this.lru.entries()) replace(id, entry);
  }

  clear(): void {
    if (this.oversized) this.drop(this.oversized.id);
    this.lru.clear();
  }

  /** Number of cached documents. */
  get count(): number {
    return this.lru.size + (this.oversized ? 1 : 0);
  }

  /** Summed source bytes of the cached documents. */
  get size(): number {
    return this.lru.calculatedSize + (this.oversized ? Math.max(1, this.oversized.size) : 0);
  }

  /** Summed source bytes of the cached documents, per database. */
  databases(): [string, number][] {
    return [...this.bytesByDb];
  }

  private entry(id: string): Cached<D> | undefined {
    return this.oversized?.id === id ? this.oversized : this.lru.get(id);
  }

  private drop(id: string): void {
    if (this.oversized?.id !== id) {
      this.lru.delete(id);
      return;
    }
    const [db, path, etag] = id.split(SEP);
    this.account(db, -Math.max(1, this.oversized.size));
    this.oversized = undefined;
    if (this.etags.get(db + SEP + path) === etag) this.etags.delete(db + SEP + path);
  }

  private account(db: string, bytes: number): void {
    const total = (this.bytesByDb.get(db) ?? 0) + bytes;
    if (total > 0) this.bytesByDb.set(db, total);
    else this.bytesByDb.delete(db);
    this.changes++;
  }

  private remember(key: DocKey, etag: string, doc: D, size: number): void {
    const resource = key.db + SEP + key.path;
    const previous = this.etags.get(resource);
    if (previous !== undefined && previous !== etag) this.drop(resource + SEP + previous);
    const id = cacheKey(key, etag);
    // the newest document that is parsed takes the place of an oversized one (file comment)
    if (this.oversized) this.drop(this.oversized.id);
    if (size > this.lru.maxSize) {
      this.lru.clear();
      this.oversized = { id, doc, size };
      this.account(key.db, Math.max(1, size));
    } else {
      this.lru.set(id, { doc, size });
      if (!this.lru.has(id)) return;
      this.account(key.db, Math.max(1, size));
    }
    this.etags.set(resource, etag);
  }
}

function cacheKey(key: DocKey, etag: string): string {
  return key.db + SEP + key.path + SEP + etag;
}
