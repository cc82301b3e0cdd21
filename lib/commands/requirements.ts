/**
 * What a command needs before it runs (style: "Permission and locks come first"): the global
 * permission (spec §13.2, §15.1 table) and the databases it reads and writes. The runner checks
 * the permission, takes the locks in sorted order, then runs the command. Queries and scripts
 * cannot be judged from the command alone: they carry an `analyse` marker, and the executor adds
 * what analysing the query or script tells.
 */
import { backupOwner } from '../store/backups';
import type { LockSet } from '../store/types';
import { rank, type Permission } from '../users/permissions';
import type { Command } from './types';

/** A query or script whose permission and locks the executor must work out. */
export type Analysis =
  | { readonly kind: 'query'; readonly query: string; readonly currentDb?: string }
  | { readonly kind: 'script'; readonly script: string; readonly currentDb?: string }
  | { readonly kind: 'file'; readonly file: string; readonly currentDb?: string };

export interface Requirements {
  readonly perm: Permission;
  /** Databases read (shared locks); `'*'` = all. */
  readonly reads: LockSet;
  /** Databases written (exclusive locks); `'*'` = all. */
  readonly writes: LockSet;
  /** Present for XQUERY, RUN and EXECUTE: the base values above are a lower bound. */
  readonly analyse?: Analysis;
}

export interface ScriptRequirements {
  readonly perm: Permission;
  readonly reads: LockSet;
  /** Never lists a database that `writes` holds (a write lock covers reading). */
  readonly writes: LockSet;
  /** Queries and scripts inside, in order, each with the database opened at that point. */
  readonly analyses: readonly Analysis[];
}

const NONE: readonly string[] = [];

function req(perm: Permission, reads: LockSet = NONE, writes: LockSet = NONE): Requirements {
  return { perm, reads, writes };
}

/** The opened database as a lock list; empty without one (the command then fails when run). */
function current(db: string | undefined): readonly string[] {
  return db === undefined ? NONE : [db];
}

/** Database locks for a glob pattern: `a,b` names two databases; a `*` or `?` needs all. */
export function patternLocks(pattern: string): LockSet {
  const parts = pattern.split(',').filter((p) => p !== '');
  return parts.some((p) => /[*?]/.test(p)) ? '*' : parts;
}

/** The database a backup name belongs to: `db-2026-01-01-10-00-00` → `db`. */
export function backupDatabase(name: string): string {
  return backupOwner(name);
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

/**
 * Permission and locks of one command. `currentDb` is the database opened when it runs; `user` is
 * the name of the user running it (only ALTER PASSWORD of oneself depends on it).
 */
export function requirements(cmd: Command, currentDb?: string, user?: string): Requirements {
  const cur = current(currentDb);
  switch (cmd.kind) {
    case 'createDb':
      return req('create', NONE, [cmd.name]);
    case 'dropDb':
      return req('create', NONE, patternLocks(cmd.pattern));
    case 'alterDb':
      return req('create', NONE, [cmd.name, cmd.newName]);
    case 'copy':
      return req('create', [cmd.name], [cmd.newName]);
    case 'open':
      return req('read', [cmd.name]);
    case 'check':
      return req('read', [cmd.input]);
    case 'close':
    case 'info':
    case 'set':
    case 'showOptions':
    case 'password':
    case 'showUsers':
    case 'help':
    case 'exit':
      return req('none');
    case 'list':
      return cmd.name === undefined ? req('none', '*') : req('read', [cmd.name]);
    case 'dir':
    case 'infoDb':
    case 'infoIndex':
    case 'infoStorage':
    case 'inspect':
    case 'get':
    case 'binaryGet':
    case 'find':
      return req('read', cur);
    case 'export':
      return req('create', cur);
    case 'optimize':
    case 'flush':
    case 'createIndex':
    case 'dropIndex':
    case 'binaryPut':
    case 'add':
    case 'put':
    case 'delete':
    case 'rename':
      return req('write', NONE, cur);
    case 'xquery':
      return { ...req('none', cur), analyse: { kind: 'query', query: cmd.query, currentDb } };
    case 'execute':
      return { ...req('none'), analyse: { kind: 'script', script: cmd.script, currentDb } };
    case 'run':
      return { ...req('none'), analyse: { kind: 'file', file: cmd.file, currentDb } };
    case 'alterPassword':
      return req(user !== undefined && cmd.name === user ? 'none' : 'admin');
    case 'createUser':
    case 'dropUser':
    case 'alterUser':
    case 'grant':
    case 'showSessions':
    case 'kill':
    case 'jobsList':
    case 'jobsStop':
    case 'jobsResult':
    case 'repoInstall':
    case 'repoDelete':
    case 'repoList':
    case 'test':
      return req('admin');
    // Backups change under the write locks of their databases (the store checks them).
    case 'createBackup':
      return req('create', NONE, cmd.pattern === undefined ? '*' : patternLocks(cmd.pattern));
    case 'restore':
      return req('create', NONE, cmd.name === undefined ? '*' : backupLocks(cmd.name));
    case 'dropBackup':
      return req('create', NONE, backupPatternLocks(cmd.pattern));
    case 'alterBackup':
      return req('create', NONE, [...backupLocks(cmd.name), ...backupLocks(cmd.newName)]);
    case 'showBackups':
      return req('create');
    default: {
      const unreachable: never = cmd;
      throw new Error(`Unhandled command ${(unreachable as Command).kind}`);
    }
  }
}

function union(a: LockSet, b: LockSet): LockSet {
  if (a === '*' || b === '*') return '*';
  return [...a, ...b];
}

function normalise(set: LockSet, minus: LockSet = NONE): LockSet {
  if (set === '*') return '*';
  if (minus === '*') return NONE;
  const drop = new Set(minus);
  return [...new Set(set)].filter((d) => !drop.has(d)).sort();
}

/** The database a command leaves opened for the commands after it. */
function openedAfter(cmd: Command, db: string | undefined): string | undefined {
  switch (cmd.kind) {
    case 'open':
      return cmd.name;
    case 'check':
      return cmd.input;
    case 'close':
      return undefined;
    default:
      return db;
  }
}

/**
 * Requirements of a script, known before its first command runs: the highest permission and the
 * union of all locks. OPEN (and CHECK) change the opened database for the commands after them;
 * CLOSE closes it.
 */
export function mergeRequirements(
  cmds: readonly Command[],
  currentDb?: string,
  user?: string,
): ScriptRequirements {
  let perm: Permission = 'none';
  let reads: LockSet = NONE;
  let writes: LockSet = NONE;
  const analyses: Analysis[] = [];
  let db = currentDb;
  for (const cmd of cmds) {
    const r = requirements(cmd, db, user);
    if (rank(r.perm) > rank(perm)) perm = r.perm;
    reads = union(reads, r.reads);
    writes = union(writes, r.writes);
    if (r.analyse !== undefined) analyses.push(r.analyse);
    db = openedAfter(cmd, db);
  }
  const w = normalise(writes);
  return { perm, reads: normalise(reads, w), writes: w, analyses };
}
