/**
 * The exclusive lock of a data folder: one store (one router, in one process) at a time. A second
 * opener would replay the first one's commit journals and sweep its temp files while its writes
 * are in flight, so it must fail before it touches anything.
 *
 * The lock is the file `{dbPath}/.lock.` (a name ending in `.` is never a resource or database
 * name), created with `wx` (fails if it exists) and holding the owner's pid, host and a random
 * token. A lock whose owner is gone is stale: a process on this host whose pid no longer exists.
 * It is taken over by renaming it aside (atomic) and checking that the renamed file is still the
 * stale one; a lock of a live process, or of another host (whose processes cannot be checked),
 * refuses the open with an error that names the file. Released by `release()` (the store's
 * close) and, should the process end without a close, by an exit hook.
 */
import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { raise } from '../errors';
import { errorCode } from './atomic';
import { STORE_ERRORS } from './errors';

export const LOCK_FILE = '.lock.';

/** An unreadable lock file younger than this may still be being written by its owner. */
const FRESH_MS = 5_000;

interface Owner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

export interface FolderLock {
  /** Removes the lock file, if it is still this lock's. */
  release(): Promise<void>;
}

/** Takes the lock of `dbPath` (which must exist) or throws `FOLDER_LOCKED_XX`. */
export async function lockFolder(dbPath: string): Promise<FolderLock> {
  const file = path.join(dbPath, LOCK_FILE);
  const owner: Owner = { pid: process.pid, host: os.hostname(), token: randomBytes(12).toString('base64url') };
  const text = JSON.stringify(owner);
  // Two tries: the second follows the removal of a stale lock.
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await fs.open(file, 'wx', 0o600);
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST' || attempt > 0) throw error;
      const holder = await readOwner(file);
      if (holder !== undefined && (holder.host !== owner.host || isAlive(holder.pid))) {
        throw raise(STORE_ERRORS, 'FOLDER_LOCKED_XX', dbPath, `process ${holder.pid} on ${holder.host}`);
      }
      // An unreadable lock may be one that its owner is writing this very moment.
      if (holder === undefined && (await ageMs(file)) < FRESH_MS) throw raise(STORE_ERRORS, 'FOLDER_LOCKED_XX', dbPath, 'a process starting now');
      await removeStale(file, holder);
    }
  }
  held.set(file, owner.token);
  if (held.size === 1 && !exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', releaseAllSync);
  }
  return {
    release: async () => {
      if (held.get(file) !== owner.token) return;
      held.delete(file);
      if ((await readOwner(file))?.token === owner.token) await fs.rm(file, { force: true });
    },
  };
}

/** Lock files this process holds, with their tokens: removed on exit if not released before. */
const held = new Map<string, string>();
let exitHookInstalled = false;

function releaseAllSync(): void {
  for (const [file, token] of held) {
    if (readOwnerSync(file)?.token === token) fsSync.rmSync(file, { force: true });
  }
  held.clear();
}

/**
 * Removes a stale lock file. It is renamed aside first, so that of two processes taking over the
 * same stale lock only one removes it; should the renamed file turn out to be a fresh lock
 * (another process took over in between), it is put back and the open refused.
 */
async function removeStale(file: string, stale: Owner | undefined): Promise<void> {
  const aside = `${file}${randomBytes(6).toString('base64url')}.stale.`;
  try {
    await fs.rename(file, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return; // another process removed it first
    throw error;
  }
  const moved = await readOwner(aside);
  if (stale !== undefined && moved?.token !== stale.token) {
    await fs.link(aside, file).catch(() => undefined);
    await fs.rm(aside, { force: true });
    throw raise(STORE_ERRORS, 'FOLDER_LOCKED_XX', path.dirname(file), `process ${moved?.pid ?? '?'} on ${moved?.host ?? '?'}`);
  }
  await fs.rm(aside, { force: true });
}

/** The owner recorded in a lock file; undefined if it is unreadable (a torn write: stale). */
async function readOwner(file: string): Promise<Owner | undefined> {
  try {
    return parseOwner(await fs.readFile(file, 'utf8'));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function readOwnerSync(file: string): Owner | undefined {
  try {
    return parseOwner(fsSync.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function parseOwner(text: string): Owner | undefined {
  try {
    const o = JSON.parse(text) as Partial<Owner>;
    if (typeof o.pid === 'number' && typeof o.host === 'string' && typeof o.token === 'string') return o as Owner;
  } catch {
    // not JSON: a lock whose write was cut short, which no live owner can hold
  }
  return undefined;
}

async function ageMs(file: string): Promise<number> {
  try {
    return Date.now() - (await fs.stat(file)).mtimeMs;
  } catch {
    return Infinity;
  }
}

/** Whether a process of this host exists (signal 0 checks without sending anything). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}
