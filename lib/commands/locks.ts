/**
 * Database locks named by command arguments: glob patterns of databases and names of backups.
 * The command table (defs/) builds each command's requirements from them.
 */
import { isGlob, patternList } from '../glob';
import { backupOwner } from '../store/backup-names';
import type { LockSet } from '../store/types';

/** Database locks for a glob pattern: `a,b` names two databases; a `*` or `?` needs all. */
export function patternLocks(pattern: string): LockSet {
  const parts = patternList(pattern);
  return parts.some(isGlob) ? '*' : parts;
}

/**
 * Locks for a backup name or a database name standing for its backups (RESTORE, ALTER BACKUP):
 * the database of the backup, and the name itself where it differs (a database may be named
 * like a backup, and its backups are addressed by its name).
 */
export function backupLocks(name: string): readonly string[] {
  const db = backupOwner(name);
  return db === name ? [name] : [db, name];
}

/** Locks for a backup pattern (DROP BACKUP): `backupLocks` of each name; a `*` or `?` needs all. */
export function backupPatternLocks(pattern: string): LockSet {
  const locks = patternLocks(pattern);
  return locks === '*' ? '*' : locks.flatMap(backupLocks);
}
