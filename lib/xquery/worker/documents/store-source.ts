/**
 * The DocumentSource of query workers: stored documents, read synchronously through the store's
 * worker reader (store/types.ts `SyncStoreReader`: the file store's folder, or the main thread's
 * view of the request) and parsed once per version (parsed-documents.ts). Catalogs are cached per
 * database version (store-catalogs.ts); the documents of a collection that are not cached yet are
 * read in batches, one reader call per batch.
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
 * Document nodes carry BaseX's document URI `/db/path` as both document-uri() and base-uri(),
 * and the same version of a document is the very same node object (parsed-documents.ts).
 *
 * One source per worker (`createDocumentSource`, loaded by worker/thread.ts from
 * `DocumentSourceSpec.module`); `forRun` gives each query a view that takes each database's
 * version once for the run (from the request when it brings them) and knows the database
 * context (default collection).
 */
import { isAtOrBelow, isValidDatabaseName, normalizePath } from '../../../store';
import { SyncReader } from '../../../store/cache';
import type { DatabaseInfo, FullTextFound, FullTextLookup, ReadAhead, ResourceInfo, SyncStoreReader, WorkerReaderSpec } from '../../../store/types';
import type { DocCache } from '../../../store/cache';
import type { DatabaseRunContext, DocumentSource } from './source';
import { xpathError, type XdmNode } from '../../../saxon';
import { dbError, type DatabaseAccess, type StoredLocation } from './database-access';
import { ParsedDocuments } from './parsed-documents';
import { accessDenied, fileAccessAllowed } from '../guards/resource-guard';
import { databaseTarget, hasScheme } from '../../language/resource-uri';
import { BASE_FOLDER } from '../../constants';
import { CatalogCache, RunCatalogs, type CatalogState } from './store-catalogs';
import { LeafSummaryCache, type LeafSummary, type SummarySource } from '../../accelerators/leaf-summaries/leaf-summaries';
import { storedSummaries } from '../../accelerators/leaf-summaries/summary-record';

export interface StoreSourceOptions {
  /** The data folder of a file store, read directly (when no `reader` is given). */
  readonly dbPath?: string;
  /** The store's worker reader. */
  readonly reader?: SyncStoreReader;
  /** Bound of the parsed-document cache: summed source bytes (default 16 MiB). */
  readonly cacheBytes?: number;
  /** Node objects made before the views of stored documents are renewed (default parsed-documents.ts RENEW_NODES). */
  readonly renewNodes?: number;
}

/**
 * The store source of a pool's workers, as structured-clone data (the `documentSource` of a
 * QueryPool; each worker builds its source from it, worker/thread.ts).
 */
export interface StoreSourceSpec {
  readonly cacheBytes?: number;
  /** How the workers read the store (store/types.ts); default: the files of `WorkerInit.dbPath`. */
  readonly reader?: WorkerReaderSpec;
}

/** The `documentSource` option of a QueryPool whose workers read the store. */
export function storeSourceSpec(options: StoreSourceSpec = {}): StoreSourceSpec {
  return { ...options };
}

/** Documents read in one reader call: at most this many, ... */
const BATCH_DOCUMENTS = 256;
/** ... and about this many bytes. */
const BATCH_BYTES = 4 * 1024 * 1024;

type Target =
  | { readonly kind: 'db'; readonly db: string; readonly path: string }
  | { readonly kind: 'file'; readonly uri: string }
  | { readonly kind: 'other'; readonly uri: string }
  | { readonly kind: 'invalid' };

/** What all views of one source share. */
class Shared {
  readonly reader: SyncStoreReader;
  readonly catalogs = new CatalogCache();
  readonly documents: ParsedDocuments;
  readonly summaries = new LeafSummaryCache();

  constructor(options: StoreSourceOptions) {
    if (options.reader) this.reader = options.reader;
    else if (options.dbPath !== undefined) this.reader = new SyncReader(options.dbPath);
    else throw new Error('A store source needs a reader or a data folder.');
    this.documents = new ParsedDocuments(options.cacheBytes, options.renewNodes);
  }
}

