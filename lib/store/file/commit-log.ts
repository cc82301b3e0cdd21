/**
 * The commit log, `.store./commit.log`: the commit point of every write. A commit appends one
 * record (its journal, journal.ts) and flushes the log; only then are its operations performed,
 * without flushing the files they write. Those files become durable at the next checkpoint, which
 * flushes every file and folder changed since the last one and then empties the log; until then
 * a crash is repaired by replaying the log at startup, in order.
 *
 * One flush of an append to a file that exists costs far less than creating and flushing a
 * journal file and the temp files of a commit, and commits that arrive while a flush runs share
 * the next one (group commit).
 *
 * A record is one line: the SHA-256 digest (base64url) of its JSON, a space, the JSON. A line
 * that is incomplete or does not match its digest was cut short by a crash before its flush
 * returned: that commit was never acknowledged nor applied, and neither was any after it.
 */
import { writeSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { contentDigest, errorCode, fsyncDir } from '../../atomic-files';
import { applyOps, changedBy, parseJournal, STORE_DIR, type JournalOp } from './journal';

export const COMMIT_LOG = 'commit.log';

/** Resource contents up to this size are logged with their commit rather than flushed apart. */
export const INLINE_BYTES = 256 * 1024;

/** The log is emptied (checkpoint) once it holds this many bytes ... */
const CHECKPOINT_BYTES = 64 * 1024 * 1024;
/** ... or once this many files wait for their flush ... */
const CHECKPOINT_FILES = 8192;
/**
 * ... or once no commit came for this long: by then the system has written most of those files
 * back on its own (Linux: within 30 s), so their flushes cost little, and a burst of writes does
 * not pay for them.
 */
const IDLE_CHECKPOINT_MS = 5000;
/** Files flushed at once by a checkpoint. */
const FLUSH_BATCH = 32;

interface Waiting {
  readonly line: Buffer;
  resolve(): void;
  reject(error: unknown): void;
}

export class CommitLog {
  private readonly file: string;
  private handle: fs.FileHandle | undefined;
  private size = 0;
  private waiting: Waiting[] = [];
  private writing: Promise<void> | undefined;
  /** A checkpoint, or a commit that must come first in the log: appends wait until it is done. */
  private gate: Promise<void> | undefined;
  /** Commits appended and not yet applied: a checkpoint waits until there are none. */
  private open = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly dirtyFiles = new Set<string>();
  private readonly dirtyDirs = new Set<string>();
  /** Set when the log may hold a partial line: no further record may follow it. */
  private broken: Error | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly dbPath: string) {
    this.file = path.join(dbPath, STORE_DIR, COMMIT_LOG);
  }

  /**
   * Makes a commit's operations durable (the commit point). Every temp file they rename without
   * `data` must be flushed before. Each call that resolves must be followed by one `applied` or
   * `abandoned`.
   *
   * A replay repeats records on top of what later ones left, which is safe for renames and writes
   * that carry their content: they only write whole files. Any other operation (a delete, a rename
   * of a file flushed apart, a folder swapped or dropped) could meet a later record's files in its
   * way, so its commit comes first in the log: a checkpoint empties the log before it is appended.
   */
  async append(ops: readonly JournalOp[]): Promise<void> {
    const first = !ops.every((op) => op.op === 'write' || (op.op === 'rename' && op.data !== undefined));
    while (this.gate) await this.gate;
    this.open++;
    try {
      if (this.broken) throw this.broken;
      const json = JSON.stringify({ ops });
      const line = Buffer.from(`${contentDigest(json)} ${json}\n`);
      if (first) {
        await this.passGate(async () => {
          await this.whenIdle(1);
          await this.flushChanged();
          await this.write(line);
        });
      } else {
        await new Promise<void>((resolve, reject) => {
          this.waiting.push({ line, resolve, reject });
          this.writing ??= this.drain();
        });
      }
    } catch (error) {
      this.settle();
      throw error;
    }
  }

  /** The appended `ops` were performed; checkpoints when the log is due for one. */
  async applied(ops: readonly JournalOp[]): Promise<void> {
    const { files, dirs } = changedBy(this.dbPath, ops);
    for (const file of files) this.dirtyFiles.add(file);
    for (const dir of dirs) this.dirtyDirs.add(dir);
    this.settle();
    if (this.open === 0 && !this.gate && (this.size >= CHECKPOINT_BYTES || this.dirtyFiles.size >= CHECKPOINT_FILES)) {
      await this.passGate(() => this.flushChanged());
    }
    this.checkpointWhenIdle();
  }

  /** The appended operations could not all be performed: the log must be replayed, not emptied. */
  abandoned(error: unknown): void {
    this.broken ??= error instanceof Error ? error : new Error(String(error));
    this.settle();
  }

  /** Flushes what the logged commits changed and removes the log (unless it must be replayed). */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    while (this.gate || this.writing) await (this.gate ?? this.writing);
    if (!this.broken && this.open === 0) {
      await this.flushChanged();
      await fs.rm(this.file, { force: true });
    }
    await this.handle?.close();
    this.handle = undefined;
  }

  /** (Re)starts the wait for an idle checkpoint; it never keeps the process alive. */
  private checkpointWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.open > 0 || this.gate || this.writing || this.broken || (this.size === 0 && this.dirtyFiles.size === 0)) return;
      // A failure leaves the log broken: the next commit reports it.
      this.passGate(() => this.flushChanged()).catch(() => undefined);
    }, IDLE_CHECKPOINT_MS);
    this.idleTimer.unref();
  }

  private settle(): void {
    this.open--;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Resolves once at most `open` commits are between their append and their end. */
  private async whenIdle(open: number): Promise<void> {
    while (this.open > open || this.writing) {
      if (this.writing) await this.writing;
      else await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
  }

  /** Runs `work` while every new append waits. */
  private async passGate(work: () => Promise<void>): Promise<void> {
    const gate = (async () => {
      try {
        await work();
      } catch (error) {
        this.broken ??= error as Error;
        throw error;
      }
    })();
    this.gate = gate.then(
      () => undefined,
      () => undefined,
    );
    try {
      await gate;
    } finally {
      this.gate = undefined;
    }
  }

  /** Writes every waiting record with one append and one flush, until none waits. */
  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        if (this.broken) throw this.broken;
        await this.write(Buffer.concat(batch.map((w) => w.line)));
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    this.writing = undefined;
  }

  /** Appends `data` and flushes it. */
  private async write(data: Buffer): Promise<void> {
    const handle = await this.openLog();
    try {
      // The append only reaches the page cache: done synchronously, it spares a round trip
      // through the thread pool; the flush, which waits for the disk, is not.
      for (let at = 0; at < data.length; ) at += writeSync(handle.fd, data, at, data.length - at);
      await handle.datasync();
    } catch (error) {
      // Cut the partial record off, or refuse every later one: a record after a torn line
      // would never be replayed.
      await handle.truncate(this.size).catch(() => {
        this.broken ??= error as Error;
      });
      throw error;
    }
    this.size += data.length;
  }

  private async openLog(): Promise<fs.FileHandle> {
    if (this.handle) return this.handle;
    const folder = path.dirname(this.file);
    await fs.mkdir(folder, { recursive: true });
    const handle = await fs.open(this.file, 'a');
    try {
      this.size = (await handle.stat()).size;
      // The log's own name must survive a crash before any record in it counts.
      await fsyncDir(folder);
      await fsyncDir(this.dbPath);
    } catch (error) {
      // not kept (the failed commit stops the store), so closed here rather than by the garbage collector
      await handle.close();
      throw error;
    }
    this.handle = handle;
    return handle;
  }

  /** The checkpoint: flushes every file and folder the logged commits changed, then empties the log. */
  private async flushChanged(): Promise<void> {
    await flushAll([...this.dirtyFiles], flushFile);
    await flushAll([...this.dirtyDirs], fsyncDirIfAny);
    this.dirtyFiles.clear();
    this.dirtyDirs.clear();
    if (this.handle && this.size > 0) {
      await this.handle.truncate(0);
      await this.handle.datasync();
      this.size = 0;
    }
  }
}

