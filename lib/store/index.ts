/**
 * The store as the engine and the layers above see it: the seam (types.ts) and the rules every
 * store shares (names and paths, media types, index kinds, database properties, errors, locks).
 * The engine reaches the store only through this module, types.ts and the store's side in a
 * worker (cache/index.ts); what lies behind them is each store's own (file/: the embedded file-tree store,
 * postgres/), chosen once by operations/composition-root.ts.
 */
export type * from './types';
export { STORE_ERRORS, type StoreErrorKey } from './store-errors';
export {
  USERS_FILE,
  isValidDatabaseName,
  checkDatabaseName,
  normalizePath,
  checkPath,
  checkResourcePath,
  isAtOrBelow,
  compareNames,
} from './resource-names';
export { OCTET_STREAM, suffixOf, mediaTypeOf, xmlContentTypeOf, contentTypeOf } from './media-types';
export {
  INDEX_KINDS,
  VALUE_INDEX_KINDS,
  hasFullTextIndex,
  hasValueIndex,
  unsupportedIndexSetting,
  type IndexKind,
  type ValueIndexKind,
} from './index-kinds';
export { databaseProperties, type PropertySection, type PropertyValue } from './database-properties';
export { LockManager, type LockMode } from './locks';
