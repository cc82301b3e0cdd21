/**
 * The read view of the PostgreSQL store: every call is one or two statements on the request's
 * connection, which holds the locks of the databases the request named (lock-keys.ts). Calls are
 * run one after the other (a connection runs one statement at a time anyway), so that a view's
 * calls never interleave their statements.
 */
import type { Readable } from 'node:stream';
import { raise } from '../../xmldb-error';
import { compareBackupNames } from '../backup-names';
import { STORE_ERRORS } from '../store-errors';
import { checkDatabaseName, checkPath, compareNames, isValidDatabaseName } from '../resource-names';
import type { BackupInfo, DatabaseInfo, DatabaseOptions, FullTextFound, FullTextLookup, LockSet, ReadView, ResourceInfo, ResourceType } from '../types';
import { blobStream, type ChunkReader } from './blobs';
import { readFullText } from './fulltext';
import type { Session } from './session';

/** Columns of a resource row, as selected by RESOURCE_COLUMNS. */
export interface ResourceRow {
  path: string;
  type: string;
  content_type: string;
  size: string;
  bytes: string;
  modified: string;
  etag: string;
}

export const RESOURCE_COLUMNS = 'r.path, r.type, r.content_type, r.size, r.bytes, r.modified, r.etag';

export function resourceInfo(row: ResourceRow): ResourceInfo {
  return {
    path: row.path,
    type: row.type as ResourceType,
    contentType: row.content_type,
    size: Number(row.size),
    bytes: Number(row.bytes),
    modified: Number(row.modified),
    etag: row.etag,
  };
}

interface DatabaseRow {
  name: string;
  created: string;
  modified: string;
  options: DatabaseOptions;
  resources: string;
  size: string;
}

const DATABASE_SELECT = `
  SELECT d.name, d.created, d.modified, d.options,
         (SELECT count(*) FROM xmldb_resources r WHERE r.db = d.name) AS resources,
         (SELECT coalesce(sum(r.bytes), 0) FROM xmldb_resources r WHERE r.db = d.name) AS size
  FROM xmldb_databases d`;

function databaseInfo(row: DatabaseRow): DatabaseInfo {
  return {
    name: row.name,
    resources: Number(row.resources),
    size: Number(row.size),
    created: Number(row.created),
    modified: Number(row.modified),
    options: { ...row.options },
  };
}

/** Paths of a directory: `dir/` ≤ path < `dir0` (`0` follows `/`), byte order. */
export function belowRange(dir: string): [string, string] {
  return [`${dir}/`, `${dir}0`];
}

/** SQL condition: `r.path` is `$n` or lies below it (the range in `$n+1`, `$n+2`); true for ''. */
export function atOrBelowSql(dir: string, n: number): { sql: string; params: string[] } {
  if (dir === '') return { sql: 'TRUE', params: [] };
  const [lo, hi] = belowRange(dir);
  return { sql: `(r.path = $${n} OR (r.path >= $${n + 1} AND r.path < $${n + 2}))`, params: [dir, lo, hi] };
}

/** Code-unit order, as the file store sorts paths. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How a view reaches its connection. */
export interface ViewContext {
  readonly session: Session;
  /** Reads chunks for streams that outlive the view (read views: through the pool). */
  readonly laterChunks: ChunkReader;
}

export class PgReadView implements ReadView {
  private queue: Promise<unknown> = Promise.resolve();
  protected ended = false;

  constructor(protected readonly ctx: ViewContext) {}

  /** Refuses further calls: the read or write has ended. */
  end(): void {
    this.ended = true;
  }

  listDatabases(): Promise<DatabaseInfo[]> {
    return this.serial(async () => {
      const rows = await this.ctx.session.query<DatabaseRow>(DATABASE_SELECT);
      return rows.map(databaseInfo).sort((a, b) => compareNames(a.name, b.name));
    });
  }

  database(name: string): Promise<DatabaseInfo | undefined> {
    return this.serial(async () => {
      if (!isValidDatabaseName(name)) return undefined;
      const rows = await this.ctx.session.query<DatabaseRow>(`${DATABASE_SELECT} WHERE d.name = $1`, [name]);
      return rows[0] && databaseInfo(rows[0]);
    });
  }

