/**
 * The DocumentSource of query workers: stored documents, read synchronously from the data
 * folder (store/sync-reader.ts) and parsed once per version (store/doc-cache.ts, keyed by
 * database, path and etag).
 *
 * URIs (fn:doc, fn:doc-available, fn:collection, fn:uri-collection, the engine's functions and
 * the database context all end up here):
 * - `db`, `db/path`, `/db/path`: database `db`, resource path `path` (BaseX's `doc('db/path.xml')`).
 *   `\` counts as `/`; `.` and `..` segments are normalised as in REST URLs. The text is taken as
 *   written first; if that names nothing and it contains `%XX` escapes, the decoded form is tried.
 * - `file:///xmldb-rest/db/path`: a relative URI resolved against the engine's default static base
 *   URI (compile.ts DEFAULT_BASE_URI); the part below its folder is read as above (decoded).
 * - any other `file:` URI: a file of the host, only in a run that may read host files
 *   (resource-guard.ts `fileAccessAllowed`; parsed once per modification time and size);
 *   refused with FODC0002 otherwise. Other schemes (http, ...) are
 *   refused always (a synchronous worker cannot fetch).
 *
 * fn:doc (BaseX rules): the documents at or below the path; exactly one is the answer. Errors,
 * all FODC0002 with BaseX's messages: unknown database `Resource 'db/x.xml' not found.`, no
 * document `Database path 'db/x.xml' yields no documents.`, several `Database path 'db/dir'
 * yields more than one document.`; fn:doc-available answers false for each of them.
 * fn:collection: the documents at or below the path, in path order (empty for an unknown path
 * of an existing database; FODC0002 `Resource 'x' not found.` for an unknown database); without
 * argument: the documents of the database of the query's database context (BaseX's default
 * collection), else FODC0002.
 *
 * Document nodes carry BaseX's document URI `/db/path` as both document-uri() and base-uri().
 * The same version of a document is the very same node object for as long as anybody holds it:
 * the LRU keeps recent ones, and a weak index finds any version still referenced (so node
 * identity holds within a query even for documents too large for the cache). Cached documents
 * are shared by every query of the worker: nothing may modify them (XQuery Update must copy).
 *
 * One source per worker (`createDocumentSource`, loaded by worker/thread.ts from
 * `DocumentSourceSpec.module`); `forRun` gives each query a view that remembers catalog lookups
 * for the run and knows the database context (default collection).
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { toSaxonDocument } from '../../convert/xml';
import { DocCache, DEFAULT_DOC_CACHE_BYTES } from '../../store/doc-cache';
import { isValidDatabaseName, normalizePath } from '../../store/paths';
import { SyncReader } from '../../store/sync-reader';
import type { ResourceInfo } from '../../store/types';
import type { DatabaseRunContext, DocumentSource } from '../runtime/documents';
import { NodeKind, xpathError, type XdmNode } from '../runtime/saxon';
import type { DocumentSourceSpec, WorkerInit } from '../worker/protocol';
import { dbError, type DatabaseAccess, type StoredLocation } from './db';
import { accessDenied, fileAccessAllowed } from './resource-guard';
import { BASE_FOLDER, hasScheme, splitDatabasePath } from './resource-uri';

export interface StoreSourceOptions {
  /** The data folder. */
  readonly dbPath: string;
  /** Bound of the parsed-document cache: summed source bytes (default 256 MiB). */
  readonly cacheBytes?: number;
}

/** Options of the store source inside `DocumentSourceSpec.options`. */
export interface StoreSourceSpecOptions {
  readonly cacheBytes?: number;
}

/** The `documentSource` option of a QueryPool whose workers read the store. */
export function storeSourceSpec(options: StoreSourceSpecOptions = {}): DocumentSourceSpec {
  return { module: __filename, options: { ...options } };
}

