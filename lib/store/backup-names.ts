/**
 * Names of backups, the same for every store: a backup is named after its database and the time
 * it was taken (`db-YYYY-MM-DD-HH-MM-SS`), and its name is a valid database name.
 */
import { raise } from '../xmldb-error';
import { STORE_ERRORS } from './store-errors';
import { isValidDatabaseName } from './resource-names';

/** The timestamp that ends the name of a backup: `-YYYY-MM-DD-HH-MM-SS`. */
const STAMP = /-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}$/;

/** The database a backup belongs to: its name without the timestamp (`db-2026-01-01-10-00-00` → `db`). */
export function backupOwner(name: string): string {
  return name.replace(STAMP, '');
}

/** The timestamp of a backup name (`-2026-01-01-10-00-00`), or '' for a name without one. */
export function backupStamp(name: string): string {
  return STAMP.exec(name)?.[0] ?? '';
}

/** The backup name of database `db` at time `ms`: `db-YYYY-MM-DD-HH-MM-SS` (UTC). */
export function backupName(db: string, ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  return `${db}-${date}-${two(d.getUTCHours())}-${two(d.getUTCMinutes())}-${two(d.getUTCSeconds())}`;
}

/** Answers `name` if it can name a backup (a valid database name); INVALID_DB_NAME_X otherwise. */
export function checkBackupName(name: string): string {
  if (!isValidDatabaseName(name)) throw raise(STORE_ERRORS, 'INVALID_DB_NAME_X', name);
  return name;
}

/** Orders backup names by code units (a database's backups oldest first). */
export function compareBackupNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
