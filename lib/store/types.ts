/**
 * The store seam: everything above `store/` talks to these interfaces only, so the file-tree
 * store (the embedded default) can be replaced by a shared one without touching operations,
 * commands or the engine.
 */
import type { Readable } from 'node:stream';

/** Kinds of resources: XML documents, raw bytes, stored XQuery values. */
export type ResourceType = 'xml' | 'binary' | 'value';

/** Database options that are kept with a database (see spec §2.4). */
export interface DatabaseOptions {
  /** Drop whitespace-only text nodes when parsing XML. */
  stripws?: boolean;
  /** Remove namespaces when parsing XML. */
  stripns?: boolean;
  [name: string]: string | number | boolean | undefined;
}

export interface ResourceInfo {
  /** Path inside the database, normalised (no leading or trailing slash). */
  readonly path: string;
  readonly type: ResourceType;
  /** Media type: from the suffix (spec §4.1); XML documents per spec §4. */
  readonly contentType: string;
  /** xml: number of nodes (document node and attributes counted); binary/value: bytes. */
  readonly size: number;
  /** Bytes of the stored file. */
  readonly bytes: number;
  /** Last modification, milliseconds since the epoch. */
  readonly modified: number;
  /** Changes on every write of this resource. */
  readonly etag: string;
}

export interface DatabaseInfo {
  readonly name: string;
  /** XML documents + binaries + values. */
  readonly resources: number;
  /** Bytes occupied on disk by the resources. */
  readonly size: number;
  /** Creation time, milliseconds since the epoch. */
  readonly created: number;
  /** Last change, milliseconds since the epoch. */
  readonly modified: number;
  readonly options: Readonly<DatabaseOptions>;
}

/** A backup: a copy of a database kept under a name of its own (see `WriteView.createBackup`). */
export interface BackupInfo {
  /** The backup's name, usually `{db}-YYYY-MM-DD-HH-MM-SS`. */
  readonly name: string;
  /** Number of resources in it. */
  readonly resources: number;
  /** Bytes of its resources. */
  readonly size: number;
  /** Last change of the database when it was backed up, milliseconds since the epoch. */
  readonly modified: number;
}

/** Content of a resource to store. XML content must already be checked and normalised. */
export interface ResourceInput {
  readonly type: ResourceType;
  readonly data: Buffer | string;
  /** For xml: the node count (spec §4). For binary/value it is ignored: the byte length is used. */
  readonly nodes?: number;
}

export interface PutConditions {
  /** Only store if the current etag equals this one. */
  readonly ifMatch?: string;
  /** Only store if no resource exists at the path (`replace=false`). */
  readonly ifNoneMatch?: boolean;
}

/** A consistent read view of the databases named when it was opened. */
export interface ReadView {
  /** All databases, sorted by name case-insensitively. */
  listDatabases(): Promise<DatabaseInfo[]>;
  database(name: string): Promise<DatabaseInfo | undefined>;
  /** Resources at `path` or below it (all of them for an empty path), sorted by path. */
  listResources(db: string, path?: string): Promise<ResourceInfo[]>;
  /** The resource stored exactly at `path`, if any. */
  resource(db: string, path: string): Promise<ResourceInfo | undefined>;
  /** The stored bytes of a resource. */
  readBytes(db: string, path: string): Promise<Buffer>;
  /** The stored bytes as a stream, optionally a byte range (inclusive end). */
  openStream(db: string, path: string, range?: { start: number; end: number }): Readable;
  /** Absolute file of a resource, for engines that read it themselves. */
  filePath(db: string, path: string): string;
  /** All backups, sorted by name (a database's backups oldest first: the names end in a timestamp). */
  listBackups(): Promise<BackupInfo[]>;
}

/** An exclusive, atomic view: all changes made through it are applied together or not at all. */
export interface WriteView extends ReadView {
  /** Creates a database; an existing one of that name is replaced (all content gone). */
  createDatabase(name: string, options?: DatabaseOptions): Promise<void>;
  /** Drops a database; answers false if it did not exist. */
  dropDatabase(name: string): Promise<boolean>;
  /** Renames a database; the target must not exist. */
  renameDatabase(from: string, to: string): Promise<void>;
  /** Copies a database; an existing target is replaced. */
  copyDatabase(from: string, to: string): Promise<void>;
  /** Sets options kept with the database. */
  setOptions(db: string, options: DatabaseOptions): Promise<void>;
  /**
   * Stores a resource, replacing one at the same path. A binary put also removes any resource
   * below the path (spec §8.3). Answers undefined where a condition prevented the write.
   */
  putResource(
    db: string,
    path: string,
    input: ResourceInput,
    conditions?: PutConditions,
  ): Promise<ResourceInfo | undefined>;
  /** Deletes the resource at `path` and every resource below it; answers how many. */
  deleteResources(db: string, path: string): Promise<number>;
  /** Renames a resource, or every resource below a directory; answers how many. */
  renameResources(db: string, from: string, to: string): Promise<number>;
  /**
   * Keeps a copy of database `db` (as this view sees it) as backup `name`, a valid database name;
   * a backup of that name is replaced. Needs the lock of `db`.
   */
  createBackup(db: string, name: string): Promise<void>;
  /**
   * Replaces database `db` (created if missing) by the content of backup `name`, which stays.
   * Needs the lock of `db`; BACKUP_NOT_FOUND_X if there is no such backup.
   */
  restoreBackup(name: string, db: string): Promise<void>;
  /** Drops a backup; answers false if it did not exist. Needs the lock of its database (`backupOwner`). */
  dropBackup(name: string): Promise<boolean>;
  /**
   * Renames a backup; an existing one of the new name is replaced. Needs the locks of the
   * databases of both names (`backupOwner`); BACKUP_NOT_FOUND_X if there is no such backup.
   */
  renameBackup(from: string, to: string): Promise<void>;
  /**
   * Applies the changes staged so far, keeping the locks: later reads (also those of query
   * workers reading the files) see them, and a later failure no longer undoes them. Scripts use
   * it to commit command by command while holding their locks, as the reference server does.
   */
  checkpoint(): Promise<void>;
}

/** Names of databases a request needs, or '*' for all of them (listings, creation by pattern). */
export type LockSet = readonly string[] | '*';

export interface Store {
  /** Runs `fn` under shared locks of the named databases. */
  read<T>(dbs: LockSet, fn: (view: ReadView) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` under exclusive locks of the named databases. Changes are staged and applied
   * atomically when `fn` resolves; if it throws, nothing is applied (since the last checkpoint).
   */
  write<T>(dbs: LockSet, fn: (view: WriteView) => Promise<T>): Promise<T>;
  /** Hints that a database changed (to evict caches early); answers an unsubscribe function. */
  subscribe(fn: (db: string) => void): () => void;
  /** Waits for writes in flight, then releases resources. */
  close(): Promise<void>;
}
