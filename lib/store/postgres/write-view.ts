/**
 * The write view of the PostgreSQL store: every change is made at once inside the write's
 * transaction, which PostgreSQL applies whole at commit or not at all. The checks a change needs
 * (conditions, path conflicts, names) are made before its first statement, so a refused change
 * leaves the transaction as it was. The databases a view changed are kept for the commit, which
 * stamps their modification time and version and announces them (pg-store.ts). The rows of the
 * full-text index (fulltext.ts) change with the documents they index, in the same transaction.
 */
import { Readable } from 'node:stream';
import { raise } from '../../xmldb-error';
import { backupOwner, checkBackupName } from '../backup-names';
import { randomId } from '../random-id';
import { STORE_ERRORS } from '../store-errors';
import { contentTypeOf } from '../media-types';
import { ancestorsOf, checkDatabaseName, checkPath, checkResourcePath, movedPath } from '../resource-names';
import type { DatabaseOptions, FullTextTokenizer, LockSet, PutConditions, ResourceInfo, ResourceInput, WriteView } from '../types';
import { insertBlob, orphansOf } from './blobs';
import { copyIndex, dropPostings, indexDocument, indexKept, movePostings, rebuildIndex } from './fulltext';
import { atOrBelowSql, belowRange, PgReadView, type ViewContext } from './read-view';

export interface WriteContext extends ViewContext {
  readonly locked: LockSet;
  /**
   * Commits the transaction so far and, unless it is the `last` one, starts the next one (see
   * `WriteView.checkpoint`).
   */
  readonly checkpoint: (view: PgWriteView, last: boolean) => Promise<void>;
  /** The engine's tokenizer, for the full-text index kept in the tables (fulltext.ts); without it the engine derives the index. */
  readonly fullText?: FullTextTokenizer;
  /** The summary of an XML document to keep in its row (PostgresStoreOptions `summarize`). */
  readonly summarize?: (xml: Buffer) => Uint8Array | undefined;
}

const RESOURCE_FIELDS = 'path, type, content_type, size, bytes, modified, etag, blob';

export class PgWriteView extends PgReadView implements WriteView {
  /** Databases changed since the last commit. */
  readonly dirty = new Set<string>();

  constructor(private readonly wctx: WriteContext) {
    super(wctx);
  }

  /** A database changed and not committed yet answers a version no committed state has. */
  override async versions(dbs: LockSet): Promise<ReadonlyMap<string, string>> {
    const committed = await super.versions(dbs);
    return new Map([...committed].map(([name, version]) => [name, this.dirty.has(name) ? `draft:${randomId()}` : version]));
  }

  private get session() {
    return this.wctx.session;
  }

  /** Set once the write's last transaction committed. */
  committed = false;

  checkpoint(): Promise<void> {
    return this.serial(() => this.wctx.checkpoint(this, false));
  }

  /** Commits the write's last transaction, after the calls made so far. */
  commit(): Promise<void> {
    return this.serial(async () => {
      await this.wctx.checkpoint(this, true);
      this.committed = true;
    });
  }

  /** Within a write the bytes may be uncommitted: they are read now, on the write's connection. */
  override openStream(db: string, path: string, range?: { start: number; end: number }): Readable {
    this.checkOpen();
    this.checkRange(range);
    const bytes = this.readBytes(db, path);
    bytes.catch(() => undefined); // reported by the stream
    return Readable.from(
      (async function* () {
        const all = await bytes;
        yield range ? all.subarray(range.start, range.end + 1) : all;
      })(),
    );
  }

  createDatabase(name: string, options: DatabaseOptions = {}): Promise<void> {
    return this.serial(async () => {
      this.writable(name);
      const now = Date.now();
      await this.session.query(
        `WITH gone AS (DELETE FROM xmldb_resources WHERE db = $1 RETURNING blob), ${orphansOf(2)}
         INSERT INTO xmldb_databases (name, created, modified, options) VALUES ($1, $2, $2, $3)
         ON CONFLICT (name) DO UPDATE SET created = $2, modified = $2, options = $3`,
        [name, now, JSON.stringify(options)],
      );
      await rebuildIndex(this.session, this.wctx.fullText, name);
      this.dirty.add(name);
    });
  }

  dropDatabase(name: string): Promise<boolean> {
    return this.serial(async () => {
      this.writable(name);
      const rows = await this.session.query(
        `WITH gone AS (DELETE FROM xmldb_resources WHERE db = $1 RETURNING blob), ${orphansOf(2)}
         DELETE FROM xmldb_databases WHERE name = $1 RETURNING name`,
        [name, Date.now()],
      );
      if (rows.length > 0) this.dirty.add(name);
      return rows.length > 0;
    });
  }

