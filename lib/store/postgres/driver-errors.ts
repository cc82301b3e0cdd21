/**
 * PostgreSQL's failures as the store's errors, for the PostgreSQL store and what else keeps its
 * data in the same database (the users table, the console's data). A lock wait that outlasts
 * `lock_timeout` is LOCK_TIMEOUT_X (503, as in the file store); a lost or refused connection is
 * 503 (try again: another server or a restarted PostgreSQL may answer); anything else PostgreSQL
 * refuses is 500.
 */
import { entry, raise, XmldbError } from '../../xmldb-error';
import { STORE_ERRORS } from '../store-errors';

export const PG_STORE_ERRORS = {
  STORE_UNAVAILABLE_X: entry(503, 'The database store is unavailable: %'),
  STORE_REFUSED_X: entry(500, 'The database store refused a change: %'),
} as const;

/** SQLSTATE classes of failures that are not the statement's fault (connection, resources, shutdown). */
const UNAVAILABLE = /^(08|53|57|58)/;

/** The store's error for a failure of the PostgreSQL driver; other errors unchanged. */
export function storeError(error: unknown, lockWaitMs: number | undefined): unknown {
  // Not `instanceof Error`: errors of Node's sockets may come from another realm (vm contexts).
  if (error instanceof XmldbError || typeof error !== 'object' || error === null || !('message' in error)) return error;
  const { code, message } = error as { code?: unknown; message: unknown };
  if (code === '55P03') return raise(STORE_ERRORS, 'LOCK_TIMEOUT_X', lockWaitMs ?? 0);
  if (code === '40P01') return raise(PG_STORE_ERRORS, 'STORE_UNAVAILABLE_X', 'a lock deadlock was broken; try again');
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !UNAVAILABLE.test(code)) {
    return raise(PG_STORE_ERRORS, 'STORE_REFUSED_X', message);
  }
  return raise(PG_STORE_ERRORS, 'STORE_UNAVAILABLE_X', message);
}
