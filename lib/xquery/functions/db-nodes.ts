/**
 * BaseX's Database Module, node numbering (BaseX 13 names), in namespace
 * `http://basex.org/modules/db`:
 *
 *   db:node-pre($nodes as node()*) as xs:integer*        the pre value of each stored node
 *   db:node-id($nodes as node()*) as xs:integer*         its id
 *   db:get-pre($db, $pres as xs:integer*) as node()*     the nodes with those pre values
 *   db:get-id($db, $ids as xs:integer*) as node()*       the nodes with those ids
 *
 * Pre values number a database's XML documents in path order, each document's nodes in BaseX's
 * order (accelerators/value-index/value-index.ts), each document after the nodes of those before it. This store
 * keeps no separate node ids: an id is the node's pre value, so, unlike BaseX's ids, it changes
 * when a document before it (in path order) changes size, is added or is deleted.
 * Errors: db:open (unknown database), db:node `No database node: x.` (a node that is not
 * stored), db:range `Out of range: n.` (a pre value or id that no node has).
 */
import { registerFunctions, castString, isNode, type XdmNode, type XdmValue } from '../../saxon';
import type { ResourceInfo } from '../../store/types';
import { activeDatabases, dbError } from '../worker/documents/database-access';
import { nodeAt, preOf } from '../accelerators/value-index/value-index';
import { DB_NS, describeNode } from './db';

/** The root of a node (its document node for a stored one). */
function rootOf(node: XdmNode): XdmNode {
  let n = node as XdmNode & { parentNode?: XdmNode | null; parent?: XdmNode | null };
  for (;;) {
    const up = n.nodeType === 2 ? n.parent : n.parentNode;
    if (!up) return n;
    n = up as typeof n;
  }
}

/** The XML resources of `db` in path order, with the pre value each starts at. */
function layout(db: string): { readonly resources: ResourceInfo[]; readonly starts: number[] } {
  const resources = activeDatabases().resources(db).filter((r) => r.type === 'xml');
  const starts: number[] = [];
  let next = 0;
  for (const r of resources) {
    starts.push(next);
    next += r.size;
  }
  return { resources, starts };
}

function nodePre([nodes]: XdmValue[]): XdmValue {
  const access = activeDatabases();
  return nodes.map((item) => {
    const node = item as XdmNode;
    const where = isNode(item) ? access.locate(node) : undefined;
    const doc = isNode(item) ? rootOf(node) : undefined;
    const local = where && doc ? preOf(doc, node) : undefined;
    if (!where || local === undefined) throw dbError('node', `No database node: ${describeNode(node)}.`);
    const { resources, starts } = layout(where.db);
    const i = resources.findIndex((r) => r.path === where.path);
    return castString(String(starts[i] + local), 'integer');
  });
}

function getPre([db, pres]: XdmValue[]): XdmValue {
  const name = String(db[0]);
  const access = activeDatabases();
  const { resources, starts } = layout(name);
  return pres.map((item) => {
    const pre = Number(item);
    let lo = 0;
    let hi = resources.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pre) lo = mid;
      else hi = mid - 1;
    }
    const resource = resources[lo];
    const node = resource && pre >= 0 ? nodeAt(access.documents(name, resource.path)[0], pre - starts[lo]) : undefined;
    if (!node) throw dbError('range', `Out of range: ${String(item)}.`);
    return node;
  });
}

/** Registers db:node-pre, db:node-id, db:get-pre and db:get-id with saxon-js (the list in extension-functions.ts). */
export function registerDbNodeFunctions(): void {
  registerFunctions(DB_NS, {
    'node-pre': { sig: '1F r[*ADI] a[*N]', impl: nodePre },
    'node-id': { sig: '1F r[*ADI] a[*N]', impl: nodePre },
    'get-pre': { sig: '1F r[*N] a[1AS,*ADI]', impl: getPre },
    'get-id': { sig: '1F r[*N] a[1AS,*ADI]', impl: getPre },
  });
}