  renameDatabase(from: string, to: string): Promise<void> {
    return this.serial(async () => {
      this.writable(from);
      this.writable(to);
      await this.requireDatabase(from);
      if (await this.exists(to)) throw raise(STORE_ERRORS, 'DB_EXISTS_X', to);
      await this.session.query('UPDATE xmldb_databases SET name = $2, modified = $3 WHERE name = $1', [from, to, Date.now()]);
      this.dirty.add(from).add(to);
    });
  }

  copyDatabase(from: string, to: string): Promise<void> {
    return this.serial(async () => {
      this.writable(to);
      checkDatabaseName(from);
      await this.requireDatabase(from);
      if (from === to) return;
      const now = Date.now();
      await this.session.query(
        `WITH gone AS (DELETE FROM xmldb_resources WHERE db = $2 RETURNING blob), ${orphansOf(3)}
         INSERT INTO xmldb_databases (name, created, modified, options)
         SELECT $2, $3, $3, options FROM xmldb_databases WHERE name = $1
         ON CONFLICT (name) DO UPDATE SET created = $3, modified = $3, options = EXCLUDED.options`,
        [from, to, now],
      );
      await this.session.query(
        `INSERT INTO xmldb_resources (db, ${RESOURCE_FIELDS}, summary) SELECT $2, ${RESOURCE_FIELDS}, summary FROM xmldb_resources WHERE db = $1`,
        [from, to],
      );
      await copyIndex(this.session, from, to);
      this.dirty.add(to);
    });
  }

  setOptions(db: string, options: DatabaseOptions): Promise<void> {
    return this.serial(async () => {
      this.writable(db);
      const current = await this.requireDatabase(db);
      const merged: DatabaseOptions = { ...current };
      for (const [name, value] of Object.entries(options)) {
        if (value === undefined) delete merged[name];
        else merged[name] = value;
      }
      await this.session.query('UPDATE xmldb_databases SET options = $2 WHERE name = $1', [db, JSON.stringify(merged)]);
      // The options decide the index (FTINDEX, and its folding): any change rebuilds it, and so
      // does setting them again while the tables do not hold it (CREATE INDEX, db:optimize).
      if (!sameOptions(current, merged) || !(await indexKept(this.session, db))) await rebuildIndex(this.session, this.wctx.fullText, db);
      this.dirty.add(db);
    });
  }