/** Entry point for worker/thread.ts (see DocumentSourceFactory). */
export function createDocumentSource(init: WorkerInit): StoreSource {
  if (!init.dbPath) throw new Error('The store document source needs WorkerInit.dbPath.');
  const options = (init.documentSource?.options ?? {}) as StoreSourceSpecOptions;
  return new StoreSource({ dbPath: init.dbPath, cacheBytes: options.cacheBytes });
}

/** Cache "database" of host files: not a valid database name, so it never collides. */
const FILES = '\u0001file';
const SEP = '\u0000';

type Target =
  | { readonly kind: 'db'; readonly db: string; readonly path: string }
  | { readonly kind: 'file'; readonly uri: string }
  | { readonly kind: 'other'; readonly uri: string }
  | { readonly kind: 'invalid' };

/** What all views of one source share. */
class Shared {
  readonly reader: SyncReader;
  readonly cache: DocCache<XdmNode>;
  /** Versions handed out and maybe still referenced, by `db SEP path SEP etag`. */
  readonly live = new Map<string, WeakRef<XdmNode>>();
  readonly finalizer = new FinalizationRegistry<string>((key) => {
    if (this.live.get(key)?.deref() === undefined) this.live.delete(key);
  });
  /** Where each stored document node came from. */
  readonly origins = new WeakMap<object, StoredLocation>();
  parses = 0;

  constructor(options: StoreSourceOptions) {
    this.reader = new SyncReader(options.dbPath);
    this.cache = new DocCache<XdmNode>({ maxSize: options.cacheBytes ?? DEFAULT_DOC_CACHE_BYTES });
  }
}

/** A view of the store for query evaluation (see the file comment). */
export class StoreView implements DocumentSource, DatabaseAccess {
  /** Catalog lookups of this run (undefined: no memo, every call asks the reader). */
  private readonly memo: Map<string, ResourceInfo | undefined> | undefined;
  private readonly dbs: Map<string, boolean> | undefined;

  protected constructor(
    protected readonly shared: Shared,
    private readonly run?: DatabaseRunContext,
    memo = false,
    /** Databases this run may read; others look as if they did not exist. Absent: all. */
    private readonly readable?: ReadonlySet<string>,
  ) {
    this.memo = memo ? new Map() : undefined;
    this.dbs = memo ? new Map() : undefined;
  }

  /** A view for one query run: remembers catalog lookups; `context` sets the default collection. */
  forRun(context?: DatabaseRunContext, readable?: readonly string[]): StoreView {
    return new StoreView(this.shared, context, true, readable === undefined ? undefined : new Set(readable));
  }

  // ------------------------------------------------------------------ DocumentSource

  getDocument(uri: string): XdmNode | null {
    const target = this.resolve(uri);
    switch (target.kind) {
      case 'file':
        return this.fileDocument(target.uri);
      case 'other':
        throw fileAccessAllowed() ? xpathError(`Only file: URIs can be read: '${uri}'.`, 'FODC0002') : accessDenied(uri);
      case 'invalid':
        throw notFound(uri);
      case 'db': {
        if (!this.hasDatabase(target.db)) throw notFound(uri);
        const exact = this.resource(target.db, target.path);
        if (exact?.type === 'xml') return this.load(target.db, exact);
        const docs = this.documents(target.db, target.path);
        if (docs.length === 1) return docs[0];
        const what = docs.length === 0 ? 'no documents' : 'more than one document';
        throw xpathError(`Database path '${uri}' yields ${what}.`, 'FODC0002');
      }
    }
  }

  getCollection(uri: string | null): XdmNode[] | null {
    if (uri === null) return this.run ? this.documents(this.run.db, '') : null;
    const target = this.resolve(uri);
    switch (target.kind) {
      case 'file':
      case 'other':
        if (!fileAccessAllowed()) throw accessDenied(uri);
        throw xpathError(`Collections of host folders are not supported: '${uri}'.`, 'FODC0002');
      case 'invalid':
        throw notFound(uri);
      case 'db':
        if (!this.hasDatabase(target.db)) throw notFound(uri);
        return this.documents(target.db, target.path);
    }
  }

