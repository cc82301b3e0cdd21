/**
 * The store seam: everything above `store/` talks to these interfaces only, so the file-tree
 * store (the embedded default) can be replaced by a shared one without touching operations,
 * commands or the engine.
 *
 * What a store implements for the engine to work:
 * - `Store` and the views below. Locks are per database (readers share, writers exclude), and a
 *   view's answers are consistent for the databases it locked while its function runs.
 * - Versions and etags, the keys of every cache above the store (the query workers' parsed
 *   documents, element-name indexes and catalogs). They may be cached by any number of
 *   processes, so a store shared by several servers must make them globally unique:
 *   - `ResourceInfo.etag` changes on every write of the resource, and an etag never names two
 *     different contents at the same database and path (not even across a database dropped and
 *     created again): a random id per write, or a content digest, does.
 *   - `ReadView.versions` answers one version per database that changes with every committed
 *     change of the database (its resources, their metadata or its options) and never comes back
 *     for another state of a database of that name. A view with uncommitted changes of its own
 *     answers a version that no committed state has (the file store: a fresh random one).
 *   The engine asks for the versions once per request, through the view that holds the
 *   request's locks, and trusts its caches for the rest of the request; nothing else is needed
 *   to keep caches correct across servers. `Store.subscribe` is only a hint to evict early. The
 *   engine keeps the results of pure queries over a database by its version too (result-memo.ts);
 *   its other caches, of parsed, translated and compiled queries, depend on the query text alone.
 * - How query workers read (`Store.workerReader`): workers run queries synchronously on their
 *   own threads while the main thread holds the request's view. By default they ask the main
 *   thread, which answers with that view: `versions`, `listResources(db)` of a whole database
 *   with `versions([db])` and `database(db)` when a worker lacks that version's catalog, and
 *   `readBytes` of the documents it has not parsed yet, up to a few hundred calls at once (they
 *   may overlap, so a store may batch them), or one `readMany` for them where the store has it.
 *   A store needs nothing more. A store whose data a worker can read directly names a reader
 *   that the worker opens itself (the file store: its folder, read by store/cache/sync-reader.ts).
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
  /**
   * The stored bytes of several resources of `db`, in the order of `paths`; null for one the
   * caller is to read alone (`readBytes` or `openStream`), as every one larger than `maxBytes`
   * must be. A missing one fails the call as `readBytes` fails. For the documents a query's
   * first look at a database reads by the hundred; a store without it gets one `readBytes` per
   * document.
   */
  readMany?(db: string, paths: readonly string[], maxBytes: number): Promise<(Buffer | null)[]>;
  /**
   * The stored bytes as a stream, optionally a byte range (inclusive end). The resource is found
   * now, under the view's locks; the stream delivers those bytes even when it is read after the
   * view ended and a later write replaced or deleted the resource.
   */
  openStream(db: string, path: string, range?: { start: number; end: number }): Readable;
  /**
   * The version of each named database that exists ('*': of every database). See "Versions and
   * etags" above: query workers key their caches by these, checked once per request.
   */
  versions(dbs: LockSet): Promise<ReadonlyMap<string, string>>;
  /** All backups, sorted by name (a database's backups oldest first: the names end in a timestamp). */
  listBackups(): Promise<BackupInfo[]>;
  /**
   * The full-text index of `db` as the store keeps it (see "The full-text index" below);
   * undefined when the store keeps none (the file store: the engine derives it from the
   * documents) or `db` has no full-text index.
   */
  fullText?(db: string, lookup: FullTextLookup): Promise<FullTextFound | undefined>;
  /**
   * The summaries the store kept when these versions of documents of `db` were stored (the file
   * store's `summarize` option), in the order of `etags`; null where it keeps none.
   */
  summaries?(db: string, etags: readonly string[]): Promise<(Uint8Array | null)[]>;
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
   * workers reading the store directly) see them, and a later failure no longer undoes them.
   * Scripts use it to commit command by command while holding their locks, as the reference
   * server does.
   */
  checkpoint(): Promise<void>;
}

/**
 * The full-text index. The engine derives it from each stored document version (the file store);
 * a store shared by several servers may keep it itself, written in the same transaction as the
 * documents (PostgreSQL). Such a store is given the engine's tokenizer (`FullTextTokenizer`: one
 * tokenizer, the store imports no engine code) and answers `ReadView.fullText` from what it keeps.
 * A document's text nodes are numbered in document order from 0 (every text node, with tokens or
 * not: the numbering follows the data model, not the tokenizer); a stored index has a posting
 * for each text node with at least one token.
 */