  listResources(db: string, path = ''): Promise<ResourceInfo[]> {
    return this.serial(async () => {
      checkDatabaseName(db);
      const dir = checkPath(path);
      const where = atOrBelowSql(dir, 2);
      const rows = await this.ctx.session.query<ResourceRow & { path: string | null }>(
        `SELECT ${RESOURCE_COLUMNS} FROM xmldb_databases d
         LEFT JOIN xmldb_resources r ON r.db = d.name AND ${where.sql} WHERE d.name = $1`,
        [db, ...where.params],
      );
      if (rows.length === 0) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
      return rows
        .filter((row) => row.path !== null)
        .map(resourceInfo)
        .sort((a, b) => comparePaths(a.path, b.path));
    });
  }

  resource(db: string, path: string): Promise<ResourceInfo | undefined> {
    return this.serial(async () => {
      const row = await this.lookup(db, path);
      return row && resourceInfo(row);
    });
  }

  readBytes(db: string, path: string): Promise<Buffer> {
    return this.serial(async () => {
      checkDatabaseName(db);
      const p = checkPath(path);
      const rows = await this.ctx.session.query<{ blob: string | null; data: Buffer | null }>(
        `SELECT r.blob, c.data FROM xmldb_databases d
         LEFT JOIN xmldb_resources r ON r.db = d.name AND r.path = $2
         LEFT JOIN xmldb_chunks c ON c.blob = r.blob
         WHERE d.name = $1 ORDER BY c.seq`,
        [db, p],
      );
      if (rows.length === 0) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
      if (p === '' || rows[0].blob === null) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
      return Buffer.concat(rows.map((row) => row.data ?? Buffer.alloc(0)));
    });
  }

  /** One statement for all of them (a statement per document cost a round trip to the server each). */
  readMany(db: string, paths: readonly string[], maxBytes: number): Promise<(Buffer | null)[]> {
    return this.serial(async () => {
      checkDatabaseName(db);
      const ps = paths.map((path) => checkPath(path));
      const rows = await this.ctx.session.query<{ path: string | null; bytes: string | null; data: Buffer | null }>(
        `SELECT r.path, r.bytes, c.data FROM xmldb_databases d
         LEFT JOIN xmldb_resources r ON r.db = d.name AND r.path = ANY($2::text[])
         LEFT JOIN xmldb_chunks c ON c.blob = r.blob AND r.bytes <= $3
         WHERE d.name = $1 ORDER BY r.path, c.seq`,
        [db, ps, maxBytes],
      );
      if (rows.length === 0) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
      const found = new Map<string, { readonly bytes: number; readonly chunks: Buffer[] }>();
      for (const row of rows) {
        if (row.path === null) continue;
        let resource = found.get(row.path);
        if (resource === undefined) found.set(row.path, (resource = { bytes: Number(row.bytes), chunks: [] }));
        if (row.data !== null) resource.chunks.push(row.data);
      }
      return ps.map((p, i) => {
        const resource = p === '' ? undefined : found.get(p);
        if (resource === undefined) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', paths[i]);
        return resource.bytes > maxBytes ? null : Buffer.concat(resource.chunks);
      });
    });
  }

  /**
   * The resource is found now, under the view's locks; its bytes are read as the stream is
   * consumed, possibly after the view ended (they are immutable, blobs.ts). A missing resource
   * fails the stream.
   */
  openStream(db: string, path: string, range?: { start: number; end: number }): Readable {
    this.checkOpen();
    checkDatabaseName(db);
    const p = checkPath(path);
    this.checkRange(range);
    const locate = this.serial(async () => {
      const rows = await this.ctx.session.query<{ blob: string | null; bytes: string | null }>(
        `SELECT r.blob, r.bytes FROM xmldb_databases d
         LEFT JOIN xmldb_resources r ON r.db = d.name AND r.path = $2 WHERE d.name = $1`,
        [db, p],
      );
      if (rows.length === 0) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
      if (p === '' || rows[0].blob === null) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
      return { blob: Number(rows[0].blob), bytes: Number(rows[0].bytes) };
    });
    locate.catch(() => undefined); // reported by the stream
    return blobStream(locate, this.ctx.laterChunks, range);
  }

