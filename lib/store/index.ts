/** The store: the seam (types.ts) and its embedded file-tree implementation. */
export type * from './types';
export { STORE_ERRORS, type StoreErrorKey } from './errors';
export {
  USERS_FILE,
  isValidDatabaseName,
  checkDatabaseName,
  normalizePath,
  checkPath,
  checkResourcePath,
  isAtOrBelow,
  databaseFolder,
  resourceFile,
} from './paths';
export { OCTET_STREAM, suffixOf, mediaTypeOf, xmlContentTypeOf, contentTypeOf } from './media-types';
export { AtomicWriter, writeFileAtomic } from './atomic';
export { LockManager, type LockMode } from './locks';
export { createFileStore, FileStore } from './file-store';
export { SyncReader } from './sync-reader';
export { DocCache, DEFAULT_DOC_CACHE_BYTES, type DocCacheOptions, type DocKey, type DocBytes } from './doc-cache';
