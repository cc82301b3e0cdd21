/**
 * Atomic file writes, for the file store, the users file and the console's data: new content
 * goes to a uniquely named temp file in the target's folder, is flushed to disk, then renamed
 * over the target. Temp names end in `.` (see store/resource-names.ts), so they never collide
 * with resources and can be swept safely at startup.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants as fsConstants, fstatSync, ftruncateSync, openSync, rmSync, writeSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

const TEMP_PATTERN = /^\.[A-Za-z0-9_-]{12}\.tmp\.$/;
const RETRY_CODES: ReadonlySet<string> = new Set(['EPERM', 'EBUSY', 'EACCES']);
const RETRIES = 10;
const RETRY_DELAY_MS = 100;

/** A fresh temp file name: `.{12 random characters}.tmp.`. */
export function tempName(): string {
  return `.${randomBytes(9).toString('base64url')}.tmp.`;
}

/** Whether a file name is one that tempName() makes. */
export function isTempName(name: string): boolean {
  return TEMP_PATTERN.test(name);
}

/** The `code` of a Node.js system error, if any. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Writes `data` to a new temp file in `dir` (which must exist); answers its path. With
 * `flush = false` the caller flushes it later (`flushFiles`), together with the other files of
 * the same commit. `mode` is the new file's permissions (less the process's umask).
 */
export async function writeTemp(dir: string, data: Buffer | string, flush = true, mode = 0o666): Promise<string> {
  const file = path.join(dir, tempName());
  await writeNewFile(file, data, flush, mode);
  return file;
}

/**
 * Writes `data` to `file`, which must not exist yet (a name from tempName()); on failure the
 * file is removed. With `flush = false` the caller flushes it later, or never needs to (a temp
 * whose content its commit logs, commit.ts).
 */
export async function writeNewFile(file: string, data: Buffer | string, flush = false, mode = 0o666): Promise<void> {
  const handle = await fs.open(file, 'wx', mode);
  try {
    await handle.writeFile(data);
    if (flush) await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.rm(file, { force: true });
    throw error;
  }
  await handle.close();
}

/**
 * writeTemp for small content that needs no flush of its own (its commit logs it: commit-log.ts),
 * synchronously. Such a write only reaches the page cache and takes microseconds, whereas each of
 * the three calls of the asynchronous path waits for a thread of the pool and then for the event
 * loop to come back, which under CPU load costs far more than the call itself.
 */
export function writeTempSync(dir: string, data: Buffer | string): string {
  const file = path.join(dir, tempName());
  writeNewFileSync(file, data);
  return file;
}

/** writeNewFile without a flush, synchronously (see writeTempSync); on failure the file is removed. */
export function writeNewFileSync(file: string, data: Buffer | string, mode = 0o666): void {
  writeIntoSync(file, data, 'wx', mode);
}

/**
 * Writes `data` into `file` opened with `flags` (`wx`: a new file; `r+`: an empty file that
 * exists, store/file/temp-pool.ts), synchronously and without a flush; on failure the file is
 * removed.
 */
export function writeIntoSync(file: string, data: Buffer | string, flags: 'wx' | 'r+', mode = 0o666): void {
  const fd = openSync(file, flags, mode);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } catch (error) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw error;
  }
  closeSync(fd);
}

/**
 * Writes `data` over `file` in place (created if missing), synchronously and without a flush: for
 * files whose content a durable journal holds (journal.ts `write`), so a crash part way is
 * repaired by its replay. The old bytes are overwritten rather than truncated first: ext4 starts
 * the write-back of a file truncated to zero as it is closed (its auto_da_alloc heuristic), within
 * the caller's close. A file that shrinks is cut to its new length.
 */
export function overwriteFileSync(file: string, data: Buffer): void {
  const fd = openSync(file, fsConstants.O_WRONLY | fsConstants.O_CREAT, 0o666);
  try {
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at, at);
    if (fstatSync(fd).size > data.length) ftruncateSync(fd, data.length);
  } finally {
    closeSync(fd);
  }
}

/** Digest of file content, recorded in journals to tell a complete temp file from a torn one. */
export function contentDigest(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('base64url');
}

/** Bytes hashed between two turns of the event loop by `contentDigestYielding`. */
const DIGEST_SLICE = 1024 * 1024;

/**
 * `contentDigest` of large content, a slice at a time with the event loop turning in between:
 * hashing 20 MB at once would hold up every other request for tens of milliseconds.
 */
