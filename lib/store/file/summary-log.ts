/**
 * Each database's log of document summaries, `{db}/.summaries.`: the record the store's
 * `summarize` option made of an XML document when it was stored (FileStoreOptions `summarize`:
 * bytes in the engine's own format), one record per stored version, keyed by its etag. Query
 * workers read a document's record instead of its text where one answers (ReadView `summaries`,
 * answered by views.ts; store/cache/sync-reader.ts for a worker that reads the folder itself).
 * The log is a cache beside the data, not data: a version is looked up by its etag,
 * which no other content ever has, so a record is right for the version it names or never asked
 * for, and a version without one is read as before. Records are therefore appended after their
 * commit without a flush of their own; a record cut short or torn by a crash fails its length or
 * checksum, and ends what a reader takes (the writer starts such a log afresh).
 *
 * A record: u32 LE byte length of the rest, u32 LE CRC-32 of the rest, u16 LE byte length of
 * the etag, the etag (UTF-8), the summary. When the log has grown to twice its size after the last
 * rewrite (at least COMPACT_MIN_BYTES), it is rewritten with the records of the versions the
 * catalog holds, atomically (atomic-files.ts): a reader sees the old log or the new one.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { errorCode, writeFileAtomic } from '../../atomic-files';
import { databaseFolder } from './disk-paths';

/** The log's name in the database folder: internal (it ends in `.`, resource-names.ts). */
export const SUMMARY_LOG = '.summaries.';

/** A log is rewritten only past this size. */
const COMPACT_MIN_BYTES = 1 << 20;

const HEADER = 8;

export function summaryLogFile(dbPath: string, db: string): string {
  return summaryLogIn(databaseFolder(dbPath, db));
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // closed already
  }
}

/** The CRC-32 of `bytes[from, to)` (zlib's, as ZIP archives use: functions/support/zip.ts). */
function checksum(bytes: Buffer, from: number, to: number): number {
  return crc32(bytes.subarray(from, to));
}

/** One record of the log. */
export function logRecord(etag: string, summary: Uint8Array): Buffer {
  const tag = Buffer.from(etag, 'utf8');
  const record = Buffer.allocUnsafe(HEADER + 2 + tag.length + summary.length);
  record.writeUInt32LE(record.length - HEADER, 0);
  record.writeUInt16LE(tag.length, HEADER);
  tag.copy(record, HEADER + 2);
  record.set(summary, HEADER + 2 + tag.length);
  record.writeUInt32LE(checksum(record, HEADER, record.length), 4);
  return record;
}

/**
 * Calls `take(etag, from, to)` for each record of `log[from, …)` (`from`, `to`: the summary's
 * bytes), up to the end or the first record that is cut short or fails its checksum: answers the
 * offset after the last record taken.
 */
function eachRecord(log: Buffer, from: number, take: (etag: string, from: number, to: number) => void): number {
  let at = from;
  while (at + HEADER <= log.length) {
    const length = log.readUInt32LE(at);
    const end = at + HEADER + length;
    if (length < 2 || end > log.length || checksum(log, at + HEADER, end) !== log.readUInt32LE(at + 4)) break;
    const tagEnd = at + HEADER + 2 + log.readUInt16LE(at + HEADER);
    if (tagEnd > end) break;
    take(log.toString('utf8', at + HEADER + 2, tagEnd), tagEnd, end);
    at = end;
  }
  return at;
}

/** What a writer keeps of one database's log. */
interface LogState {
  readonly file: string;
  /** The log, open for appending. */
  readonly fd: number;
  /** Bytes of the log as this writer left it. */
  size: number;
  /** Its size after the last rewrite (or when first opened). */
  base: number;
}

/** Logs a writer keeps open at most (the least recently appended to are closed). */
const OPEN_LOGS = 64;

/**
 * The writer of the file store's summary logs (file-store.ts, after each commit). It keeps the
 * logs it appends to open, and is told when a commit dropped or replaced a database (`forget`),
 * whose folder, and log, are then new.
 */
export class SummaryLogs {
  private readonly logs = new LRUCache<string, LogState>({ max: OPEN_LOGS, dispose: (state) => closeQuietly(state.fd) });

  constructor(private readonly dbPath: string) {}

