/** Errors of the store (messages after BaseX's). The `_X` suffix counts the `%` arguments. */
import { entry } from '../xmldb-error';
import { MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_PATH_SEGMENTS } from './path-limits';

export const STORE_ERRORS = {
  DB_NOT_FOUND_X: entry(404, "Database '%' was not found."),
  DB_EXISTS_X: entry(400, "Database '%' already exists."),
  INVALID_DB_NAME_X: entry(400, "Invalid database name: '%'."),
  INVALID_PATH_X: entry(400, "Invalid path: '%'."),
  /** Beyond the limits every store holds; the path itself is not echoed (it may be kilobytes). */
  PATH_TOO_LONG_XXX: entry(
    400,
    `Path too long: % bytes in % segments, the longest of % bytes; a resource path has at most ${MAX_PATH_BYTES} bytes, ${MAX_PATH_SEGMENTS} segments and ${MAX_NAME_BYTES} bytes in a segment.`,
  ),
  RESOURCE_NOT_FOUND_X: entry(404, "Resource '%' was not found."),
  /** A resource cannot lie below another resource: the file tree has one name for both. */
  PATH_CONFLICT_XX: entry(400, "Path '%' conflicts with resource '%'."),
  BACKUP_NOT_FOUND_X: entry(404, 'No backup found: %.'),
  INVALID_RANGE_XX: entry(416, 'Invalid byte range: %-%.'),
  /** Programming error above the store: a write view touched a database it did not lock. */
  NOT_LOCKED_X: entry(500, "Database '%' is not locked for writing."),
  CATALOG_CORRUPT_XX: entry(500, "Catalog file '%' is corrupt: %."),
  JOURNAL_CORRUPT_XX: entry(500, "Commit journal '%' is corrupt: %."),
  STORE_CLOSED: entry(503, 'The database store is closed.'),
  /** A lock wait longer than the query time limit (locks.ts). */
  LOCK_TIMEOUT_X: entry(503, 'Timeout exceeded: the databases stayed locked for more than % ms. Try again later.'),
  /** Another store (process or router) has the data folder open (folder-lock.ts). */
  FOLDER_LOCKED_XXX: entry(503, "Data folder '%' is in use by %; it cannot be opened twice. %"),
  /** A commit could not be completed; its journal is replayed on the next start. */
  STORE_FAILED_X: entry(500, 'The database store failed and must be restarted: %'),
} as const;

export type StoreErrorKey = keyof typeof STORE_ERRORS;
