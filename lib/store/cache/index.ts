/**
 * The store's side in a query worker: the one door of the engine into store/cache/. The cache of
 * the documents a worker parsed (doc-cache.ts), and the reader a worker holds of a file store's
 * folder (sync-reader.ts), which answers through the SyncStoreReader interface of types.ts.
 */
export { DEFAULT_DOC_CACHE_BYTES, DocCache, type DocBytes, type DocCacheOptions, type DocKey } from './doc-cache';
export { SyncReader } from './sync-reader';
