/**
 * A synchronous, read-only reader of the store's on-disk format, for XQuery worker threads that
 * run while the main thread holds the read locks. It keeps each database's catalog in memory and
 * reads it again only when the database's meta shows another incarnation or generation.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { raise } from '../errors';
import { errorCode } from './atomic';
import { comparePaths, readEntriesSync, readMetaSync, type CatalogEntry, type DatabaseMeta } from './catalog';
import { STORE_ERRORS } from './errors';
import { checkDatabaseName, checkPath, databaseFolder, isAtOrBelow, isValidDatabaseName, resourceFile } from './paths';
import type { DatabaseInfo, ResourceInfo } from './types';
import { compareNames, databaseInfo, resourceInfo } from './views';

interface CachedDatabase {
  readonly meta: DatabaseMeta;
  readonly entries: ReadonlyMap<string, CatalogEntry>;
  sorted?: readonly string[];
}

export class SyncReader {
  private readonly cache = new Map<string, CachedDatabase>();
  /** The data folder, absolute. */
  readonly dbPath: string;

  constructor(dbPath: string) {
    this.dbPath = path.resolve(dbPath);
  }

  /** All databases, sorted by name case-insensitively. */
  listDatabases(): DatabaseInfo[] {
    let names: string[];
    try {
      names = readdirSync(this.dbPath).filter(isValidDatabaseName);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
    const infos: DatabaseInfo[] = [];
    for (const name of names) {
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
    cached.sorted ??= [...cached.entries.keys()].sort(comparePaths);
    return cached.sorted
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

  /** Absolute file of a resource. */
  filePath(db: string, p: string): string {
    return resourceFile(this.dbPath, db, p);
  }

  /** Forgets cached catalogs (all, or one database's). */
  forget(db?: string): void {
    if (db === undefined) this.cache.clear();
    else this.cache.delete(db);
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
