/**
 * Database names and resource paths (spec §1.1), the same for every store: what a name or path may
 * be, how a path is normalised, and the order names are listed in. Where they lie on disk is the
 * file store's (file/disk-paths.ts).
 *
 * Segments ending in `.` can never be part of a resource path, and names starting with `.` can
 * never be database names: the store names its internal files and folders that way.
 */
import { raise } from '../xmldb-error';
import { STORE_ERRORS } from './store-errors';
import { MAX_NAME_BYTES, pathSize, withinPathLimits } from './path-limits';

/** The users file in the data folder (users/users-file.ts). */
export const USERS_FILE = 'users.json';
/** The file holding a generated admin password (users/admin.ts). */
export const ADMIN_PASSWORD_FILE = 'admin-password.txt';

/**
 * The server's own files in the data folder, beside the store's (named with a leading or
 * trailing `.`): no database may take these names, nor names that start with one of them and a
 * dot (their temporary files), in any letter case (a file system may ignore it). Every way to
 * name a database (PUT, CREATE DB, db:create, COPY, ALTER DB, RESTORE) checks the name here.
 */
const RESERVED_NAMES = [USERS_FILE, ADMIN_PASSWORD_FILE];

function isReserved(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED_NAMES.some((r) => lower === r || lower.startsWith(`${r}.`));
}

const NAME_CHARS = /^[A-Za-z0-9_\-+=~!#$%^&()[\]{}@'`.]+$/;

/** Whether `name` is a valid database name (spec §1.1), not reserved by the data folder. */
export function isValidDatabaseName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= MAX_NAME_BYTES &&
    NAME_CHARS.test(name) &&
    !name.startsWith('.') &&
    !name.endsWith('.') &&
    !isReserved(name)
  );
}

/** Answers `name` if it is a valid database name; throws INVALID_DB_NAME_X otherwise. */
export function checkDatabaseName(name: string): string {
  if (!isValidDatabaseName(name)) throw raise(STORE_ERRORS, 'INVALID_DB_NAME_X', name);
  return name;
}

/** Whether a name is one the store uses for itself (temp files, catalog, staging): ends in `.`. */
export function isInternalName(name: string): boolean {
  return name.endsWith('.');
}

/**
 * The segments of a resource path (spec §1.1): `\` becomes `/`, empty and `.` segments are dropped,
 * `..` removes the previous segment. Undefined for a path that climbs above the root, has a
 * segment ending in `.`, or contains NUL. The limits of its size are not checked here.
 */
function segmentsOf(input: string): string[] | undefined {
  const segments: string[] = [];
  for (const segment of input.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined) return undefined;
      continue;
    }
    if (isInternalName(segment) || segment.includes('\0')) return undefined;
    segments.push(segment);
  }
  return segments;
}

/**
 * Normalises a resource path (segmentsOf). Answers undefined for an invalid path, or one beyond
 * the limits every store holds. The empty path (the database root) is valid.
 */
export function normalizePath(input: string): string | undefined {
  const segments = segmentsOf(input);
  return segments !== undefined && withinPathLimits(pathSize(segments)) ? segments.join('/') : undefined;
}

/** Normalises a resource path; throws INVALID_PATH_X if it is invalid, PATH_TOO_LONG_XXX if beyond the limits. */
export function checkPath(input: string): string {
  const segments = segmentsOf(input);
  if (segments === undefined) throw raise(STORE_ERRORS, 'INVALID_PATH_X', input);
  checkSize(segments);
  return segments.join('/');
}

/**
 * Throws PATH_TOO_LONG_XXX for a path beyond the limits; an invalid path passes (the store refuses
 * it, or finds nothing there). For checks made before any store work.
 */
export function checkPathLimits(input: string): void {
  const segments = segmentsOf(input);
  if (segments !== undefined) checkSize(segments);
}

function checkSize(segments: readonly string[]): void {
  const size = pathSize(segments);
  if (!withinPathLimits(size)) throw raise(STORE_ERRORS, 'PATH_TOO_LONG_XXX', size.bytes, size.segments, size.longest);
}

/**
 * Where a resource lands when the folder or resource holding it moves to `target` (`rest` is its
 * path below what moves): the joined path, checked against the limits, since a move may lengthen
 * every path below it. `input` is the target as given, for the error.
 */
export function movedPath(target: string, rest: string, input: string): string {
  const dest = target === '' ? rest : rest === '' ? target : `${target}/${rest}`;
  if (dest === '') throw raise(STORE_ERRORS, 'INVALID_PATH_X', input);
  checkSize(dest.split('/'));
  return dest;
}

/** Normalises a path that must name a resource (not the root); throws INVALID_PATH_X otherwise. */
export function checkResourcePath(input: string): string {
  const normalized = checkPath(input);
  if (normalized === '') throw raise(STORE_ERRORS, 'INVALID_PATH_X', input);
  return normalized;
}

/** Whether normalised `p` is `dir` itself or lies below it; everything lies below the root ''. */
export function isAtOrBelow(p: string, dir: string): boolean {
  return dir === '' || p === dir || p.startsWith(`${dir}/`);
}

/** The directories containing a normalised path, outermost first (`a/b/c` → `a`, `a/b`). */
export function ancestorsOf(p: string): string[] {
  const result: string[] = [];
  for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) result.push(p.slice(0, i));
  return result;
}

/** Orders database names case-insensitively, then by code units. */
export function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