/** A view of the store for query evaluation (see the file comment). */
export class StoreView implements DocumentSource, DatabaseAccess, SummarySource {
  /** Versions and catalogs (for a run: taken once; otherwise asked on every call). */
  private readonly catalogs: RunCatalogs;

  protected constructor(
    protected readonly shared: Shared,
    private readonly run?: DatabaseRunContext,
    memo = false,
    /** Databases this run may read; others look as if they did not exist. Absent: all. */
    private readonly readable?: ReadonlySet<string>,
    versions?: ReadonlyMap<string, string>,
  ) {
    this.catalogs = new RunCatalogs(shared.reader, shared.catalogs, memo, versions);
  }

  /**
   * A view for one query run: each database's version is taken once (`versions`: those of the
   * request, for every database the run may see); `context` sets the default collection.
   */
  forRun(context?: DatabaseRunContext, readable?: readonly string[], versions?: ReadonlyMap<string, string>): StoreView {
    return new StoreView(this.shared, context, true, readable === undefined ? undefined : new Set(readable), versions);
  }

  // ------------------------------------------------------------------ DocumentSource

  getDocument(uri: string): XdmNode | null {
    const target = this.resolve(uri);
    switch (target.kind) {
      case 'file':
        if (!fileAccessAllowed()) throw accessDenied(target.uri);
        return this.shared.documents.hostFile(target.uri);
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
    this.catalog(db);
    return this.documents(db, normalizeOrThrow(path));
  }

  // ------------------------------------------------------------------ SummarySource

  /**
   * The leaf summaries (leaf-summaries.ts) of the documents `getCollection(uri)` answers, without
   * parsing them into trees: from the summary the store kept when a document was stored
   * (summary-record.ts), else from its stored text; undefined for anything but the collection of
   * an existing database (the query as written then raises the error).
   */
  leafSummaries(uri: string, name: string, child: string): (LeafSummary | null)[] | undefined {
    const target = this.resolve(uri);
    if (target.kind !== 'db' || !this.hasDatabase(target.db)) return undefined;
    const { summaries, reader } = this.shared;
    const versionOf = (info: ResourceInfo): string => `${target.db}\u0000${info.path}\u0000${info.etag}`;
    const infos = this.xmlResources(target.db, target.path);
    const stored = storedSummaries(reader, summaries, target.db, infos, versionOf, name, child);
    return this.perResource(
      target.db,
      infos,
      (info) => (stored.has(info.etag) ? stored.get(info.etag) : summaries.get(versionOf(info), name, child)),
      (info, data) => summaries.summarize(versionOf(info), data.toString('utf8'), name, child),
    );
  }

  // ------------------------------------------------------------------ DatabaseAccess

  databaseNames(): string[] {
    const names = this.catalogs.names();
    return this.readable === undefined ? names : names.filter((n) => this.readable?.has(n));
  }

  hasDatabase(db: string): boolean {
    if (!isValidDatabaseName(db) || (this.readable !== undefined && !this.readable.has(db))) return false;
    return this.catalogs.exists(db);
  }

  databaseInfo(db: string): DatabaseInfo {
    return this.catalog(db).database;
  }

  resources(db: string, path = ''): ResourceInfo[] {
    return [...this.listed(db, path)];
  }

  resource(db: string, path: string): ResourceInfo | undefined {
    const catalog = this.catalog(db);
    const p = normalizeOrThrow(path);
    return p === '' ? undefined : catalog.byPath.get(p);
  }

  documents(db: string, path = ''): XdmNode[] {
    return this.perResource(
      db,
      this.xmlResources(db, path),
      (info) => this.shared.documents.hit(db, info.path, info.etag),
      (info, data) => this.load(db, info, data),
    );
  }

  bytes(db: string, path: string): Buffer {
    return this.shared.reader.read(db, [path])[0];
  }

  locate(node: XdmNode): StoredLocation | undefined {
    return this.shared.documents.locate(node);
  }

  storedFullText(db: string, lookup: FullTextLookup): FullTextFound | undefined {
    return this.shared.reader.fullText?.(db, lookup);
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
    return this.shared.documents.parses;
  }

  /** The parsed-document cache (shared by all views). */
  get cache(): DocCache<XdmNode> {
    return this.shared.documents.cache;
  }

  // ------------------------------------------------------------------ internals

  /** The catalog of a database the run may read; db:open error otherwise. */
  private catalog(db: string): CatalogState {
    const catalog = this.hasDatabase(db) ? this.catalogs.catalog(db) : undefined;
    if (!catalog) throw dbError('open', `Database '${db}' was not found.`);
    return catalog;
  }

  /** The resources at or below `path` (the catalog's own list for all of them). */
  private listed(db: string, path: string): readonly ResourceInfo[] {
    const all = this.catalog(db).resources;
    const dir = normalizeOrThrow(path);
    return dir === '' ? all : all.filter((r) => isAtOrBelow(r.path, dir));
  }

  /** The parsed document of a stored XML resource; `data`: its bytes, when read already. */
  private load(db: string, info: ResourceInfo, data?: Buffer): XdmNode {
    return this.shared.documents.stored(db, info.path, info.etag, () => data ?? this.shared.reader.read(db, [info.path])[0]);
  }

  /** The stored XML resources at `path` of `db`: the one resource there, else those below it. */
  private xmlResources(db: string, path: string): ResourceInfo[] {
    const p = normalizeOrThrow(path);
    const exact = p === '' ? undefined : this.resource(db, p);
    if (exact) return exact.type === 'xml' ? [exact] : [];
    return this.listed(db, p).filter((r) => r.type === 'xml');
  }

  /**
   * One value per resource of `infos`, in order: what `kept` has for it, else `fromBytes` of its
   * stored bytes. Those not kept are read in batches, one reader call each (over the main
   * thread: one round trip per batch); a reader that can read ahead is asked for the next batch
   * before this one is worked on, so the main thread reads while this thread parses.
   */
  private perResource<T>(db: string, infos: readonly ResourceInfo[], kept: (info: ResourceInfo) => T | undefined, fromBytes: (info: ResourceInfo, data: Buffer) => T): T[] {
    const out = new Array<T>(infos.length);
    const batches: number[][] = [];
    let batch: number[] = [];
    let bytes = 0;
    for (let i = 0; i < infos.length; i++) {
      const hit = kept(infos[i]);
      if (hit !== undefined) {
        out[i] = hit;
        continue;
      }
      batch.push(i);
      bytes += infos[i].bytes;
      if (batch.length >= BATCH_DOCUMENTS || bytes >= BATCH_BYTES) {
        batches.push(batch);
        batch = [];
        bytes = 0;
      }
    }
    if (batch.length > 0) batches.push(batch);
    const { reader } = this.shared;
    const ask = (b: readonly number[]): ReadAhead => {
      const paths = b.map((i) => infos[i].path);
      return reader.readAhead ? reader.readAhead(db, paths) : { take: () => reader.read(db, paths), drop: () => undefined };
    };
    let next = batches.length > 0 ? ask(batches[0]) : undefined;
    try {
      for (let k = 0; k < batches.length; k++) {
        const data = next!.take();
        next = k + 1 < batches.length ? ask(batches[k + 1]) : undefined;
        batches[k].forEach((i, j) => (out[i] = fromBytes(infos[i], data[j])));
      }
    } finally {
      next?.drop();
    }
    return out;
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
    const target = databaseTarget(text);
    return target ? { kind: 'db', ...target } : { kind: 'invalid' };
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

  /** Drops the parsed documents of a database (between queries: parsed-documents.ts `evict`). */
  evict(db: string): void {
    this.shared.documents.evict(db);
  }

  /** The parsed documents (between queries: parsed-documents.ts `renewViews`). */
  get parsed(): ParsedDocuments {
    return this.shared.documents;
  }

  /** The worker reader of this source. */
  get reader(): SyncStoreReader {
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