/**
 * Replays the commit log of `dbPath` left by a crash, if any: every complete record, in order,
 * then flushes what they changed and removes the log. Answers the number of records replayed.
 */
export async function replayCommitLog(dbPath: string): Promise<number> {
  const file = path.join(dbPath, STORE_DIR, COMMIT_LOG);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 0;
    throw error;
  }
  const files = new Set<string>();
  const dirs = new Set<string>();
  let replayed = 0;
  for (const ops of records(text, file, dbPath)) {
    await applyOps(dbPath, ops, true);
    const changed = changedBy(dbPath, ops);
    changed.files.forEach((f) => files.add(f));
    changed.dirs.forEach((d) => dirs.add(d));
    replayed++;
  }
  await flushAll([...files], flushFile);
  await flushAll([...dirs], fsyncDirIfAny);
  await fs.rm(file, { force: true });
  await fsyncDir(path.dirname(file));
  return replayed;
}

/** The complete records of a log's text, up to the first torn one. */
function records(text: string, file: string, dbPath: string): JournalOp[][] {
  const result: JournalOp[][] = [];
  let at = 0;
  for (let end = text.indexOf('\n', at); end >= 0; at = end + 1, end = text.indexOf('\n', at)) {
    const line = text.slice(at, end);
    const space = line.indexOf(' ');
    const json = line.slice(space + 1);
    if (space < 0 || contentDigest(json) !== line.slice(0, space)) break;
    result.push(parseJournal(json, file, dbPath));
  }
  return result;
}

async function flushAll(items: readonly string[], flush: (item: string) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += FLUSH_BATCH) {
    await Promise.all(items.slice(i, i + FLUSH_BATCH).map(flush));
  }
}

/** Flushes a file; one deleted or replaced by a folder since needs nothing. */
async function flushFile(file: string): Promise<void> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function fsyncDirIfAny(dir: string): Promise<void> {
  try {
    await fsyncDir(dir);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') throw error;
  }
}
