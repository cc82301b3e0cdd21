/**
 * The parsed documents of a query worker (store-source.ts): stored documents by database, path
 * and etag, host files by file, modification time and size.
 *
 * The same version of a document is the very same node object for as long as anybody holds it:
 * the LRU (store/cache/doc-cache.ts) keeps recent ones, and a weak index finds any version still
 * referenced (so node identity holds within a query even for documents too large for the cache).
 * Documents are shared by every query of the worker: nothing may modify them (XQuery Update must
 * copy). Keys are etags, which the store never reuses for another content (store/types.ts), so a
 * document cached here is never stale, whichever server wrote it.
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseToCompactDom } from '../../../convert/xml';
import { parseToCompactTree } from '../../../tree/build-tree';
import { TreeView } from '../../../tree/tree-dom';
import { placeStored, storedPlace } from '../../../tree/tree-order';
import { DocCache, DEFAULT_DOC_CACHE_BYTES } from '../../../store/cache';
import { NodeKind, xpathError, type XdmNode } from '../../../saxon';
import type { StoredLocation } from './database-access';
import { markNamespacesDeclared } from '../../serialization/node-output';

/** Cache "database" of host files: not a valid database name, so it never collides. */
const FILES = '\u0001file';
const SEP = '\u0000';

type WithUris = XdmNode & { _saxonDocUri?: string; _saxonBaseUri?: string };

export class ParsedDocuments {
  readonly cache: DocCache<XdmNode>;
  /** Versions handed out and maybe still referenced, by `db SEP path SEP etag`. */
  private readonly live = new Map<string, WeakRef<XdmNode>>();
  private readonly finalizer = new FinalizationRegistry<string>((key) => {
    if (this.live.get(key)?.deref() === undefined) this.live.delete(key);
  });
  /** Documents parsed so far (cache misses). */
  parses = 0;

  /** `cacheBytes`: bound of the cache, summed source bytes (default 16 MiB). */
  constructor(cacheBytes = DEFAULT_DOC_CACHE_BYTES) {
    this.cache = new DocCache<XdmNode>({ maxSize: cacheBytes });
  }

  /** A version of a document parsed before: cached (its LRU position refreshed) or still referenced. */
  hit(db: string, path: string, etag: string): XdmNode | undefined {
    return this.cache.lookup({ db, path }, etag) ?? this.live.get(db + SEP + path + SEP + etag)?.deref();
  }

  /**
   * A stored XML document at version `etag`, parsed from `read()` unless parsed before. Its
   * document-uri() and base-uri() are BaseX's `/db/path`.
   */
  stored(db: string, path: string, etag: string, read: () => Buffer | string): XdmNode {
    return this.cached(db, path, etag, read, (text) => {
      const parsed = new TreeView(parseToCompactTree(text)).document as WithUris;
      markNamespacesDeclared(parsed);
      parsed._saxonDocUri = parsed._saxonBaseUri = `/${db}/${path}`;
      placeStored(parsed, db, path);
      return parsed;
    });
  }

  /** A host file (runs that may read host files only), parsed once per modification time and size. */
  hostFile(uri: string): XdmNode {
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
      let parsed: WithUris;
      try {
        parsed = parseToCompactDom(text.replace(/^\uFEFF/, '')) as WithUris;
      } catch (e) {
        throw xpathError(`Resource '${uri}' is not well-formed XML: ${e instanceof Error ? e.message : String(e)}`, 'FODC0002');
      }
      markNamespacesDeclared(parsed);
      parsed._saxonDocUri = parsed._saxonBaseUri = uri;
      return parsed;
    });
  }

  /**
   * Forgets the documents of a database, cached or still referenced: the next query parses them
   * again. Only between queries (a query that holds a node keeps its identity otherwise).
   */
  evict(db: string): void {
    this.cache.evict(db);
    const prefix = db + SEP;
    for (const key of [...this.live.keys()]) if (key.startsWith(prefix)) this.live.delete(key);
  }

  /** Database and path of the stored document a node belongs to. */
  locate(node: XdmNode): StoredLocation | undefined {
    return storedPlace(rootOf(node));
  }

  /**
   * One version of a document: a cache hit, else the node still referenced from an earlier load
   * (a query holds it, the LRU dropped it or never took it), else parsed now, cached if it fits,
   * and indexed weakly.
   */
  private cached(db: string, path: string, etag: string, read: () => Buffer | string, parse: (text: string) => XdmNode): XdmNode {
    const hit = this.hit(db, path, etag);
    if (hit) return hit;
    const key = db + SEP + path + SEP + etag;
    const doc = this.cache.get({ db, path }, etag, read, (text) => {
      this.parses++;
      return parse(String(text));
    });
    this.live.set(key, new WeakRef(doc));
    this.finalizer.register(doc, key);
    return doc;
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
