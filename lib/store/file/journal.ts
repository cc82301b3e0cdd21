/**
 * The commit journal: the list of file operations that applies one write. It is made durable
 * before the first operation (a record of the commit log, commit-log.ts; a journal file of its
 * own in data folders of earlier versions) and kept until the files it changed are flushed, so a
 * crash in between is finished by replaying it at startup. Every operation is idempotent, so a
 * replay may repeat work done:
 * - rename: a staged temp file (unique name) into place; skipped once the temp is gone. With
 *   `data` (the content, base64) the temp needs no flush: a replay writes `data` to the target;
 * - write: `data` (base64) written over a catalog file in place, with no temp and no rename. It
 *   runs only once its journal is durable, so a file left torn by a crash is written whole again
 *   by the replay; readers never see it part way, since they hold the database's lock. Never a
 *   resource file: those may be hard links shared with backups (atomic-files.ts `linkOrCopy`);
 * - delete: a resource file (then empty parent folders are pruned);
 * - swapDir: a staged database folder into place, the old one to a trash folder; skipped once the
 *   stage is gone; the trash is removed;
 * - dropDir: a database folder to a trash folder, which is removed.
 * Paths are stored relative to the data folder, with `/`.
 */
import { renameSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { raise } from '../../xmldb-error';
import { contentDigest, errorCode, overwriteFileSync, pruneEmptyDirs, renameWithRetry } from '../../atomic-files';
import { randomId } from '../random-id';
import { STORE_ERRORS } from '../store-errors';
import { inside } from './disk-paths';

/** Store-internal folder in the data folder (journals). */
export const STORE_DIR = '.store.';

const JOURNAL_PATTERN = /^journal-[A-Za-z0-9_-]+\.json$/;

export type JournalOp =
  | { readonly op: 'rename'; readonly from: string; readonly to: string; readonly digest?: string; readonly data?: string }
  | { readonly op: 'write'; readonly file: string; readonly data: string }
  | { readonly op: 'delete'; readonly file: string; readonly root: string }
  | { readonly op: 'swapDir'; readonly stage: string; readonly target: string; readonly trash: string }
  | { readonly op: 'dropDir'; readonly target: string; readonly trash: string };

/** Turns an absolute path below the data folder into a journal path. */
export function journalPath(dbPath: string, absolute: string): string {
  const relative = path.relative(path.resolve(dbPath), absolute);
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    throw new Error(`Not inside the data folder: ${absolute}`);
  }
  return relative.split(path.sep).join('/');
}

/**
 * Writes a journal for `ops` under a new name, flushed; answers its file. It needs no temp file:
 * no operation starts before the flush returns, so a journal cut short by a crash was never acted
 * on, and the next start discards it (see replayJournals). On ext4-like file systems the flush
 * of a new file also makes its name durable, ahead of the renames that follow.
 */
export async function writeJournal(dbPath: string, ops: readonly JournalOp[]): Promise<string> {
  const folder = path.join(dbPath, STORE_DIR);
  const file = path.join(folder, `journal-${randomId()}.json`);
  const text = JSON.stringify({ ops });
  const write = async () => {
    const handle = await fs.open(file, 'wx');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
  };
  try {
    await write();
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    await fs.mkdir(folder, { recursive: true });
    await write();
  }
  return file;
}