  /**
   * Appends the records of versions committed in `db`; `live` gives the etags the catalog holds
   * now, for a rewrite. A log that does not end in a whole record (a crash in an append) is
   * started afresh. Failures are swallowed: a missing record only means a version is read as text.
   */
  async append(db: string, records: readonly Buffer[], live: () => Promise<ReadonlySet<string>>): Promise<void> {
    try {
      let state = this.logs.get(db);
      if (state === undefined) {
        state = await this.open(summaryLogFile(this.dbPath, db));
        this.logs.set(db, state);
      }
      // one write of a few hundred bytes per commit, appended where the file ends (O_APPEND)
      const bytes = Buffer.concat(records);
      if (writeSync(state.fd, bytes) !== bytes.length) throw new Error('short write');
      state.size += bytes.length;
      if (state.size >= Math.max(COMPACT_MIN_BYTES, 2 * state.base)) {
        this.logs.delete(db);
        await this.rewrite(state.file, await live());
      }
    } catch {
      this.logs.delete(db);
    }
  }

  /** `db` was dropped, renamed or replaced by a commit: its log, if any, is another file now. */
  forget(db: string): void {
    this.logs.delete(db);
  }

  /** Closes the logs this writer holds open. */
  close(): void {
    this.logs.clear();
  }

  /** Opens a log for appending (created if missing); a log that does not end in a whole record is started afresh. */
  private async open(file: string): Promise<LogState> {
    let log: Buffer | undefined;
    try {
      log = await fs.readFile(file);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    const whole = log === undefined || eachRecord(log, 0, () => undefined) === log.length;
    const fd = openSync(file, whole ? 'a' : 'w');
    const size = whole && log ? log.length : 0;
    return { file, fd, size, base: size };
  }

  /** Rewrites the log with the records of the etags in `live` (the next append opens it again). */
  private async rewrite(file: string, live: ReadonlySet<string>): Promise<void> {
    const log = await fs.readFile(file);
    const kept = new Map<string, Buffer>();
    eachRecord(log, 0, (etag, from, to) => {
      if (live.has(etag)) kept.set(etag, logRecord(etag, log.subarray(from, to)));
    });
    const bytes = Buffer.concat([...kept.values()]);
    await writeFileAtomic(file, bytes);
  }
}

/** Where a summary lies in its log: from, to. */
type Span = readonly [number, number];

/** What a reader knows of one database's log: which file it read, how far, and where each record's summary lies. */
interface LogIndex {
  readonly ino: number;
  /** The checksum of the log's first record: a file made anew under the same inode number starts with another. */
  readonly first: number;
  end: number;
  readonly at: Map<string, Span>;
}

/**
 * `index` (undefined: none yet) for a log of `size` bytes, inode `ino` and first record checksum
 * `first` (`head`: its first HEADER bytes): the same, or a new one when the file is another (a
 * rewrite, a database dropped and created again) or shorter.
 */
function indexFor(index: LogIndex | undefined, size: number, ino: number, head: Buffer): LogIndex {
  const first = head.length === HEADER ? head.readUInt32LE(4) : -1;
  return index !== undefined && index.ino === ino && index.first === first && size >= index.end ? index : { ino, first, end: 0, at: new Map() };
}

/**
 * How to read the summaries of `etags` from the log `index` describes: each one's span
 * (undefined: none), and the one span that holds them all when it is not much longer than they
 * are (the records of documents stored together lie together), to be read at once; else each
 * is read alone.
 */
function readPlan(index: LogIndex, etags: readonly string[]): { readonly spans: (Span | undefined)[]; readonly block?: Span } {
  const spans = etags.map((etag) => index.at.get(etag));
  let from = Infinity;
  let to = 0;
  let wanted = 0;
  for (const span of spans) {
    if (span === undefined) continue;
    from = Math.min(from, span[0]);
    to = Math.max(to, span[1]);
    wanted += span[1] - span[0];
  }
  return wanted > 0 && to - from <= Math.max(4 * wanted, 1 << 20) ? { spans, block: [from, to] } : { spans };
}

/** The summaries of `spans` out of `block` (the log's bytes from `from`, `read` of them read); null where there is none or it was not read whole. */
function fromBlock(spans: readonly (Span | undefined)[], block: Buffer, from: number, read: number): (Buffer | null)[] {
  return spans.map((span) => (span === undefined || span[1] - from > read ? null : block.subarray(span[0] - from, span[1] - from)));
}

/** Adds the records of `tail` (the log's bytes from `index.end`) to `index`. */
function indexTail(index: LogIndex, tail: Buffer): void {
  const base = index.end;
  const { at } = index;
  index.end = base + eachRecord(tail, 0, (etag, from, to) => at.set(etag, [base + from, base + to]));
}

/** The log of the database whose folder is `folder` (store/file/views.ts). */
export function summaryLogIn(folder: string): string {
  return path.join(folder, SUMMARY_LOG);
}

/**
 * The summaries of a worker's databases, read from their logs (store/cache/sync-reader.ts): each
 * log's records are indexed once as it grows, and the summaries asked for are read as `readPlan` says.
 */
export class SummaryLogReader {
  private readonly indexes = new Map<string, LogIndex>();