  getDatabaseContext(db: string, path: string): XdmNode[] {
    this.requireDatabase(db);
    return this.documents(db, normalizeOrThrow(path));
  }

  // ------------------------------------------------------------------ DatabaseAccess

  databaseNames(): string[] {
    const names = this.shared.reader.listDatabases().map((d) => d.name);
    return this.readable === undefined ? names : names.filter((n) => this.readable?.has(n));
  }

  hasDatabase(db: string): boolean {
    if (!isValidDatabaseName(db) || (this.readable !== undefined && !this.readable.has(db))) return false;
    let exists = this.dbs?.get(db);
    if (exists === undefined) {
      exists = this.shared.reader.database(db) !== undefined;
      this.dbs?.set(db, exists);
    }
    return exists;
  }

  resources(db: string, path = ''): ResourceInfo[] {
    this.requireDatabase(db);
    return this.shared.reader.listResources(db, normalizeOrThrow(path));
  }

  resource(db: string, path: string): ResourceInfo | undefined {
    this.requireDatabase(db);
    const p = normalizeOrThrow(path);
    if (p === '') return undefined;
    const key = db + SEP + p;
    if (this.memo?.has(key)) return this.memo.get(key);
    const info = this.shared.reader.resource(db, p);
    this.memo?.set(key, info);
    return info;
  }

  documents(db: string, path = ''): XdmNode[] {
    const p = normalizeOrThrow(path);
    const exact = p === '' ? undefined : this.resource(db, p);
    if (exact) return exact.type === 'xml' ? [this.load(db, exact)] : [];
    return this.resources(db, p)
      .filter((r) => r.type === 'xml')
      .map((r) => this.load(db, r));
  }

  bytes(db: string, path: string): Buffer {
    return readFileSync(this.shared.reader.filePath(db, path));
  }

  locate(node: XdmNode): StoredLocation | undefined {
    return this.shared.origins.get(rootOf(node));
  }

  storedText(uri: string): string | undefined {
    const target = this.resolve(uri);
    if (target.kind !== 'db' || !this.hasDatabase(target.db)) return undefined;
    const info = this.resource(target.db, target.path);
    return info ? this.bytes(target.db, info.path).toString('utf8') : undefined;
  }

  // ------------------------------------------------------------------ counters

  /** Documents parsed so far by this source (cache misses), across all its views. */
  get parses(): number {
    return this.shared.parses;
  }

  /** The parsed-document cache (shared by all views). */
  get cache(): DocCache<XdmNode> {
    return this.shared.cache;
  }

  // ------------------------------------------------------------------ internals

  private requireDatabase(db: string): void {
    if (!this.hasDatabase(db)) throw dbError('open', `Database '${db}' was not found.`);
  }

  /** The parsed document of a stored XML resource: from the cache, a live node, or parsed now. */
  private load(db: string, info: ResourceInfo): XdmNode {
    const { shared } = this;
    return this.cached(db, info.path, info.etag, () => readFileSync(shared.reader.filePath(db, info.path), 'utf8'), (text) => {
      const parsed = toSaxonDocument(text) as XdmNode & { _saxonDocUri?: string; _saxonBaseUri?: string };
      parsed._saxonDocUri = parsed._saxonBaseUri = `/${db}/${info.path}`;
      shared.origins.set(parsed, { db, path: info.path });
      return parsed;
    });
  }

