/**
 * A ReadView over databases held in memory, with no files anywhere: what a store that is not a
 * folder (a shared database server) gives the engine. `put` changes a database the way another
 * server would: the version and the etag change, nobody is notified. Calls are counted.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { raise } from '../../lib/xmldb-error';
import { STORE_ERRORS } from '../../lib/store/store-errors';
import type { BackupInfo, DatabaseInfo, LockSet, ReadView, ResourceInfo, ResourceType } from '../../lib/store/types';

interface MemoryDb {
  version: string;
  readonly created: number;
  readonly resources: Map<string, { info: ResourceInfo; bytes: Buffer }>;
}

export class MemoryView implements ReadView {
  private readonly dbs = new Map<string, MemoryDb>();
  readonly calls = { versions: 0, listResources: 0, readBytes: 0, readRequests: 0 };
  /** Set while the readBytes calls of one synchronous burst (one worker request) arrive. */
  private inRequest = false;

  /** Creates or replaces a resource (and its database): a new version and a new etag. */
  put(db: string, path: string, data: string | Buffer, type: ResourceType = 'xml'): void {
    let entry = this.dbs.get(db);
    if (!entry) {
      entry = { version: '', created: Date.now(), resources: new Map() };
      this.dbs.set(db, entry);
    }
    const bytes = Buffer.from(data);
    const contentType = type === 'xml' ? 'application/xml' : 'application/octet-stream';
    const info = { path, type, contentType, size: bytes.length, bytes: bytes.length, modified: Date.now(), etag: randomUUID() };
    entry.resources.set(path, { info, bytes });
    entry.version = randomUUID();
  }

  drop(db: string): void {
    this.dbs.delete(db);
  }

  /** Resets the call counters. */
  count(): void {
    Object.assign(this.calls, { versions: 0, listResources: 0, readBytes: 0, readRequests: 0 });
  }

  async listDatabases(): Promise<DatabaseInfo[]> {
    return [...this.dbs.keys()].sort().map((name) => this.info(name));
  }

  async database(name: string): Promise<DatabaseInfo | undefined> {
    return this.dbs.has(name) ? this.info(name) : undefined;
  }

  async listResources(db: string, path = ''): Promise<ResourceInfo[]> {
    this.calls.listResources++;
    return [...this.require(db).resources.values()]
      .map((r) => r.info)
      .filter((r) => path === '' || r.path === path || r.path.startsWith(`${path}/`))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async resource(db: string, path: string): Promise<ResourceInfo | undefined> {
    return this.require(db).resources.get(path)?.info;
  }

  readBytes(db: string, path: string): Promise<Buffer> {
    this.calls.readBytes++;
    if (!this.inRequest) {
      this.inRequest = true;
      this.calls.readRequests++;
      queueMicrotask(() => (this.inRequest = false));
    }
    const found = this.require(db).resources.get(path);
    return found ? Promise.resolve(found.bytes) : Promise.reject(raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path));
  }

  /** Streams opened (bytes-in-parts.ts reads large documents so). */
  streams = 0;

  openStream(db: string, path: string): Readable {
    const found = this.require(db).resources.get(path);
    if (!found) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
    this.streams++;
    const chunks: Buffer[] = [];
    for (let i = 0; i < found.bytes.length; i += 65536) chunks.push(found.bytes.subarray(i, i + 65536));
    return Readable.from(chunks);
  }

  async versions(dbs: LockSet): Promise<ReadonlyMap<string, string>> {
    this.calls.versions++;
    const names = dbs === '*' ? [...this.dbs.keys()] : dbs.filter((name) => this.dbs.has(name));
    return new Map(names.map((name) => [name, this.require(name).version]));
  }

  async listBackups(): Promise<BackupInfo[]> {
    return [];
  }

  private info(name: string): DatabaseInfo {
    const db = this.require(name);
    const size = [...db.resources.values()].reduce((sum, r) => sum + r.bytes.length, 0);
    return { name, resources: db.resources.size, size, created: db.created, modified: db.created, options: {} };
  }

  protected require(db: string): MemoryDb {
    const found = this.dbs.get(db);
    if (!found) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
    return found;
  }
}

/** A MemoryView that also reads many documents in one call (ReadView `readMany`), counted. */
export class BatchingMemoryView extends MemoryView {
  readMany_ = { calls: 0, documents: 0 };

  async readMany(db: string, paths: readonly string[], maxBytes: number): Promise<(Buffer | null)[]> {
    this.readMany_.calls++;
    const { resources } = this.require(db);
    return paths.map((path) => {
      const found = resources.get(path);
      if (!found) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
      if (found.bytes.length > maxBytes) return null;
      this.readMany_.documents++;
      return found.bytes;
    });
  }
}
