/**
 * Permission checks made before any work starts: what a session may read. What it may change is
 * decided by the command a REST operation is (commands/exec/plan.ts, `checkPermission`).
 */
import { raise } from '../xmldb-error';
import { STORE_ERRORS } from '../store/store-errors';
import type { LockSet, ReadView } from '../store/types';
import { allows, rank } from '../users/permissions';
import type { Session } from './types';

/**
 * Whether the session's queries and commands may read the host's files and folders: only with
 * the router option `allowFileAccess`, and only for admins (a user with less than admin gets
 * the refusal as if the option were off).
 */
export function mayReadHostFiles(session: Session): boolean {
  return session.runtime.options.allowFileAccess && session.user.perm === 'admin';
}

export function mayRead(session: Session, db: string): boolean {
  return allows(session.user, 'read', db);
}

/** Of the databases named, those the session's user may read. */
export function readableAmong(session: Session, dbs: readonly string[]): string[] {
  return dbs.filter((db) => mayRead(session, db));
}

/**
 * The databases a query of this session may read, for the engine: of the databases `locks`
 * names, the readable ones; with every database locked, undefined (all) for users who may read
 * every database, else the names of the readable ones.
 */
export async function readableDatabases(session: Session, view: ReadView, locks: LockSet = '*'): Promise<string[] | undefined> {
  if (locks !== '*') return readableAmong(session, locks);
  const { user } = session;
  if (user.perm === 'admin' || (rank(user.perm) >= rank('read') && user.grants.every((g) => g.perm !== 'none'))) {
    return undefined;
  }
  return (await view.listDatabases()).map((d) => d.name).filter((name) => mayRead(session, name));
}

/** A database named in the URL of a query, command or run must exist and be readable (spec §12). */
export async function requireReadableDatabase(session: Session, db: string): Promise<void> {
  const exists = mayRead(session, db) && (await session.runtime.store.read([db], async (view) => (await view.database(db)) !== undefined));
  if (!exists) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
}