  /** A host file (runs that may read host files only), parsed once per modification time and size. */
  private fileDocument(uri: string): XdmNode {
    if (!fileAccessAllowed()) throw accessDenied(uri);
    let file: string;
    let etag: string;
    try {
      file = fileURLToPath(uri);
      const stat = statSync(file);
      etag = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      throw xpathError(`Resource '${uri}' not found.`, 'FODC0002');
    }
    return this.cached(FILES, file, etag, () => readFileSync(file, 'utf8'), (text) => {
      let parsed: XdmNode & { _saxonDocUri?: string; _saxonBaseUri?: string };
      try {
        parsed = toSaxonDocument(text.replace(/^\uFEFF/, '')) as typeof parsed;
      } catch (e) {
        throw xpathError(`Resource '${uri}' is not well-formed XML: ${e instanceof Error ? e.message : String(e)}`, 'FODC0002');
      }
      parsed._saxonDocUri = parsed._saxonBaseUri = uri;
      return parsed;
    });
  }

  /**
   * One version of a document: a cache hit (which refreshes its LRU position), else the node
   * still referenced from an earlier load (a query holds it, the LRU dropped it or never took
   * it), else parsed now, cached if it fits, and indexed weakly.
   */
  private cached(db: string, path: string, etag: string, read: () => string, parse: (text: string) => XdmNode): XdmNode {
    const { shared } = this;
    const docKey = { db, path };
    if (shared.cache.has(docKey, etag)) return shared.cache.get(docKey, etag, read, (t) => parse(String(t)));
    const key = db + SEP + path + SEP + etag;
    const alive = shared.live.get(key)?.deref();
    if (alive) return alive;
    const doc = shared.cache.get(docKey, etag, read, (text) => {
      shared.parses++;
      return parse(String(text));
    });
    shared.live.set(key, new WeakRef(doc));
    shared.finalizer.register(doc, key);
    return doc;
  }

  /** Where a URI points (see the file comment). */
  private resolve(uri: string): Target {
    const text = uri.trim();
    if (hasScheme(text)) {
      if (text.startsWith(BASE_FOLDER)) return this.dbTarget(decode(text.slice(BASE_FOLDER.length)) ?? '');
      return /^file:/i.test(text) ? { kind: 'file', uri: text } : { kind: 'other', uri: text };
    }
    const raw = this.dbTarget(text);
    if (!/%[0-9A-Fa-f]{2}/.test(text)) return raw;
    if (raw.kind === 'db' && this.hasDatabase(raw.db) && (raw.path === '' || this.exists(raw.db, raw.path))) return raw;
    const decoded = decode(text);
    return decoded === undefined ? raw : this.dbTarget(decoded);
  }

  private dbTarget(text: string): Target {
    const split = splitDatabasePath(text);
    const db = split.db;
    const path = normalizePath(split.path);
    if (!db || path === undefined || !isValidDatabaseName(db)) return { kind: 'invalid' };
    return { kind: 'db', db, path };
  }

  private exists(db: string, path: string): boolean {
    return this.resource(db, path) !== undefined || this.resources(db, path).length > 0;
  }
}

/** The worker's source: a StoreView without a run memo, and the factory of run views. */
export class StoreSource extends StoreView {
  constructor(options: StoreSourceOptions) {
    super(new Shared(options));
  }

  /** The synchronous reader (catalogs) of this source. */
  get reader(): SyncReader {
    return this.shared.reader;
  }
}

function notFound(uri: string): Error {
  return xpathError(`Resource '${uri}' not found.`, 'FODC0002');
}

function normalizeOrThrow(path: string): string {
  const p = normalizePath(path);
  if (p === undefined) throw dbError('path', `Invalid path: ${path}.`);
  return p;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

interface Navigable extends XdmNode {
  readonly parentNode?: Navigable | null;
  readonly parent?: Navigable | null;
  readonly ownerDocument?: Navigable | null;
}

/** The root of a node's tree (document node for stored nodes). */
function rootOf(node: XdmNode): XdmNode {
  let n = node as Navigable;
  if (n.nodeType === NodeKind.attribute || n.nodeType === NodeKind.namespace) n = n.parent ?? n;
  if (n.nodeType !== NodeKind.document && n.ownerDocument) {
    // a detached subtree has an owner document but no path to it
    let up: Navigable = n;
    while (up.parentNode) up = up.parentNode;
    return up;
  }
  return n;
}