  /**
   * Creation time and commit counter (types.ts "Versions and etags"): the counter grows with
   * every commit, and a database created again starts a new creation time.
   */
  versions(dbs: LockSet): Promise<ReadonlyMap<string, string>> {
    return this.serial(async () => {
      const names = dbs === '*' ? undefined : dbs.filter(isValidDatabaseName);
      if (names?.length === 0) return new Map<string, string>();
      const rows = await this.ctx.session.query<{ name: string; created: string; version: string }>(
        `SELECT name, created, version FROM xmldb_databases${names ? ' WHERE name = ANY($1::text[])' : ''}`,
        names ? [names] : [],
      );
      return new Map(rows.map((row) => [row.name, `${row.created}:${row.version}`]));
    });
  }

  listBackups(): Promise<BackupInfo[]> {
    return this.serial(async () => {
      const rows = await this.ctx.session.query<{ name: string; resources: string; size: string; modified: string }>(
        `SELECT b.name, b.modified, count(r.path) AS resources, coalesce(sum(r.bytes), 0) AS size
         FROM xmldb_backups b LEFT JOIN xmldb_backup_resources r ON r.backup = b.name GROUP BY b.name`,
      );
      return rows
        .map((row) => ({ name: row.name, resources: Number(row.resources), size: Number(row.size), modified: Number(row.modified) }))
        .sort((a, b) => compareBackupNames(a.name, b.name));
    });
  }

  /** From the resources' rows: the summary made when each was stored, if any. */
  summaries(db: string, etags: readonly string[]): Promise<(Uint8Array | null)[]> {
    return this.serial(async () => {
      checkDatabaseName(db);
      const rows = await this.ctx.session.query<{ etag: string | null; summary: Buffer | null }>(
        `SELECT r.etag, r.summary FROM xmldb_databases d
         LEFT JOIN xmldb_resources r ON r.db = d.name AND r.etag = ANY($2::text[]) AND r.summary IS NOT NULL
         WHERE d.name = $1`,
        [db, etags],
      );
      if (rows.length === 0) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
      const found = new Map(rows.map((row) => [row.etag, row.summary]));
      return etags.map((etag) => found.get(etag) ?? null);
    });
  }

  /** From the tables of the full-text index (fulltext.ts); undefined where they do not hold it. */
  fullText(db: string, lookup: FullTextLookup): Promise<FullTextFound | undefined> {
    return this.serial(() => (isValidDatabaseName(db) ? readFullText(this.ctx.session, db, lookup) : Promise.resolve(undefined)));
  }

  /** The row of a resource (undefined if none; DB_NOT_FOUND_X without the database). */
  protected async lookup(db: string, path: string): Promise<ResourceRow | undefined> {
    checkDatabaseName(db);
    const p = checkPath(path);
    const rows = await this.ctx.session.query<ResourceRow & { path: string | null }>(
      `SELECT ${RESOURCE_COLUMNS} FROM xmldb_databases d
       LEFT JOIN xmldb_resources r ON r.db = d.name AND r.path = $2 WHERE d.name = $1`,
      [db, p],
    );
    if (rows.length === 0) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
    return p === '' || rows[0].path === null ? undefined : rows[0];
  }

  /** Runs calls of this view one at a time, in the order they were made. */
  protected serial<T>(fn: () => Promise<T>): Promise<T> {
    if (this.ended) return Promise.reject(new Error('This view has ended: its read or write is over.'));
    const next = this.queue.then(fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** A valid range, or INVALID_RANGE_XX. */
  protected checkRange(range: { start: number; end: number } | undefined): void {
    if (range && !(Number.isSafeInteger(range.start) && Number.isSafeInteger(range.end) && range.start >= 0 && range.start <= range.end)) {
      throw raise(STORE_ERRORS, 'INVALID_RANGE_XX', range.start, range.end);
    }
  }

  protected checkOpen(): void {
    if (this.ended) throw new Error('This view has ended: its read or write is over.');
  }
}