  /**
   * Stores a resource (rules as in the file store's write view: a binary put replaces what lies
   * below its path, spec §8.3; otherwise a resource cannot lie below another one).
   */
  putResource(db: string, path: string, input: ResourceInput, conditions: PutConditions = {}): Promise<ResourceInfo | undefined> {
    return this.serial(async () => {
      this.writable(db);
      const p = checkResourcePath(path);
      const [lo, hi] = belowRange(p);
      const rows = await this.session.query<{ kind: string; path: string; etag: string | null }>(
        `SELECT 'db' AS kind, name AS path, NULL AS etag FROM xmldb_databases WHERE name = $1
         UNION ALL
         SELECT 'at', path, etag FROM xmldb_resources WHERE db = $1 AND path = ANY($2::text[])
         UNION ALL
         (SELECT 'below', path, NULL FROM xmldb_resources WHERE db = $1 AND path >= $3 AND path < $4 ORDER BY path LIMIT 1)`,
        [db, [p, ...ancestorsOf(p)], lo, hi],
      );
      if (!rows.some((r) => r.kind === 'db')) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
      const current = rows.find((r) => r.kind === 'at' && r.path === p);
      if (conditions.ifNoneMatch && current) return undefined;
      if (conditions.ifMatch !== undefined && current?.etag !== conditions.ifMatch) return undefined;
      const above = rows.find((r) => r.kind === 'at' && r.path !== p);
      if (above) throw raise(STORE_ERRORS, 'PATH_CONFLICT_XX', p, above.path);
      const below = rows.find((r) => r.kind === 'below');
      if (below && input.type !== 'binary') throw raise(STORE_ERRORS, 'PATH_CONFLICT_XX', p, below.path);

      const data = typeof input.data === 'string' ? Buffer.from(input.data, 'utf8') : input.data;
      const blob = await insertBlob(this.session, data);
      const now = Date.now();
      await this.session.query(
        `WITH gone AS (
           DELETE FROM xmldb_resources WHERE db = $1 AND (path = $2 OR (path >= $3 AND path < $4)) RETURNING blob
         ), ${orphansOf(5)}
         SELECT count(*) FROM gone`,
        [db, p, lo, hi, now],
      );
      await dropPostings(this.session, db, '(path = $2 OR (path >= $3 AND path < $4))', [p, lo, hi]);
      if (input.type === 'xml') await indexDocument(this.session, this.wctx.fullText, db, p, data);
      const info: ResourceInfo = {
        path: p,
        type: input.type,
        contentType: contentTypeOf(input.type, p),
        size: input.type === 'xml' ? (input.nodes ?? 0) : data.length,
        bytes: data.length,
        modified: now,
        etag: randomId(),
      };
      const summary = input.type === 'xml' ? this.wctx.summarize?.(data) : undefined;
      await this.session.query(
        `INSERT INTO xmldb_resources (db, ${RESOURCE_FIELDS}, summary) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [db, p, info.type, info.contentType, info.size, info.bytes, info.modified, info.etag, blob, summary === undefined ? null : Buffer.from(summary.buffer, summary.byteOffset, summary.byteLength)],
      );
      this.dirty.add(db);
      return info;
    });
  }

  deleteResources(db: string, path: string): Promise<number> {
    return this.serial(async () => {
      this.writable(db);
      const dir = checkPath(path);
      await this.requireDatabase(db);
      const where = atOrBelowSql(dir, 3);
      const [row] = await this.session.query<{ n: string }>(
        `WITH gone AS (DELETE FROM xmldb_resources r WHERE r.db = $1 AND ${where.sql} RETURNING blob), ${orphansOf(2)}
         SELECT count(*) AS n FROM gone`,
        [db, Date.now(), ...where.params],
      );
      const indexed = atOrBelowSql(dir, 2);
      await dropPostings(this.session, db, indexed.sql, indexed.params);
      const n = Number(row.n);
      if (n > 0) this.dirty.add(db);
      return n;
    });
  }

  renameResources(db: string, from: string, to: string): Promise<number> {
    return this.serial(async () => {
      this.writable(db);
      const source = checkPath(from);
      const target = checkPath(to);
      await this.requireDatabase(db);
      const all = (await this.session.query<{ path: string }>('SELECT path FROM xmldb_resources WHERE db = $1', [db])).map((r) => r.path);
      const moves = planMoves(all, source, target, to);
      if (moves.length === 0) return 0;
      const moved = await this.session.query<Record<string, unknown>>(
        `DELETE FROM xmldb_resources WHERE db = $1 AND path = ANY($2::text[]) RETURNING ${RESOURCE_FIELDS}`,
        [db, moves.map((m) => m.from)],
      );
      const dest = new Map(moves.map((m) => [m.from, m.to]));
      const column = (name: string) => moved.map((row) => (name === 'path' ? dest.get(row.path as string) : row[name]));
      await this.session.query(
        `INSERT INTO xmldb_resources (db, ${RESOURCE_FIELDS})
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::text[], $9::bigint[])`,
        [db, ...RESOURCE_FIELDS.split(', ').map(column)],
      );
      await movePostings(this.session, db, moves);
      this.dirty.add(db);
      return moves.length;
    });
  }

  /** Keeps a copy of `db` as this write sees it; the copy shares the blobs. */
  createBackup(db: string, name: string): Promise<void> {
    return this.serial(async () => {
      this.writable(db);
      checkBackupName(name);
      await this.requireDatabase(db);
      await this.deleteBackup(name);
      const stamp = this.dirty.has(db) ? Date.now() : null;
      await this.session.query(
        `INSERT INTO xmldb_backups (name, created, modified, options)
         SELECT $2, created, coalesce($3, modified), options FROM xmldb_databases WHERE name = $1`,
        [db, name, stamp],
      );
      await this.session.query(
        `INSERT INTO xmldb_backup_resources (backup, ${RESOURCE_FIELDS})
         SELECT $2, ${RESOURCE_FIELDS} FROM xmldb_resources WHERE db = $1`,
        [db, name],
      );
    });
  }

  restoreBackup(name: string, db: string): Promise<void> {
    return this.serial(async () => {
      this.writable(db);
      checkBackupName(name);
      const found = await this.session.query('SELECT name FROM xmldb_backups WHERE name = $1', [name]);
      if (found.length === 0) throw raise(STORE_ERRORS, 'BACKUP_NOT_FOUND_X', name);
      await this.session.query(
        `WITH gone AS (DELETE FROM xmldb_resources WHERE db = $2 RETURNING blob), ${orphansOf(3)}
         INSERT INTO xmldb_databases (name, created, modified, options)
         SELECT $2, created, modified, options FROM xmldb_backups WHERE name = $1
         ON CONFLICT (name) DO UPDATE SET created = EXCLUDED.created, modified = EXCLUDED.modified, options = EXCLUDED.options`,
        [name, db, Date.now()],
      );
      await this.session.query(
        `INSERT INTO xmldb_resources (db, ${RESOURCE_FIELDS})
         SELECT $2, ${RESOURCE_FIELDS} FROM xmldb_backup_resources WHERE backup = $1`,
        [name, db],
      );
      // a backup keeps no full-text index: it is built from the restored documents
      await rebuildIndex(this.session, this.wctx.fullText, db);
      this.dirty.add(db);
    });
  }

  dropBackup(name: string): Promise<boolean> {
    return this.serial(async () => {
      this.writable(backupOwner(checkBackupName(name)));
      return this.deleteBackup(name);
    });
  }

  renameBackup(from: string, to: string): Promise<void> {
    return this.serial(async () => {
      this.writable(backupOwner(checkBackupName(from)));
      this.writable(backupOwner(checkBackupName(to)));
      const found = await this.session.query('SELECT name FROM xmldb_backups WHERE name = $1', [from]);
      if (found.length === 0) throw raise(STORE_ERRORS, 'BACKUP_NOT_FOUND_X', from);
      if (from === to) return;
      await this.deleteBackup(to);
      await this.session.query('UPDATE xmldb_backups SET name = $2 WHERE name = $1', [from, to]);
    });
  }

  /** Drops a backup's rows, recording its blobs as orphans; answers whether it existed. */
  private async deleteBackup(name: string): Promise<boolean> {
    const rows = await this.session.query(
      `WITH gone AS (DELETE FROM xmldb_backup_resources WHERE backup = $1 RETURNING blob), ${orphansOf(2)}
       DELETE FROM xmldb_backups WHERE name = $1 RETURNING name`,
      [name, Date.now()],
    );
    return rows.length > 0;
  }

  private async exists(db: string): Promise<boolean> {
    return (await this.session.query('SELECT 1 FROM xmldb_databases WHERE name = $1', [db])).length > 0;
  }

  /** The options of a database; DB_NOT_FOUND_X if there is none. */
  private async requireDatabase(db: string): Promise<DatabaseOptions> {
    const rows = await this.session.query<{ options: DatabaseOptions }>('SELECT options FROM xmldb_databases WHERE name = $1', [db]);
    if (rows.length === 0) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
    return rows[0].options;
  }

  /** Checks the name and that the write holds its lock (a bug above the store otherwise). */
  private writable(name: string): void {
    this.checkOpen();
    checkDatabaseName(name);
    const { locked } = this.wctx;
    if (locked !== '*' && !locked.includes(name)) throw raise(STORE_ERRORS, 'NOT_LOCKED_X', name);
  }
}

/** Whether two sets of options are the same. */
function sameOptions(a: DatabaseOptions, b: DatabaseOptions): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => a[k] === b[k]);
}

/**
 * The moves of renaming `source` (a resource or directory) to `target`, checked against the paths
 * that stay: no destination may lie below a resource, nor a resource at or below a destination
 * (PATH_CONFLICT_XX), as in the file store.
 */
function planMoves(all: readonly string[], source: string, target: string, input: string): { from: string; to: string }[] {
  const isMoved = (p: string) => source === '' || p === source || p.startsWith(`${source}/`);
  const moves = all.filter(isMoved).sort().map((p) => {
    const to = movedPath(target, source === '' ? p : p.slice(source.length + 1), input);
    return { from: p, to };
  });
  const present = new Set(all.filter((p) => !isMoved(p)));
  // Directories holding resources that stay, with how many: "is anything below d" in O(1).
  const dirs = new Map<string, number>();
  const add = (p: string) => {
    present.add(p);
    for (const d of ancestorsOf(p)) dirs.set(d, (dirs.get(d) ?? 0) + 1);
  };
  for (const p of present) for (const d of ancestorsOf(p)) dirs.set(d, (dirs.get(d) ?? 0) + 1);
  for (const move of moves) {
    const above = ancestorsOf(move.to).find((d) => present.has(d));
    if (above !== undefined) throw raise(STORE_ERRORS, 'PATH_CONFLICT_XX', move.to, above);
    if (present.has(move.to)) throw raise(STORE_ERRORS, 'PATH_CONFLICT_XX', move.to, move.to);
    if ((dirs.get(move.to) ?? 0) > 0) {
      const first = [...present].filter((p) => p.startsWith(`${move.to}/`)).sort()[0];
      throw raise(STORE_ERRORS, 'PATH_CONFLICT_XX', move.to, first);
    }
    add(move.to);
  }
  return moves;
}
