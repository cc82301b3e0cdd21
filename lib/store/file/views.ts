/**
 * Read views: what a request sees of the databases. A view resolves database names to DbViews,
 * either committed databases (read()) or drafts with staged changes over them (write()).
 */
import { createReadStream, fstatSync, openSync, closeSync, readFile, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { raise } from '../../xmldb-error';
import { errorCode } from '../../atomic-files';
import type { BackupRecord } from './backups';
import { compareBackupNames } from '../backup-names';
import { Catalog, metaVersion, type CatalogEntry, type DatabaseMeta } from './catalog';
import { STORE_ERRORS } from '../store-errors';
import { checkDatabaseName, checkPath, compareNames, isAtOrBelow, isValidDatabaseName } from '../resource-names';
import { resourceFile } from './disk-paths';
import type { BackupInfo, DatabaseInfo, LockSet, ReadView, ResourceInfo } from '../types';
import { SummaryLogFiles, summaryLogIn } from './summary-log';

/** The summary logs the read views of every file store of this process read (keyed by file). */
const servedLogs = new SummaryLogFiles();

/** One database as a view sees it. */
export interface DbView {
  readonly name: string;
  info(): DatabaseInfo;
  entry(p: string): Promise<CatalogEntry | undefined>;
  /** The version of the database as this view sees it (types.ts `ReadView.versions`). */
  version(): string;
  /** All resource paths, sorted by code units. */
  paths(): Promise<readonly string[]>;
  /**
   * The file holding the bytes of `p` (which may not exist), or undefined where the view knows
   * there is no resource. Synchronous: works before the catalog is loaded.
   */
  file(p: string): string | undefined;
}

/** A committed database: its meta in memory, its catalog loaded on first use. */
export class DbRecord implements DbView {
  private loading: Promise<Catalog> | undefined;
  private catalogLoaded: Catalog | undefined;

  constructor(
    private readonly dbPath: string,
    readonly name: string,
    readonly folder: string,
    public meta: DatabaseMeta,
    catalog?: Catalog,
  ) {
    if (catalog) this.setCatalog(catalog);
  }

  /** The catalog, loaded once (a failed load is retried next time). */
  catalog(): Promise<Catalog> {
    this.loading ??= Catalog.load(this.folder, this.meta.shards).then(
      (catalog) => {
        this.catalogLoaded = catalog;
        return catalog;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  private setCatalog(catalog: Catalog): void {
    this.catalogLoaded = catalog;
    this.loading = Promise.resolve(catalog);
  }

  info(): DatabaseInfo {
    return databaseInfo(this.name, this.meta, this.meta.resources, this.meta.size);
  }

  version(): string {
    return metaVersion(this.meta);
  }

  async entry(p: string): Promise<CatalogEntry | undefined> {
    return (this.catalogLoaded ?? (await this.catalog())).get(p);
  }

  async paths(): Promise<readonly string[]> {
    return (this.catalogLoaded ?? (await this.catalog())).paths();
  }

  file(p: string): string {
    return resourceFile(this.dbPath, this.name, p);
  }
}

/** Database info from a meta and current totals. */
export function databaseInfo(name: string, meta: DatabaseMeta, resources: number, size: number): DatabaseInfo {
  return { name, resources, size, created: meta.created, modified: meta.modified, options: { ...meta.options } };
}

/** Resource info from a catalog entry. */
export function resourceInfo(p: string, entry: CatalogEntry): ResourceInfo {
  return {
    path: p,
    type: entry.type,
    contentType: entry.contentType,
    size: entry.size,
    bytes: entry.bytes,
    modified: entry.modified,
    etag: entry.etag,
  };
}

/** How a view finds databases. */
export interface DbResolver {
  names(): string[];
  get(name: string): DbView | undefined;
  /** The backups by name (committed ones, with a write's staged changes over them). */
  backups(): Promise<ReadonlyMap<string, BackupRecord>>;
}

/**
 * The read view over a resolver. Databases outside the lock set stay readable (each call sees a
 * committed state), but only locked databases are consistent across calls.
 */
export class StoreReadView implements ReadView {
  constructor(protected readonly resolver: DbResolver) {}

  async listDatabases(): Promise<DatabaseInfo[]> {
    const infos: DatabaseInfo[] = [];
    for (const name of this.resolver.names()) {
      const db = this.resolver.get(name);
      if (db) infos.push(db.info());
    }
    return infos.sort((a, b) => compareNames(a.name, b.name));
  }

  async database(name: string): Promise<DatabaseInfo | undefined> {
    return isValidDatabaseName(name) ? this.resolver.get(name)?.info() : undefined;
  }

  async listResources(db: string, path = ''): Promise<ResourceInfo[]> {
    const view = this.require(db);
    const dir = checkPath(path);
    const result: ResourceInfo[] = [];
    for (const p of await view.paths()) {
      if (!isAtOrBelow(p, dir)) continue;
      const entry = await view.entry(p);
      if (entry) result.push(resourceInfo(p, entry));
    }
    return result;
  }

  async resource(db: string, path: string): Promise<ResourceInfo | undefined> {
    const view = this.require(db);
    const p = checkPath(path);
    if (p === '') return undefined;
    const entry = await view.entry(p);
    return entry && resourceInfo(p, entry);
  }

  async readBytes(db: string, path: string): Promise<Buffer> {
    const view = this.require(db);
    const p = checkPath(path);
    const entry = p === '' ? undefined : await view.entry(p);
    const file = entry && view.file(p);
    if (!file) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
    return readWhole(file);
  }

  /** From the database's summary log (summary-log.ts); a database changed by a write not committed yet has none. */
  async summaries(db: string, etags: readonly string[]): Promise<(Uint8Array | null)[]> {
    const view = this.require(db);
    return view instanceof DbRecord ? servedLogs.summaries(summaryLogIn(view.folder), etags) : etags.map(() => null);
  }

  /**
   * Files of at most `maxBytes` are read here synchronously, one after another: a small file read
   * through libuv's thread pool costs several hand-offs between threads (open, stat, read, close),
   * about ten times the read itself, and the caller bounds a batch (a few MB).
   */
  async readMany(db: string, paths: readonly string[], maxBytes: number): Promise<(Buffer | null)[]> {
    const view = this.require(db);
    const read: (Buffer | null)[] = [];
    for (const path of paths) {
      const p = checkPath(path);
      const entry = p === '' ? undefined : await view.entry(p);
      const file = entry && view.file(p);
      if (!file) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
      read.push(entry.bytes > maxBytes ? null : readFileSync(file));
    }
    return read;
  }

  openStream(db: string, path: string, range?: { start: number; end: number }): Readable {
    const view = this.require(db);
    const p = checkPath(path);
    const file = p === '' ? undefined : view.file(p);
    if (!file) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
    if (range && !(Number.isSafeInteger(range.start) && Number.isSafeInteger(range.end) && range.start >= 0 && range.start <= range.end)) {
      throw raise(STORE_ERRORS, 'INVALID_RANGE_XX', range.start, range.end);
    }
    // Opened now, so the stream reads these bytes even if a later write replaces the file.
    const fd = openFile(file, path);
    return createReadStream('', { fd, autoClose: true, ...(range ?? {}) });
  }

  async versions(dbs: LockSet): Promise<ReadonlyMap<string, string>> {
    const result = new Map<string, string>();
    for (const name of dbs === '*' ? this.resolver.names() : dbs) {
      const db = isValidDatabaseName(name) ? this.resolver.get(name) : undefined;
      if (db) result.set(name, db.version());
    }
    return result;
  }

  async listBackups(): Promise<BackupInfo[]> {
    const backups = await this.resolver.backups();
    return [...backups.values()].map((b) => b.info).sort((a, b) => compareBackupNames(a.name, b.name));
  }

  /** The database, or DB_NOT_FOUND_X (INVALID_DB_NAME_X for an invalid name). */
  protected require(db: string): DbView {
    const view = this.resolver.get(checkDatabaseName(db));
    if (!view) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
    return view;
  }
}

function openFile(file: string, path: string): number {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
    throw error;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
  }
  return fd;
}

/**
 * A file's bytes, through fs.readFile's callback form: a query's first look at a database reads
 * its documents a few hundred at once (store-channel.ts), and for such small files the promise
 * form took about twice as long (more round trips through libuv's thread pool per file).
 */
const readWhole: (file: string) => Promise<Buffer> = promisify(readFile);
