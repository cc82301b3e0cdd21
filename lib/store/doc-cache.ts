/**
 * A bounded cache of parsed documents, keyed by database, path and etag. A stored resource gets a
 * new etag on every write, so an entry can never be stale: at worst it is unreachable until the
 * LRU policy drops it (or until evict() or a newer etag for the same path removes it early).
 */
import { LRUCache } from 'lru-cache';

/** Default bound: source bytes of the cached documents. */
export const DEFAULT_DOC_CACHE_BYTES = 256 * 1024 * 1024;

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
  readonly doc: D;
  readonly size: number;
}

const SEP = '\u0000';

export class DocCache<D extends object> {
  private readonly lru: LRUCache<string, Cached<D>>;
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
      dispose: (_value, key, reason) => {
        if (reason === 'set') return;
        const [db, path, etag] = key.split(SEP);
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
    const hit = this.lru.get(id);
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
    const hit = this.lru.get(id);
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
    return this.lru.get(cacheKey(key, etag))?.doc;
  }

  /** Whether the document of `key` at `etag` is cached. */
  has(key: DocKey, etag: string): boolean {
    return this.lru.has(cacheKey(key, etag));
  }

  /** Drops the documents of one resource. */
  delete(key: DocKey): void {
    const resource = key.db + SEP + key.path;
    const etag = this.etags.get(resource);
    if (etag !== undefined) this.lru.delete(resource + SEP + etag);
  }

  /** Drops every document of a database. */
  evict(db: string): void {
    const prefix = db + SEP;
    for (const key of [...this.lru.keys()]) if (key.startsWith(prefix)) this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }

  /** Number of cached documents. */
  get count(): number {
    return this.lru.size;
  }

  /** Summed source bytes of the cached documents. */
  get size(): number {
    return this.lru.calculatedSize;
  }

  private remember(key: DocKey, etag: string, doc: D, size: number): void {
    const resource = key.db + SEP + key.path;
    const previous = this.etags.get(resource);
    if (previous !== undefined && previous !== etag) this.lru.delete(resource + SEP + previous);
    if (size > this.lru.maxSize) return;
    this.lru.set(cacheKey(key, etag), { doc, size });
    if (this.lru.has(cacheKey(key, etag))) this.etags.set(resource, etag);
  }
}

function cacheKey(key: DocKey, etag: string): string {
  return key.db + SEP + key.path + SEP + etag;
}