  constructor(private readonly dbPath: string) {}

  /** The summary of each version of `db` named by `etags` (undefined where the log has none). */
  summaries(db: string, etags: readonly string[]): (Uint8Array | undefined)[] {
    let fd: number;
    try {
      fd = openSync(summaryLogFile(this.dbPath, db), 'r');
    } catch (error) {
      this.indexes.delete(db);
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return etags.map(() => undefined);
      throw error;
    }
    try {
      const { size, ino } = fstatSync(fd);
      const head = Buffer.alloc(HEADER);
      const index = indexFor(this.indexes.get(db), size, ino, head.subarray(0, readAt(fd, head, 0)));
      this.indexes.set(db, index);
      if (size > index.end) {
        const tail = Buffer.allocUnsafe(size - index.end);
        indexTail(index, tail.subarray(0, readAt(fd, tail, index.end)));
      }
      const { spans, block } = readPlan(index, etags);
      if (block !== undefined) {
        const bytes = Buffer.allocUnsafe(block[1] - block[0]);
        return fromBlock(spans, bytes, block[0], readAt(fd, bytes, block[0])).map((summary) => summary ?? undefined);
      }
      return spans.map((span) => {
        if (span === undefined) return undefined;
        const bytes = Buffer.allocUnsafe(span[1] - span[0]);
        return readAt(fd, bytes, span[0]) === bytes.length ? bytes : undefined;
      });
    } finally {
      closeSync(fd);
    }
  }
}

/** Logs indexed by the server's read views, at most (least recently used go first). */
const SERVED_LOGS = 256;

/**
 * The summaries of the file store's read views (views.ts `summaries`), read asynchronously: each
 * log's records are indexed once as it grows, and the summaries asked for are read as `readPlan` says.
 */
export class SummaryLogFiles {
  private readonly indexes = new LRUCache<string, LogIndex>({ max: SERVED_LOGS });

  async summaries(file: string, etags: readonly string[]): Promise<(Uint8Array | null)[]> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      this.indexes.delete(file);
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return etags.map(() => null);
      throw error;
    }
    try {
      const { size, ino } = await handle.stat();
      const head = Buffer.alloc(HEADER);
      const { bytesRead: headRead } = await handle.read(head, 0, HEADER, 0);
      const index = indexFor(this.indexes.get(file), size, ino, head.subarray(0, headRead));
      this.indexes.set(file, index);
      if (size > index.end) {
        const tail = Buffer.allocUnsafe(size - index.end);
        const { bytesRead } = await handle.read(tail, 0, tail.length, index.end);
        indexTail(index, tail.subarray(0, bytesRead));
      }
      const { spans, block } = readPlan(index, etags);
      if (block !== undefined) {
        const bytes = Buffer.allocUnsafe(block[1] - block[0]);
        return fromBlock(spans, bytes, block[0], (await handle.read(bytes, 0, bytes.length, block[0])).bytesRead);
      }
      return await Promise.all(
        spans.map(async (span) => {
          if (span === undefined) return null;
          const bytes = Buffer.allocUnsafe(span[1] - span[0]);
          const { bytesRead } = await handle.read(bytes, 0, bytes.length, span[0]);
          return bytesRead === bytes.length ? bytes : null;
        }),
      );
    } finally {
      await handle.close();
    }
  }
}

/** Reads into all of `bytes` from `position` (less at the end of the file): the bytes read. */
function readAt(fd: number, bytes: Buffer, position: number): number {
  let read = 0;
  while (read < bytes.length) {
    const n = readSync(fd, bytes, read, bytes.length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return read;
}
