/**
 * How a URI in a query names a stored resource (the rule store-source.ts resolves by, and the
 * static analysis of analysis/databases.ts reads by): `db`, `db/path` or `/db/path`, backslashes
 * counting as slashes; the same below BASE_FOLDER (constants.ts), where relative URIs resolve by
 * default. Any other URI with a scheme is a host file or the network.
 */
import { isValidDatabaseName, normalizePath } from '../../store';

/** Whether `text` starts with a URI scheme (a Windows drive letter such as `C:\` is not one). */
export function hasScheme(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text) && !/^[A-Za-z]:[\\/]/.test(text);
}

/** `db/path` text split into its database name and the path below it (both as written). */
export function splitDatabasePath(text: string): { readonly db: string; readonly path: string } {
  const parts = text.replace(/\\/g, '/').replace(/^\/+/, '');
  const slash = parts.indexOf('/');
  return slash < 0 ? { db: parts, path: '' } : { db: parts.slice(0, slash), path: parts.slice(slash + 1) };
}

/** `db/path` text as a database name and normalised path ('' for the database itself); undefined if either is invalid. */
export function databaseTarget(text: string): { readonly db: string; readonly path: string } | undefined {
  const split = splitDatabasePath(text);
  const path = normalizePath(split.path);
  if (!split.db || path === undefined || !isValidDatabaseName(split.db)) return undefined;
  return { db: split.db, path };
}
