/**
 * Backups on disk: `{dbPath}/.backups./{name}/`, each a database folder (resource files and
 * `.catalog./`) as the database was when it was backed up. The folder's name ends in `.`, so it is
 * never a database; a backup's name is a valid database name, so it is a single folder name.
 *
 * A backup is built in a staging folder when it is created (hard links to the resource files, a
 * new catalog) and swapped into place by the write's commit journal, like a database folder
 * (commit.ts); dropping and renaming are journal operations too, so backups change atomically
 * with the databases of the same write.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '../../atomic-files';
import { readMeta, type DatabaseMeta } from './catalog';
import { checkBackupName } from '../backup-names';
import { isValidDatabaseName } from '../resource-names';
import { inside } from './disk-paths';
import type { BackupInfo } from '../types';

/** The folder of the backups in the data folder (ends in `.`: never a database). */
export const BACKUP_DIR = '.backups.';

/** `{dbPath}/.backups.` */
export function backupsFolder(dbPath: string): string {
  return inside(path.resolve(dbPath), BACKUP_DIR);
}

/** `{dbPath}/.backups./{name}`; the name is checked. */
export function backupFolder(dbPath: string, name: string): string {
  return inside(backupsFolder(dbPath), checkBackupName(name));
}

/** A backup as a view sees it: its info and the folder holding its files now. */
export interface BackupRecord {
  readonly info: BackupInfo;
  /** The committed backup folder, or (for one staged by a write) its staging folder. */
  readonly folder: string;
}

export function backupInfo(name: string, meta: DatabaseMeta): BackupInfo {
  return { name, resources: meta.resources, size: meta.size, modified: meta.modified };
}

/**
 * The committed backups, read from disk. Callers hold the locks of the backups' databases they
 * rely on; a backup being dropped by another write at the same time is skipped.
 */
export async function committedBackups(dbPath: string): Promise<Map<string, BackupRecord>> {
  const result = new Map<string, BackupRecord>();
  let names: string[];
  try {
    names = await fs.readdir(backupsFolder(dbPath));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return result;
    throw error;
  }
  for (const name of names) {
    if (!isValidDatabaseName(name)) continue;
    const folder = backupFolder(dbPath, name);
    let meta: DatabaseMeta | undefined;
    try {
      meta = await readMeta(folder);
    } catch (error) {
      if (errorCode(error) === 'ENOTDIR') continue;
      throw error;
    }
    if (meta) result.set(name, { info: backupInfo(name, meta), folder });
  }
  return result;
}
