/**
 * Where databases and resources lie in the data folder. Every file the file store touches is
 * computed here from names and paths checked by resource-names.ts, so this is the one place that
 * proves nothing escapes the data folder.
 */
import path from 'node:path';
import { raise } from '../../xmldb-error';
import { STORE_ERRORS } from '../store-errors';
import { checkDatabaseName, checkResourcePath } from '../resource-names';

/** Folder of a database: `{dbPath}/{db}`. The name is checked. */
export function databaseFolder(dbPath: string, db: string): string {
  return inside(path.resolve(dbPath), checkDatabaseName(db));
}

/** Absolute file of a resource: `{dbPath}/{db}/{path}`. Name and path are checked and normalised. */
export function resourceFile(dbPath: string, db: string, resourcePath: string): string {
  return resourceFileIn(databaseFolder(dbPath, db), resourcePath);
}

/**
 * Absolute file of a resource of the database whose `databaseFolder` is `folder` (for readers of
 * many resources of one database: the folder is resolved and checked once). The path is checked
 * and normalised.
 */
export function resourceFileIn(folder: string, resourcePath: string): string {
  return inside(folder, checkResourcePath(resourcePath));
}

/**
 * Joins a relative path to a folder and proves the result lies strictly inside it. Inputs come
 * from the checks above, so a failure here is a bug, reported as an invalid path.
 */
export function inside(folder: string, relative: string): string {
  const result = path.resolve(folder, ...relative.split('/'));
  const rel = path.relative(folder, result);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw raise(STORE_ERRORS, 'INVALID_PATH_X', relative);
  }
  return result;
}
