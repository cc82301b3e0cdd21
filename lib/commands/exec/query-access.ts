/**
 * What a query takes from the store, and whether its user may run it: the one decision for
 * REST queries (operations/query.ts) and the queries of commands (plan.ts), as BaseX decides
 * both from the compiled query.
 *
 * The engine's static analysis tells which databases a query names (every database when the
 * names are computed) and whether it updates (XQuery Update, db: write functions). The query
 * locks those databases and the opened one, exclusively if it updates. An updating query is
 * refused at once only if its user may update nowhere (`allowsUpdate`; write at least, create for
 * db:create, db:drop, …): each store change is judged by the database it changes when it is
 * applied (operations/guarded-store.ts), and the engine limits the databases a query reads to
 * the locked ones its user may read.
 */
import { withDatabase } from '../../store/locks';
import type { LockSet } from '../../store/types';
import { allowsUpdate, permissionNeeded, type PermissionHolder } from '../../users/permissions';
import type { UpdateAnalysis } from '../../xquery/language/analysis/updating';

/** The locks a query takes. */
export interface QueryAccess {
  /** Databases to lock; '*' = all. */
  readonly locks: LockSet;
  /** Whether the locks must be exclusive (the query updates). */
  readonly write: boolean;
}

/**
 * The locks of a query with `analysis`, run with `db` opened (or in the URL); throws 403
 * `… permission needed.` if `user` may not run it at all.
 */
export function queryAccess(user: PermissionHolder, analysis: UpdateAnalysis, db: string | undefined): QueryAccess {
  const locks = withDatabase(analysis.databases, db);
  if (!analysis.updating) return { locks, write: false };
  const perm = analysis.permission === 'none' ? 'write' : analysis.permission;
  if (!allowsUpdate(user, perm)) throw permissionNeeded(perm);
  return { locks, write: true };
}
