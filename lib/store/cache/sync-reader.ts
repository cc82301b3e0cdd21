/**
 * A synchronous, read-only reader of the file store's on-disk format, for XQuery worker threads
 * that run while the main thread holds the request's locks (the `files` worker reader, types.ts
 * `WorkerReaderSpec`). It keeps each database's catalog in memory and reads it again only when
 * the database's meta shows another incarnation or generation.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { raise } from '../../xmldb-error';
import { errorCode } from '../../atomic-files';
import { comparePaths, metaVersion, readEntriesSync, readMetaSync, type CatalogEntry, type DatabaseMeta } from '../file/catalog';
import { STORE_ERRORS } from '../store-errors';
import { checkDatabaseName, checkPath, compareNames, isAtOrBelow, isValidDatabaseName } from '../resource-names';
import { databaseFolder, resourceFile, resourceFileIn } from '../file/disk-paths';
import type { CatalogSnapshot, DatabaseInfo, LockSet, ResourceInfo, SyncStoreReader } from '../types';
import { databaseInfo, resourceInfo } from '../file/views';
import { SummaryLogReader } from '../file/summary-log';

interface CachedDatabase {
  readonly meta: DatabaseMeta;
  readonly entries: ReadonlyMap<string, CatalogEntry>;
  sorted?: readonly string[];
  snapshot?: CatalogSnapshot;
}

export class SyncReader implements SyncStoreReader {
  private readonly cache = new Map<string, CachedDatabase>();
  /** The data folder, absolute. */
  readonly dbPath: string;
  private readonly summaryLogs: SummaryLogReader;

  constructor(dbPath: string) {
    this.dbPath = path.resolve(dbPath);
    this.summaryLogs = new SummaryLogReader(this.dbPath);
  }

  summaries(db: string, etags: readonly string[]): (Uint8Array | undefined)[] {
    return isValidDatabaseName(db) ? this.summaryLogs.summaries(db, etags) : etags.map(() => undefined);
  }

  /** All databases, sorted by name case-insensitively. */
  listDatabases(): DatabaseInfo[] {
    const infos: DatabaseInfo[] = [];
    for (const name of this.databaseNames()) {
      const info = this.database(name);
      if (info) infos.push(info);
    }
    return infos.sort((a, b) => compareNames(a.name, b.name));
  }

  /** The database `name`, if it exists. */
  database(name: string): DatabaseInfo | undefined {
    if (!isValidDatabaseName(name)) return undefined;
    const meta = readMetaSync(databaseFolder(this.dbPath, name));
    if (!meta) {
      this.cache.delete(name);
      return undefined;
    }
    return databaseInfo(name, meta, meta.resources, meta.size);
  }

  /** Resources at `dir` or below it (all for ''), sorted by path. */
  listResources(db: string, dir = ''): ResourceInfo[] {
    const cached = this.load(db);
    const base = checkPath(dir);
    return this.sortedPaths(cached)
      .filter((p) => isAtOrBelow(p, base))
      .map((p) => resourceInfo(p, cached.entries.get(p) as CatalogEntry));
  }

  /** The resource stored exactly at `p`, if any. */
  resource(db: string, p: string): ResourceInfo | undefined {
    const cached = this.load(db);
    const normalized = checkPath(p);
    const entry = cached.entries.get(normalized);
    return entry && resourceInfo(normalized, entry);
  }

  /** The stored bytes of a resource. */
  readBytes(db: string, p: string): Buffer {
    if (!this.resource(db, p)) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', p);
    return readFileSync(resourceFile(this.dbPath, db, p));
  }

  /** The version of each named database that exists ('*': every database). */
  versions(dbs: LockSet): Map<string, string> {
    const result = new Map<string, string>();
    for (const name of dbs === '*' ? this.databaseNames() : dbs) {
      const meta = isValidDatabaseName(name) ? readMetaSync(databaseFolder(this.dbPath, name)) : undefined;
      if (meta) result.set(name, metaVersion(meta));
    }
    return result;
  }

  /** The catalog of `db` at its current version. */
  catalog(db: string): CatalogSnapshot {
    const cached = this.load(db);
    cached.snapshot ??= {
      version: metaVersion(cached.meta),
      resources: this.sortedPaths(cached).map((p) => resourceInfo(p, cached.entries.get(p) as CatalogEntry)),
      database: databaseInfo(db, cached.meta, cached.meta.resources, cached.meta.size),
    };
    return cached.snapshot;
  }

  /** The bytes of resources of `db` (read as the files are now: the caller holds the locks). */
  read(db: string, paths: readonly string[]): Buffer[] {
    const folder = databaseFolder(this.dbPath, db);
    return paths.map((p) => {
      try {
        return readFileSync(resourceFileIn(folder, p));
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', p);
        throw error;
      }
    });
  }

  /** Forgets cached catalogs (all, or one database's). */
  forget(db?: string): void {
    if (db === undefined) this.cache.clear();
    else this.cache.delete(db);
  }

  /** Names of the folders that may be databases (those with a meta are). */
  private databaseNames(): string[] {
    try {
      return readdirSync(this.dbPath).filter(isValidDatabaseName);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
  }

  private sortedPaths(cached: CachedDatabase): readonly string[] {
    cached.sorted ??= [...cached.entries.keys()].sort(comparePaths);
    return cached.sorted;
  }

  /** The catalog of `db`, read again only if its meta changed. */
  private load(db: string): CachedDatabase {
    const folder = databaseFolder(this.dbPath, checkDatabaseName(db));
    const meta = readMetaSync(folder);
    if (!meta) {
      this.cache.delete(db);
      throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
    }
    const cached = this.cache.get(db);
    if (cached && cached.meta.uid === meta.uid && cached.meta.generation === meta.generation) return cached;
    const fresh: CachedDatabase = { meta, entries: readEntriesSync(folder, meta) };
    this.cache.set(db, fresh);
    return fresh;
  }
}