export async function contentDigestYielding(data: Buffer): Promise<string> {
  if (data.length <= DIGEST_SLICE) return contentDigest(data);
  const hash = createHash('sha256');
  for (let at = 0; at < data.length; at += DIGEST_SLICE) {
    hash.update(data.subarray(at, at + DIGEST_SLICE));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return hash.digest('base64url');
}

/**
 * Flushes files to disk, all at once: concurrent flushes on one file system share the cost of
 * its journal commit, so a commit pays for about one flush instead of one per file.
 */
export async function flushFiles(files: readonly string[]): Promise<void> {
  await Promise.all(
    files.map(async (file) => {
      const handle = await fs.open(file, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }),
  );
}

/**
 * Gives the bytes of `source` a new temp name in `dir`: a hard link where the file system allows
 * it (stored files are never changed in place, so sharing is safe), otherwise a flushed copy.
 */
export async function linkTemp(source: string, dir: string): Promise<string> {
  const file = path.join(dir, tempName());
  await linkOrCopy(source, file);
  return file;
}

/** Renames a file, retrying where another process briefly holds it (Windows, virus scanners). */
export async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await fs.rename(from, to);
      return;
    } catch (error) {
      const code = errorCode(error);
      if (attempt >= RETRIES || code === undefined || !RETRY_CODES.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
}

/** Flushes a folder's entries (renames, new files) to disk; a no-op where folders cannot be opened. */
export async function fsyncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Replaces `file` with `data` atomically: temp file in the same folder, fsync, rename, fsync folder.
 * The file gets `mode` (less the umask), whatever the permissions of the file it replaces.
 */
export async function writeFileAtomic(file: string, data: Buffer | string, mode?: number): Promise<void> {
  const dir = path.dirname(file);
  const temp = await writeTemp(dir, data, true, mode);
  try {
    await renameWithRetry(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await fsyncDir(dir);
}

interface Job {
  data: Buffer | string;
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function newJob(data: Buffer | string): Job {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { data, promise, resolve, reject };
}

/**
 * One writer per absolute path: writes to a path never overlap. While one is in flight only the
 * latest data waits; every caller that asked meanwhile settles when that latest data lands.
 */
export class AtomicWriter {
  private readonly pending = new Map<string, { next?: Job }>();

  /** Writes `data` to `file` atomically; resolves once this data or newer data is on disk. */
  write(file: string, data: Buffer | string): Promise<void> {
    const key = path.resolve(file);
    const state = this.pending.get(key);
    if (state?.next) {
      state.next.data = data;
      return state.next.promise;
    }
    const job = newJob(data);
    if (state) {
      state.next = job;
    } else {
      const fresh = { next: job };
      this.pending.set(key, fresh);
      void this.drain(key, fresh);
    }
    return job.promise;
  }

  private async drain(key: string, state: { next?: Job }): Promise<void> {
    for (let job = state.next; job; job = state.next) {
      state.next = undefined;
      try {
        await writeFileAtomic(key, job.data);
        job.resolve();
      } catch (error) {
        job.reject(error);
      }
    }
    this.pending.delete(key);
  }
}

/** Removes empty folders from `dir` upwards, stopping below `stopAt` (never removed). Best effort. */
export async function pruneEmptyDirs(dir: string, stopAt: string): Promise<void> {
  const root = path.resolve(stopAt);
  for (let current = path.resolve(dir); current !== root && current.startsWith(root + path.sep); ) {
    try {
      await fs.rmdir(current);
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}

/** Deletes every temp file below `folder` (recursively); answers how many. Missing folder: 0. */
export async function sweepTemps(folder: string): Promise<number> {
  let entries;
  try {
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return 0;
    throw error;
  }
  let removed = 0;
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (isTempName(entry.name)) {
      await fs.rm(full, { recursive: true, force: true });
      removed++;
    } else if (entry.isDirectory()) {
      removed += await sweepTemps(full);
    }
  }
  return removed;
}

/** Gives `target` (a new name) the bytes of `source`: a hard link, or a flushed copy. */
export async function linkOrCopy(source: string, target: string): Promise<void> {
  try {
    await fs.link(source, target);
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'EEXIST') throw error;
    await fs.copyFile(source, target, fsConstants.COPYFILE_EXCL);
    const handle = await fs.open(target, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
