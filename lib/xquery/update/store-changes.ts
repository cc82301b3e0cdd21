/**
 * Store changes: what an updating query asks of the store, as structured-clone data (they
 * cross from the query worker to the main thread), and their application through a WriteView.
 *
 * The worker computes them (update/pending-update-list.ts): the new text of every stored document changed by
 * XQuery Update expressions (with the etag it was read at, so a concurrent write cannot be
 * lost), and the resource and database changes of the db: write functions. The main thread
 * applies them in order inside one `store.write`, so they land all together or not at all.
 */
import type { DatabaseOptions, ResourceType, WriteView } from '../../store/types';
import type { QueryError } from '../query-error';
import { updateQueryError } from './update-errors';
import type { UserChange } from './user-changes';

export type StoreChange =
  | {
      readonly op: 'put';
      readonly db: string;
      readonly path: string;
      readonly type: ResourceType;
      /** XML or value text; binary data base64-encoded. */
      readonly data: string;
      readonly base64?: boolean;
      /** XML: the node count of the normalised document. */
      readonly nodes?: number;
      /** Only if the resource still has this etag (a document changed by node updates). */
      readonly ifMatch?: string;
    }
  | { readonly op: 'delete'; readonly db: string; readonly path: string }
  | { readonly op: 'rename'; readonly db: string; readonly path: string; readonly to: string }
  | { readonly op: 'create'; readonly db: string; readonly options?: DatabaseOptions }
  /** Database options to set (db:optimize's index options). */
  | { readonly op: 'options'; readonly db: string; readonly options: DatabaseOptions }
  | { readonly op: 'drop'; readonly db: string }
  | { readonly op: 'copy'; readonly db: string; readonly to: string }
  | { readonly op: 'alter'; readonly db: string; readonly to: string }
  /** Not the store's: applied through the server's user store (operations/query-users.ts). */
  | UserChange;

/** Raised when a document changed between reading and writing it (cannot happen under write locks). */
export class StaleDocumentError extends Error {
  constructor(db: string, path: string) {
    super(`Document ${db}/${path} changed while the query ran.`);
    this.name = 'StaleDocumentError';
  }
}

/** An updating query inside a script that holds read locks only (XMLR0003). */
export function readOnlyScriptError(): QueryError {
  return updateQueryError('XMLR0003');
}

/** Applies changes in order through `view`; throws (and the write is abandoned) on the first failure. */
export async function applyStoreChanges(view: WriteView, changes: readonly StoreChange[]): Promise<void> {
  for (const c of changes) {
    switch (c.op) {
      case 'put': {
        const data = c.base64 ? Buffer.from(c.data, 'base64') : c.data;
        const done = await view.putResource(c.db, c.path, { type: c.type, data, nodes: c.nodes }, c.ifMatch ? { ifMatch: c.ifMatch } : {});
        if (!done) throw new StaleDocumentError(c.db, c.path);
        break;
      }
      case 'delete':
        await view.deleteResources(c.db, c.path);
        break;
      case 'rename':
        await view.renameResources(c.db, c.path, c.to);
        break;
      case 'create':
        await view.createDatabase(c.db, c.options);
        break;
      case 'options':
        await view.setOptions(c.db, c.options);
        break;
      case 'drop':
        await view.dropDatabase(c.db);
        break;
      case 'copy':
        await view.copyDatabase(c.db, c.to);
        break;
      case 'alter':
        await view.renameDatabase(c.db, c.to);
        break;
      case 'user':
        // the caller splits them off first: a store view cannot change users
        throw new Error('A user change reached the store.');
    }
  }
}
