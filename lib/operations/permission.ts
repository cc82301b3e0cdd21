/** Permission checks made before any work starts. */
import { raise } from '../errors';
import { STORE_ERRORS } from '../store/errors';
import { PERMISSION_ERRORS } from '../users/errors';
import { allows, type Permission } from '../users/permissions';
import type { Session } from './types';

const LABEL: Record<Permission, string> = {
  none: 'None',
  read: 'Read',
  write: 'Write',
  create: 'Create',
  admin: 'Admin',
};

/** Throws 403 `… permission needed.` unless the session's user holds `perm` (on `db`). */
export function requirePermission(session: Session, perm: Permission, db?: string): void {
  if (!allows(session.user, perm, db)) throw raise(PERMISSION_ERRORS, 'PERMISSION_NEEDED_X', LABEL[perm]);
}

export function mayRead(session: Session, db: string): boolean {
  return allows(session.user, 'read', db);
}

/** A database named in the URL of a query, command or run must exist and be readable (spec §12). */
export async function requireReadableDatabase(session: Session, db: string): Promise<void> {
  const exists = mayRead(session, db) && (await session.runtime.store.read([db], async (view) => (await view.database(db)) !== undefined));
  if (!exists) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
}