/** Deletes a journal whose operations were all applied. */
export async function removeJournal(file: string): Promise<void> {
  try {
    await fs.unlink(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

/** Finishes every journal left by an interrupted commit; answers how many were replayed. */
export async function replayJournals(dbPath: string): Promise<number> {
  const folder = path.join(dbPath, STORE_DIR);
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 0;
    throw error;
  }
  let replayed = 0;
  for (const name of names.filter((n) => JOURNAL_PATTERN.test(n)).sort()) {
    const file = path.join(folder, name);
    const text = await fs.readFile(file, 'utf8');
    const ops = isTorn(text) ? undefined : parseJournal(text, file, dbPath);
    if (ops === undefined || !(await tempsComplete(dbPath, ops))) {
      // Cut short by a crash before its flushes completed: nothing of it was applied.
      for (const op of ops ?? []) if (op.op === 'rename') await fs.rm(inside(path.resolve(dbPath), op.from), { force: true });
      await fs.rm(file, { force: true });
      continue;
    }
    await applyOps(dbPath, ops, true);
    await fs.rm(file, { force: true });
    replayed++;
  }
  return replayed;
}

/**
 * Whether every renamed temp of a journal is complete: its content (or, once renamed, its
 * target's) matches the recorded digest. Operations start only after all flushes completed, so a
 * single mismatch means none has started.
 */
async function tempsComplete(dbPath: string, ops: readonly JournalOp[]): Promise<boolean> {
  const root = path.resolve(dbPath);
  for (const op of ops) {
    if (op.op !== 'rename' || op.digest === undefined) continue;
    const from = await readIfFile(inside(root, op.from));
    const content = from ?? (await readIfFile(inside(root, op.to)));
    if (content === undefined || contentDigest(content) !== op.digest) return false;
  }
  return true;
}

async function readIfFile(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Whether a journal's text is incomplete: not JSON at all (a write that never finished). */
function isTorn(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/** Parses and validates a journal: known operations, every path inside the data folder. */
export function parseJournal(text: string, file: string, dbPath: string): JournalOp[] {
  const fail = (reason: string) => raise(STORE_ERRORS, 'JOURNAL_CORRUPT_XX', file, reason);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw fail((error as Error).message);
  }
  const ops = (json as { ops?: unknown } | null)?.ops;
  if (!Array.isArray(ops)) throw fail('ops missing');
  return ops.map((op: unknown, i) => {
    const fields = FIELDS[(op as { op?: string } | null)?.op ?? ''];
    if (!fields) throw fail(`operation ${i} is unknown`);
    for (const field of fields) {
      const value = (op as Record<string, unknown>)[field];
      if (typeof value !== 'string' || !isInside(dbPath, value)) throw fail(`operation ${i}: bad ${field}`);
    }
    for (const field of ['digest', 'data'] as const) {
      const value = (op as Record<string, unknown>)[field];
      if (value !== undefined && typeof value !== 'string') throw fail(`operation ${i}: bad ${field}`);
    }
    if ((op as { op: string }).op === 'write' && typeof (op as { data?: unknown }).data !== 'string') throw fail(`operation ${i}: bad data`);
    return op as JournalOp;
  });
}

const FIELDS: Readonly<Record<string, readonly string[]>> = {
  rename: ['from', 'to'],
  write: ['file'],
  delete: ['file', 'root'],
  swapDir: ['stage', 'target', 'trash'],
  dropDir: ['target', 'trash'],
};

function isInside(dbPath: string, relative: string): boolean {
  try {
    inside(path.resolve(dbPath), relative);
    return !relative.split('/').includes('..');
  } catch {
    return false;
  }
}

/**
 * Applies journal operations in order. A `replay` (after a crash) trusts no temp that was not
 * flushed: the content of a rename with `data` is written again from the journal, and so is that
 * of every `write`, which a crash may have left part way.
 */
export async function applyOps(dbPath: string, ops: readonly JournalOp[], replay = false): Promise<void> {
  const root = path.resolve(dbPath);
  const abs = (relative: string) => inside(root, relative);
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    if (!replay && op.op === 'rename') {
      // A run of renames of one commit goes at once: their targets are distinct files (the
      // catalog holds no path twice, nor one below another), so no order among them matters.
      let end = i + 1;
      while (end < ops.length && ops[end].op === 'rename') end++;
      await Promise.all(ops.slice(i, end).map((r) => r.op === 'rename' && moveIntoPlace(abs(r.from), abs(r.to))));
      i = end - 1;
      continue;
    }
    switch (op.op) {
      case 'rename':
        if (replay && op.data !== undefined) await rewrite(abs(op.from), Buffer.from(op.data, 'base64'));
        await moveIntoPlace(abs(op.from), abs(op.to));
        break;
      case 'write':
        if (replay) await rewrite(abs(op.file), Buffer.from(op.data, 'base64'));
        else overwriteFileSync(abs(op.file), Buffer.from(op.data, 'base64'));
        break;
      case 'delete':
        await deleteFile(abs(op.file));
        await pruneEmptyDirs(path.dirname(abs(op.file)), abs(op.root));
        break;
      case 'swapDir':
        if (await exists(abs(op.stage))) {
          if (await exists(abs(op.target))) await renameWithRetry(abs(op.target), abs(op.trash));
          await renameWithRetry(abs(op.stage), abs(op.target));
        }
        await fs.rm(abs(op.trash), { recursive: true, force: true });
        break;
      case 'dropDir':
        if (await exists(abs(op.target))) await renameWithRetry(abs(op.target), abs(op.trash));
        await fs.rm(abs(op.trash), { recursive: true, force: true });
        break;
    }
  }
}

/**
 * Renames a staged temp file into place, creating folders; a no-op if the temp is gone (done
 * before). A folder in the way holds no resources (the catalog says so): it is removed.
 */
async function moveIntoPlace(from: string, to: string): Promise<void> {
  try {
    // The common case first: the temp exists and the target's folder too. A rename changes only
    // folder entries in memory (flushed by the checkpoint), so it is done synchronously: through
    // the thread pool it would cost a round trip far longer than the call itself.
    renameSync(from, to);
    return;
  } catch (error) {
    if (!(await exists(from))) return;
    const code = errorCode(error);
    if (code === 'ENOENT') await fs.mkdir(path.dirname(to), { recursive: true });
    else if (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST') await fs.rm(to, { recursive: true, force: true });
    // Any other error: tried again where another process may briefly hold the file, else thrown.
  }
  await renameWithRetry(from, to);
}

/** Writes `data` to the temp `file` afresh (its folder may have been pruned since). */
async function rewrite(file: string, data: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, data);
}

/**
 * The files and folders that `ops` change, absolute: what must be flushed before their journal
 * may go. Folders are those of every changed name, up to the data folder.
 */
export function changedBy(dbPath: string, ops: readonly JournalOp[]): { files: string[]; dirs: string[] } {
  const root = path.resolve(dbPath);
  const files: string[] = [];
  const dirs = new Set<string>();
  const addDirs = (file: string) => {
    for (let dir = path.dirname(file); dir.startsWith(root + path.sep); dir = path.dirname(dir)) dirs.add(dir);
    dirs.add(root);
  };
  for (const op of ops) {
    const changed = op.op === 'rename' ? op.to : op.op === 'delete' || op.op === 'write' ? op.file : op.target;
    const file = inside(root, changed);
    if (op.op === 'rename' || op.op === 'write') files.push(file);
    addDirs(file);
  }
  return { files, dirs: [...dirs] };
}

/** Deletes a file; a folder there now (put below the path after the delete) is left alone. */
async function deleteFile(file: string): Promise<void> {
  try {
    if ((await fs.lstat(file)).isDirectory()) return;
    await fs.unlink(file);
  } catch (error) {
    // ENOTDIR: a file stands where a folder of the path was (put there after the delete).
    if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') throw error;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}
