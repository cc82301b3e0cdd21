/**
 * fn:put (XQuery Update Facility 1.0 and 3.0 §2.6.1): stores a document or element node at a
 * URI. A URI names a stored resource the way fn:doc reads one (language/resource-uri.ts):
 * `db/path`, or the same below the default base folder, where relative URIs resolve. The
 * database must exist and be one the query reaches; anything else is FOUP0002 (queries write no
 * host files and create no databases this way).
 *
 * `putUpdate` runs when the call is evaluated: it checks the arguments (FOUP0001 for a node that
 * is neither a document nor an element, FOUP0002 for the URI) and answers the pending upd:put.
 * `putDocuments` answers the documents the upd:puts of a pending update list store, once the node
 * updates are applied: upd:applyUpdates performs upd:put last (§3.2.2), so the node is stored as
 * it is then, with the namespaces in scope on it. Two upd:puts to one URI are XUDY0031.
 */
import { isDocumentNode, isNode, xpathError, type XdmMap, type XdmNode, type XdmValue } from '../../saxon';
import { BASE_FOLDER } from '../constants';
import { activeDatabases } from '../worker/documents/database-access';
import { databaseTarget, hasScheme } from '../language/resource-uri';
import { updateError } from './update-errors';
import type { UpdateTree } from './merge-apply';
import { rootOf, serializeModel, toModel, type MElement, type MNode } from './model';
import { describe, putPending } from './primitives';

/** The stored resource a URI names (as fn:doc reads it, documents/store-source.ts), or undefined. */
function resourceOf(uri: string): { db: string; path: string } | undefined {
  const text = uri.trim();
  let local: string | undefined = text;
  if (hasScheme(text)) {
    try {
      local = text.startsWith(BASE_FOLDER) ? decodeURIComponent(text.slice(BASE_FOLDER.length)) : undefined;
    } catch {
      local = undefined;
    }
  }
  const target = local === undefined ? undefined : databaseTarget(local);
  return target && target.path !== '' ? target : undefined;
}

/** fn:put($node, $uri): the pending upd:put (see the file comment). */
export function putUpdate(node: XdmValue, uri: XdmValue): XdmMap {
  if (node.length !== 1 || !isNode(node[0])) throw xpathError(`The first argument of fn:put must be one node, found ${describe(node)}.`, 'XPTY0004');
  const n = node[0] as XdmNode;
  if (!isDocumentNode(n) && n.nodeType !== 1) throw updateError('FOUP0001', describe(node));
  const text = uri.length ? String(uri[0]) : '';
  const target = resourceOf(text);
  if (!target || !activeDatabases().hasDatabase(target.db)) throw updateError('FOUP0002', text);
  return putPending(n, target.db, target.path);
}

/** The namespaces in scope on a model element from its ancestors, declared on a shallow copy of it. */
function withInheritedNamespaces(el: MElement): MElement {
  const namespaces = new Map<string, string>();
  const chain: MElement[] = [];
  for (let p = el.parent; p && p.kind === 'element'; p = p.parent) chain.unshift(p);
  for (const a of chain) for (const [prefix, uri] of a.namespaces) namespaces.set(prefix, uri);
  for (const [prefix, uri] of el.namespaces) namespaces.set(prefix, uri);
  return { ...el, namespaces };
}

/** The documents the upd:puts `puts` store, after the node updates of `trees` (keyed by root). */
export function putDocuments(
  puts: readonly { readonly node: XdmNode; readonly db: string; readonly path: string }[],
  trees: ReadonlyMap<XdmNode, UpdateTree>,
): { db: string; path: string; text: string }[] {
  const seen = new Set<string>();
  return puts.map((p) => {
    const key = `${p.db}/${p.path}`;
    if (seen.has(key)) throw updateError('XUDY0031', key);
    seen.add(key);
    const tree = trees.get(rootOf(p.node));
    const updated: MNode | undefined = tree?.changed ? tree.index.get(p.node) : undefined;
    const model = updated ?? toModel(p.node);
    return { db: p.db, path: p.path, text: serializeModel(model.kind === 'element' ? withInheritedNamespaces(model) : model) };
  });
}
