/** Permission levels and the rules that decide what a user may do (spec §13.2). */
import { raise, type XmldbError } from '../xmldb-error';
import { PERMISSION_ERRORS } from './user-errors';
import { globMatches } from '../glob';

export const PERMISSIONS = ['none', 'read', 'write', 'create', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Levels that can be granted per database pattern. */
export type LocalPermission = 'none' | 'read' | 'write';

export interface Grant {
  /** Database name pattern with `*` and `?` wildcards. */
  readonly pattern: string;
  readonly perm: LocalPermission;
}

export function parsePermission(name: string): Permission | undefined {
  const p = name.toLowerCase();
  return (PERMISSIONS as readonly string[]).includes(p) ? (p as Permission) : undefined;
}

/** A permission's name in messages (`Write permission needed.`). */
export function permissionLabel(perm: Permission): string {
  return perm.charAt(0).toUpperCase() + perm.slice(1);
}

/** The refusal of a request or command that needs `perm`: 403 `… permission needed.` */
export function permissionNeeded(perm: Permission): XmldbError {
  return raise(PERMISSION_ERRORS, 'PERMISSION_NEEDED_X', permissionLabel(perm));
}

export function rank(perm: Permission): number {
  return PERMISSIONS.indexOf(perm);
}

export interface PermissionHolder {
  readonly perm: Permission;
  readonly grants: readonly Grant[];
}

/**
 * Whether a user holds `perm`, globally or for database `db`. Admins may do everything. For read
 * and write on a database, a grant whose pattern matches decides (it may raise or lower the global
 * level); create and admin are global only.
 */
export function allows(user: PermissionHolder, perm: Permission, db?: string): boolean {
  if (user.perm === 'admin') return true;
  if (db !== undefined && rank(perm) <= rank('write')) {
    const grant = user.grants.find((g) => globMatches(g.pattern, db));
    if (grant !== undefined) return rank(grant.perm) >= rank(perm);
  }
  return rank(user.perm) >= rank(perm);
}

/**
 * Whether a user may run an updating query that needs `perm` at all: create or admin globally, write on
 * some database (globally or by a grant). Which databases its changes reach is known when they
 * are applied, and decided there (operations/guarded-store.ts): a name may be computed.
 */
export function allowsUpdate(user: PermissionHolder, perm: 'write' | 'create' | 'admin'): boolean {
  if (perm !== 'write') return allows(user, perm);
  return allows(user, 'write') || user.grants.some((g) => g.perm === 'write');
}
