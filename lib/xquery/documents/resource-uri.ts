/**
 * How a URI in a query names a stored resource (the rule store-source.ts resolves by, and the
 * static analysis of analysis/databases.ts reads by): `db`, `db/path` or `/db/path`, backslashes counting
 * as slashes; the same below BASE_FOLDER, where relative URIs resolve by default. Any other URI
 * with a scheme is a host file or the network.
 */
import { DEFAULT_BASE_URI } from '../compile';

/** Folder of the default static base URI: `file:///xmldb-rest/`. */
export const BASE_FOLDER = DEFAULT_BASE_URI.slice(0, DEFAULT_BASE_URI.lastIndexOf('/') + 1);

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
