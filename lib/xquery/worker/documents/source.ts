/**
 * How a running query reaches stored documents. The caller supplies a DocumentSource (in a
 * worker: one built from the worker's init data over the store's worker reader); the
 * engine asks it lazily, while the query runs:
 * - `Q{urn:xmldb-rest:engine}doc($uri)`, `doc-available($uri)` and `collection($uri?)`, which
 *   the translator emits for fn:doc, fn:doc-available and fn:collection, receive the URI as
 *   written in the query (`db/path`), so the store can apply BaseX's rules;
 * - saxon's own fn:collection goes through `collectionFinder`, which only sees the URI resolved
 *   against the static base URI; the part below the base URI's folder is handed on.
 * saxon-js's `documentPool` is filled eagerly before a run (it copies the pool), so it only
 * serves documents known up front (`EvaluateOptions.documents`).
 *
 * A source must return the same node object for the same document within one query (node
 * identity: `doc('a') is doc('a')`); parsed-document caches give that for free.
 */
import { ENGINE_NS } from '../../constants';
import { castString, registerFunctions, xpathError, type XdmNode, type XdmValue } from '../../../saxon';


export interface DocumentSource {
  /**
   * The document at `uri` (as written in the query), or null if there is none. May instead throw
   * an XPath error (FODC0002 with a more precise message); fn:doc-available then answers false.
   */
  getDocument(uri: string): XdmNode | null;
  /** The documents of collection `uri` (null: the default collection), or null if there is none. */
  getCollection(uri: string | null): XdmNode[] | null;
  /**
   * Optional: the context of a query with a database in the URL (spec §6.1): the documents of
   * `db` at or below `path` ('' = all), in path order. Without it the worker asks getCollection.
   */
  getDatabaseContext?(db: string, path: string): XdmNode[];
  /**
   * Optional: a view of this source for one query run (remembering lookups for the run); with a
   * database context, that database's documents are the default collection (BaseX). `versions`:
   * the database versions of the request (store/types.ts), when it brings them.
   */
  forRun?(context?: DatabaseRunContext, readable?: readonly string[], versions?: ReadonlyMap<string, string>): DocumentSource;
}

/** The database a query runs against (REST URL `/rest/db/path`). */
export interface DatabaseRunContext {
  readonly db: string;
  readonly path: string;
}

/** Answers every request with "no such document/collection" (FODC0002). */
export const NO_DOCUMENTS: DocumentSource = {
  getDocument: () => null,
  getCollection: () => null,
};

let active: DocumentSource | null = null;

/**
 * Runs `fn` with `source` answering document requests. Transforms are synchronous, so the
 * source in effect during a run is simply the innermost one.
 */
export function withDocumentSource<T>(source: DocumentSource, fn: () => T): T {
  const previous = active;
  active = source;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

function current(): DocumentSource {
  return active ?? NO_DOCUMENTS;
}

/** The source answering document requests right now (NO_DOCUMENTS outside a run). */
export function activeDocumentSource(): DocumentSource {
  return current();
}

/** fn:doc-available: false where fn:doc would raise an error (or find nothing). */
function documentAvailable(uri: string): boolean {
  try {
    return current().getDocument(uri) !== null;
  } catch {
    return false;
  }
}

export function fetchDocument(uri: string): XdmNode {
  const doc = current().getDocument(uri);
  if (!doc) throw xpathError(`Resource "${uri}" does not exist.`, 'FODC0002');
  return doc;
}

export function fetchCollection(uri: string | null): XdmNode[] {
  const docs = current().getCollection(uri);
  if (!docs) throw xpathError(uri === null ? 'No default collection is available.' : `Collection "${uri}" does not exist.`, 'FODC0002');
  return docs;
}

/** saxon's collectionFinder: receives resolved URIs; hands on the part below `baseUri`'s folder. */
export function collectionFinder(baseUri: string | undefined): (resolved?: string) => XdmNode[] {
  const folder = baseUri ? baseUri.slice(0, baseUri.lastIndexOf('/') + 1) : '';
  return (resolved) => {
    if (resolved === undefined) return fetchCollection(null);
    const uri = folder && resolved.startsWith(folder) ? resolved.slice(folder.length) : resolved;
    return fetchCollection(uri);
  };
}

const str = (v: XdmValue): string => String(v[0]);

/** Registers engine:doc, engine:doc-available and engine:collection with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerDocumentFunctions(): void {
  registerFunctions(ENGINE_NS, {
    doc: { sig: '1F r[?ND] a[?AS]', impl: ([uri]) => (uri.length === 0 ? [] : [fetchDocument(str(uri))]) },
    'doc-available': {
      sig: '1F r[1AB] a[?AS]',
      impl: ([uri]) => [castString(String(uri.length > 0 && documentAvailable(str(uri))), 'boolean')],
    },
    collection: { sig: '1F r[*ND] a[?AS]', impl: ([uri]) => fetchCollection(uri.length > 0 ? str(uri) : null) },
  });
}
