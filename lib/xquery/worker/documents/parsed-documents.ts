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
 *
 * A stored document is a compact tree (tree/compact-tree.ts) seen through a view that makes a
 * node object for each node a query reaches and keeps it, so that a node is the same object
 * however it is reached. Those objects, and what the accelerators build on a document node
 * (indexes, columns, lists of nodes, kept by it weakly), outgrow the tree itself: at XMark
 * factor 1 (108 MB, a tree of about 126 MB) the twenty queries made a million node objects, and
 * with what was kept on them the worker held 265 MB of live heap, against 115 once they were
 * let go (the tree's strings are 85 of them, its columns lie outside the heap). Identity matters
 * within a query only, so between queries, once the views have made RENEW_NODES objects,
 * `renewViews` gives each cached tree whose view made RENEW_VIEW_NODES of them a fresh view,
 * whose document node is a new object: what hung on the old one goes with it, the tree stays,
 * and the next query makes what it needs again (no parse). Small documents keep their views:
 * what hangs on them is small, and a database of thousands of them would make all of it again.
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseToCompactDom } from '../../../convert/xml';
import { parseToCompactTree } from '../../../tree/build-tree';
import { TreeView, treeNode, type NodeTally } from '../../../tree/tree-dom';
import type { CompactTree } from '../../../tree/compact-tree';
import { placeStored, storedPlace } from '../../../tree/tree-order';
import { DocCache, DEFAULT_DOC_CACHE_BYTES } from '../../../store/cache';
import { NodeKind, xpathError, type XdmNode } from '../../../saxon';
import type { StoredLocation } from './database-access';
import { markNamespacesDeclared } from '../../serialization/node-output';

/** Cache "database" of host files: not a valid database name, so it never collides. */
const FILES = '\u0001file';
const SEP = '\u0000';

type WithUris = XdmNode & { _saxonDocUri?: string; _saxonBaseUri?: string };
type Numbered = XdmNode & { _saxonDocumentNumber?: number };

/**
 * Node objects the views of stored documents make before they are renewed (file comment): about
 * 20 MB of them and of what hangs on them. A 10 MB document has about 250,000 nodes.
 */
export const RENEW_NODES = 256 * 1024;
/** Node objects a view must have made to be renewed (file comment). */
const RENEW_VIEW_NODES = RENEW_NODES / 16;

export class ParsedDocuments {
  readonly cache: DocCache<XdmNode>;
  /** Versions handed out and maybe still referenced, by `db SEP path SEP etag`. */
  private readonly live = new Map<string, WeakRef<XdmNode>>();
  private readonly finalizer = new FinalizationRegistry<string>((key) => {
    if (this.live.get(key)?.deref() === undefined) this.live.delete(key);
  });
  /** Documents parsed so far (cache misses). */
  parses = 0;
  /** Node objects made by the views of stored documents since they were last renewed. */
  private readonly made: NodeTally = { count: 0 };

  /**
   * `cacheBytes`: bound of the cache, summed source bytes (default 16 MiB); `renewNodes`: node
   * objects the views make before they are renewed (file comment).
   */
  constructor(
    cacheBytes = DEFAULT_DOC_CACHE_BYTES,
    private readonly renewNodes = RENEW_NODES,
  ) {
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
    return this.cached(db, path, etag, read, (text) => this.storedDocument(parseToCompactTree(text), db, path));
  }

  /** Whether the views of stored documents have made enough node objects to be renewed (file comment). */
  get renewalDue(): boolean {
    return this.made.count >= this.renewNodes;
  }

  /**
   * Gives every cached stored document a fresh view of its tree, when due (file comment). Only
   * between queries: a node held across the renewal would no longer be the node its row gives.
   */
  renewViews(): void {
    if (!this.renewalDue) return;
    this.made.count = 0;
    this.cache.renew((doc, { db, path }, etag) => {
      // only stored() caches compact trees (host files are saxon-js's own DOM)
      const view = treeNode(doc)?.v;
      if (!view || view.made < Math.min(RENEW_VIEW_NODES, this.renewNodes)) return doc;
      const fresh = this.storedDocument(view.tree, db, path) as Numbered;
      // the number saxon-js gave the document (at its first comparison or generate-id), which
      // generate-id() shows: the same document keeps its ids from one query to the next
      const number = (doc as Numbered)._saxonDocumentNumber;
      if (number !== undefined) fresh._saxonDocumentNumber = number;
      // Not through the old entry's WeakRef: deref() keeps its target alive until the end of the
      // turn, and the collection that is to free the old view runs in this one.
      const key = db + SEP + path + SEP + etag;
      this.live.set(key, new WeakRef(fresh));
      this.finalizer.register(fresh, key);
      return fresh;
    });
  }

  /** The document node of a stored document's tree: its URIs are BaseX's `/db/path`. */
  private storedDocument(tree: CompactTree, db: string, path: string): XdmNode {
    const parsed = new TreeView(tree, this.made).document as WithUris;
    markNamespacesDeclared(parsed);
    parsed._saxonDocUri = parsed._saxonBaseUri = `/${db}/${path}`;
    placeStored(parsed, db, path);
    return parsed;
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
