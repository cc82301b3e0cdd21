/**
 * Backup commands (spec §15): CREATE BACKUP, RESTORE, DROP BACKUP, ALTER BACKUP, SHOW BACKUPS. A
 * backup is a copy of a database kept by the store (`WriteView.createBackup`, on disk in
 * `{dbPath}/.backups./{name}/`), named after the reference server: `db-YYYY-MM-DD-HH-MM-SS`
 * (UTC). Each command changes its backups atomically, under the write locks of their databases
 * (the store checks them).
 */
import { raise } from '../../xmldb-error';
import { globMatches, patternList } from '../../glob';
import { backupName, backupOwner, backupStamp } from '../../store/backup-names';
import { STORE_ERRORS } from '../../store/store-errors';
import { checkDatabaseName } from '../../store/resource-names';
import type { BackupInfo } from '../../store/types';
import { attr, defineCommand, element, needs, opt } from '../definition';
import { writer } from '../exec/context';
import { backupLocks, backupPatternLocks, patternLocks } from '../locks';
import { formatTable, sortRows } from '../table';

/** Backups of database `db` (named `db-` + timestamp), oldest first. */
function backupsOf(backups: readonly BackupInfo[], db: string): BackupInfo[] {
  return backups.filter((b) => backupStamp(b.name) !== '' && backupOwner(b.name) === db);
}

/**
 * CREATE BACKUP (pattern): backs up every database matching one of the comma-separated globs
 * (every database without a pattern), all with the same timestamp; a backup of the same name
 * (same second) is replaced. A pattern that matches no database fails (DB_NOT_FOUND_X).
 */
export const createBackup = defineCommand({
  kind: 'createBackup',
  syntax: [
    {
      words: ['CREATE', ['BACKUP']],
      parse: (p) => opt({ kind: 'createBackup', pattern: p.name(true) }),
      detail: 'BACKUP ([name]): back up the databases matching [name].',
    },
  ],
  elements: { 'create-backup': element([], ['name'], (a) => opt({ kind: 'createBackup', pattern: a.name })) },
  needs: (cmd) => needs('create', [], cmd.pattern === undefined ? '*' : patternLocks(cmd.pattern)),
  run: async (cmd, ctx) => {
    const view = writer(ctx);
    const globs = cmd.pattern === undefined ? ['*'] : patternList(cmd.pattern);
    const names = (await view.listDatabases()).map((d) => d.name).filter((n) => globs.some((p) => globMatches(p, n)));
    if (names.length === 0 && cmd.pattern !== undefined) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', cmd.pattern);
    const now = Date.now();
    for (const name of names) await view.createBackup(name, backupName(name, now));
    return '';
  },
});

/**
 * RESTORE name: `name` is a backup (`db-2026-01-01-10-00-00`), or a database whose newest backup
 * is meant. The backup's database is replaced by its content (created if it was dropped); the
 * backup stays. Without a name (the reference server's general data) or a matching backup:
 * BACKUP_NOT_FOUND_X, and nothing changes.
 */
export const restore = defineCommand({
  kind: 'restore',
  syntax: [
    {
      words: ['RESTORE'],
      parse: (p) => opt({ kind: 'restore', name: p.name(false) }),
      help: { syntax: '([name])', summary: 'Restore a backup.' },
    },
  ],
  elements: { restore: element([], ['name'], (a) => opt({ kind: 'restore', name: a.name })) },
  needs: (cmd) => needs('create', [], cmd.name === undefined ? '*' : backupLocks(cmd.name)),
  run: async (cmd, ctx) => {
    const view = writer(ctx);
    const name = cmd.name ?? '';
    const backups = await view.listBackups();
    const backup = backups.find((b) => b.name === name) ?? backupsOf(backups, name).at(-1);
    if (backup === undefined) throw raise(STORE_ERRORS, 'BACKUP_NOT_FOUND_X', name);
    await view.restoreBackup(backup.name, checkDatabaseName(backupOwner(backup.name)));
    return '';
  },
});

/**
 * DROP BACKUP pattern: drops every backup whose name, or whose database's name, matches one of the
 * comma-separated globs (`db` drops all backups of `db`, `db-2026-01-01-10-00-00` that one).
 * Patterns that match nothing are no error, as for DROP DB.
 */
export const dropBackup = defineCommand({
  kind: 'dropBackup',
  syntax: [
    {
      words: ['DROP', ['BACKUP']],
      parse: (p) => ({ kind: 'dropBackup', pattern: p.reqName(true) }),
      detail: 'BACKUP [name]: drop the backups matching [name].',
    },
  ],
  elements: { 'drop-backup': element(['name'], [], (a) => ({ kind: 'dropBackup', pattern: attr(a, 'name') })) },
  needs: (cmd) => needs('create', [], backupPatternLocks(cmd.pattern)),
  run: async (cmd, ctx) => {
    const view = writer(ctx);
    const globs = patternList(cmd.pattern);
    const matches = (b: BackupInfo) => globs.some((p) => globMatches(p, b.name) || globMatches(p, backupOwner(b.name)));
    for (const b of (await view.listBackups()).filter(matches)) await view.dropBackup(b.name);
    return '';
  },
});

/**
 * ALTER BACKUP name newname: renames one backup (`name` with its timestamp; `newname` keeps that
 * timestamp unless it has one), or every backup of database `name` to `newname` + its timestamp.
 * BACKUP_NOT_FOUND_X if there is none; an existing backup of a new name is replaced.
 */
export const alterBackup = defineCommand({
  kind: 'alterBackup',
  syntax: [
    {
      words: ['ALTER', ['BACKUP']],
      parse: (p) => ({ kind: 'alterBackup', name: p.reqName(), newName: p.reqName() }),
      detail: 'BACKUP [name] [newname]: rename backups.',
    },
  ],
  elements: {
    'alter-backup': element(['name', 'newname'], [], (a) => ({ kind: 'alterBackup', name: attr(a, 'name'), newName: attr(a, 'newname') })),
  },
  needs: (cmd) => needs('create', [], [...backupLocks(cmd.name), ...backupLocks(cmd.newName)]),
  run: async (cmd, ctx) => {
    const view = writer(ctx);
    const backups = await view.listBackups();
    const exact = backups.find((b) => b.name === cmd.name);
    const sources = exact !== undefined ? [exact] : backupsOf(backups, cmd.name);
    if (sources.length === 0) throw raise(STORE_ERRORS, 'BACKUP_NOT_FOUND_X', cmd.name);
    const target = (b: BackupInfo) =>
      exact !== undefined && backupStamp(cmd.newName) !== '' ? cmd.newName : `${cmd.newName}${backupStamp(b.name)}`;
    for (const b of sources) checkDatabaseName(backupOwner(target(b)));
    for (const b of sources) await view.renameBackup(b.name, target(b));
    return '';
  },
});

/** SHOW BACKUPS: table `Name  Size` (bytes of the backed-up resources), `N backup(s).` */
export const showBackups = defineCommand({
  kind: 'showBackups',
  syntax: [{ words: ['SHOW', ['BACKUPS']], parse: () => ({ kind: 'showBackups' }) }],
  elements: { 'show-backups': element([], [], () => ({ kind: 'showBackups' })) },
  needs: () => needs('create'),
  run: async (_cmd, ctx) => {
    const rows = (await ctx.view.listBackups()).map((b) => [b.name, String(b.size)]);
    return formatTable({ header: ['Name', 'Size'], rows: sortRows(rows), summary: '% backup(s)' });
  },
});