export type FullTextLookup =
  /** The text nodes holding any of these folded tokens, per document. */
  | { readonly tokens: readonly string[] }
  /**
   * The distinct folded tokens of each XML document at these paths (wildcards, fuzzy and stemmed
   * words select from a database's vocabulary, kept per document version).
   */
  | { readonly vocabularyOf: readonly string[] };

export type FullTextFound =
  /** Per document path holding any token asked, its text node numbers, ascending. */
  | { readonly postings: readonly (readonly [path: string, nodes: readonly number[]])[] }
  /** Per path asked that has tokens, its distinct tokens. */
  | { readonly vocabularies: readonly (readonly [path: string, tokens: readonly string[]])[] };

/**
 * The postings of one document: for each text node with tokens, its number (`nodes`, ascending)
 * and its folded tokens in order, joined by single spaces (`tokens`, parallel; a token is letters,
 * digits and marks, never a space, so a token's place in the split string is its position).
 */
export interface FullTextPostings {
  readonly nodes: readonly number[];
  readonly tokens: readonly string[];
}

/**
 * The engine's tokenizer for a store that keeps the full-text index: the postings of an XML
 * document (stored bytes) under the options of its database, which decide the folding (CASESENS,
 * DIACRITICS). The store calls it only for databases with the index (`hasFullTextIndex`). It may
 * do its work off the calling thread (a large document is parsed on an offload thread).
 */
export type FullTextTokenizer = (xml: Buffer, options: Readonly<DatabaseOptions>) => Promise<FullTextPostings>;

/** Names of databases a request needs, or '*' for all of them (listings, creation by pattern). */
export type LockSet = readonly string[] | '*';

/**
 * A database's catalog at one version, as query workers cache it: every resource, sorted by path
 * (code units, as `listResources` answers).
 */
export interface CatalogSnapshot {
  readonly version: string;
  readonly resources: readonly ResourceInfo[];
  /** The database itself at that version: its times, totals and options (db:info, the value indexes' flags). */
  readonly database: DatabaseInfo;
}

/**
 * A synchronous reader for query workers (see the file comment). It reads the committed state,
 * or, over the main thread, the state of the request's view.
 */
export interface SyncStoreReader {
  /** The version of each named database that exists ('*': every database). */
  versions(dbs: LockSet): ReadonlyMap<string, string>;
  /** The catalog of `db` as it is now; DB_NOT_FOUND_X if there is no such database. */
  catalog(db: string): CatalogSnapshot;
  /** The stored bytes of resources of `db`, in the order of `paths`; RESOURCE_NOT_FOUND_X for a missing one. */
  read(db: string, paths: readonly string[]): Buffer[];
  /**
   * `read`, asked now and taken later: a reader that waits for another thread starts the read,
   * so that the caller works meanwhile (absent: the caller reads when it needs the bytes).
   */
  readAhead?(db: string, paths: readonly string[]): ReadAhead;
  /** The store's own full-text index (`ReadView.fullText`); absent or undefined: derive it. */
  fullText?(db: string, lookup: FullTextLookup): FullTextFound | undefined;
  /**
   * The summaries kept when these versions of documents of `db` were stored (the file store's
   * `summarize` option), by etag; undefined where none is kept (absent: none ever is).
   */
  summaries?(db: string, etags: readonly string[]): (Uint8Array | undefined)[];
}

/** A read asked ahead (SyncStoreReader `readAhead`): `take` waits for its bytes; `drop` when they are no longer wanted. */
export interface ReadAhead {
  take(): Buffer[];
  drop(): void;
}

/**
 * How query workers read a store (structured-clone data, sent to each worker):
 * - `files`: the file store's folder, read directly (store/cache/sync-reader.ts);
 * - `channel`: requests to the main thread, answered with the request's ReadView (any store).
 */
export type WorkerReaderSpec = { readonly kind: 'files'; readonly dbPath: string } | { readonly kind: 'channel' };

export interface Store {
  /** Runs `fn` under shared locks of the named databases. */
  read<T>(dbs: LockSet, fn: (view: ReadView) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` under exclusive locks of the named databases. Changes are staged and applied
   * atomically when `fn` resolves; if it throws, nothing is applied (since the last checkpoint).
   */
  write<T>(dbs: LockSet, fn: (view: WriteView) => Promise<T>): Promise<T>;
  /**
   * How query workers read this store; without it they ask the main thread (`channel`), which
   * works for every store.
   */
  workerReader?(): WorkerReaderSpec;
  /**
   * Answers once the store answers, without waiting behind requests (the health probe); without
   * it, an empty read is the probe.
   */
  ping?(): Promise<void>;
  /** Hints that a database changed (to evict caches early); answers an unsubscribe function. */
  subscribe(fn: (db: string) => void): () => void;
  /** Waits for writes in flight, then releases resources. */
  close(): Promise<void>;
}
