/**
 * The end of an updating query, in the worker: its result is split into pending updates and
 * output items (update:output, or anything else it returned), the XQuery Update primitives are
 * merged and applied to models of the affected trees (update/merge-apply.ts), and every changed
 * STORED document becomes a store change with its new normalised text. Trees that are not
 * stored (constructed nodes, context documents sent with the request) change nothing
 * persistent. db: write functions contribute their changes as they are.
 *
 * Conflicts between store changes (BaseX's db:conflict): one resource written or deleted twice,
 * or by both node updates and a db: function; one database created, dropped, copied to or
 * renamed twice.
 *
 * fn:put stores its node as it is after the node updates (update/put.ts).
 *
 * Order of the changes: documents changed by node updates and fn:put, then resource changes of
 * db: functions, then database changes (copy, alter, drop, create; db:create's documents right
 * after their database), each group in query order.
 */
import { parseToStoredXml } from '../../convert/xml';
import type { DatabaseAccess } from '../worker/documents/database-access';
import type { XdmItem, XdmNode, XdmValue } from '../../saxon';
import { applyXquf, UpdateTree, type XqufPending } from './merge-apply';
import type { StoreChange } from './store-changes';
import { updateError } from './update-errors';
import { serializeModel } from './model';
import { isPending, readPending, type Pending } from './primitives';
import { putDocuments } from './put';

export interface UpdateOutcome {
  /** Items to serialize as the query's result. */
  readonly output: XdmValue;
  readonly changes: StoreChange[];
}

/** Applies the pending updates in `result`; `access` locates stored documents. */
export function applyPendingUpdates(result: XdmValue, access: DatabaseAccess | undefined): UpdateOutcome {
  const output: XdmItem[] = [];
  const xquf: XqufPending[] = [];
  const dbGroups: StoreChange[][] = [];
  const puts: Extract<Pending, { op: 'put' }>[] = [];
  for (const item of result) {
    if (!isPending(item)) {
      output.push(item);
      continue;
    }
    const p = readPending(item);
    if (p.op === 'output') output.push(...p.items);
    else if (p.op === 'db') dbGroups.push(JSON.parse(p.change) as StoreChange[]);
    else if (p.op === 'put') puts.push(p);
    else xquf.push(p);
  }
  const trees = new Map<XdmNode, UpdateTree>();
  applyXquf(xquf, (root) => {
    let tree = trees.get(root);
    if (!tree) trees.set(root, (tree = new UpdateTree(root)));
    return tree;
  });
  const docChanges: StoreChange[] = [];
  for (const tree of trees.values()) {
    if (!tree.changed) continue;
    const where = access?.locate(tree.root);
    if (!where) continue;
    docChanges.push(documentChange(where.db, where.path, serializeModel(tree.model), access?.resource(where.db, where.path)?.etag));
  }
  for (const d of putDocuments(puts, trees)) docChanges.push(documentChange(d.db, d.path, d.text));
  // a group is the changes of one call (db:create's documents follow the creation)
  const isDatabaseOp = (g: StoreChange[]): boolean => g.length > 0 && ['create', 'drop', 'copy', 'alter'].includes(g[0].op);
  const changes = [...docChanges, ...dbGroups.filter((g) => !isDatabaseOp(g)).flat(), ...dbGroups.filter(isDatabaseOp).flat()];
  checkConflicts(changes);
  return { output, changes };
}

/** The store change that writes a document's new text (XMLR0002 if it is no longer one well-formed document). */
function documentChange(db: string, path: string, text: string, etag?: string): StoreChange {
  let parsed: { xml: string; nodes: number };
  try {
    parsed = parseToStoredXml(text, { name: path });
  } catch (e) {
    throw updateError('XMLR0002', db, path, e instanceof Error ? e.message : String(e));
  }
  return { op: 'put', db, path, type: 'xml', data: parsed.xml, nodes: parsed.nodes, ...(etag ? { ifMatch: etag } : {}) };
}

function checkConflicts(changes: readonly StoreChange[]): void {
  const resources = new Set<string>();
  const databases = new Set<string>();
  const once = (set: Set<string>, key: string, what: string): void => {
    if (set.has(key)) throw updateError('db:conflict', what);
    set.add(key);
  };
  for (const c of changes) {
    switch (c.op) {
      case 'put':
      case 'delete':
        once(resources, `${c.db}\u0000${c.path}`, `${c.db}/${c.path}`);
        break;
      case 'rename':
        once(resources, `${c.db}\u0000${c.path}`, `${c.db}/${c.path}`);
        once(resources, `${c.db}\u0000${c.to}`, `${c.db}/${c.to}`);
        break;
      case 'create':
      case 'drop':
      case 'options':
        once(databases, c.db, `database ${c.db}`);
        break;
      case 'copy':
        once(databases, c.to, `database ${c.to}`);
        break;
      case 'alter':
        once(databases, c.db, `database ${c.db}`);
        once(databases, c.to, `database ${c.to}`);
        break;
    }
  }
}
