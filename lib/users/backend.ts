/**
 * Where users are kept: the users file of a data folder (users-file.ts) or the PostgreSQL store
 * shared by several servers (pg-users.ts). UserStore (user-store.ts) holds the rules and a copy
 * of the users in memory; a backend loads and changes the kept list.
 */
import { raise } from '../xmldb-error';
import { USER_ERRORS } from './user-errors';
import { isPasswordHash, type PasswordHash } from './password';
import { PERMISSIONS, type Grant, type Permission } from './permissions';

export interface User {
  readonly name: string;
  readonly perm: Permission;
  readonly grants: readonly Grant[];
  readonly password: PasswordHash;
}

export interface UserBackend {
  /** The users now. */
  load(): Promise<readonly User[]>;
  /**
   * Applies `fn` to the users as kept now and keeps its result, atomically and one change at a
   * time (across servers for a shared backend); answers the result. If `fn` throws, nothing changes.
   */
  change(fn: (users: readonly User[]) => readonly User[]): Promise<readonly User[]>;
  /**
   * The users, if another server may have changed them since the last load or change; else
   * undefined. Absent for a backend only this server changes.
   */
  changed?(): Promise<readonly User[] | undefined>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** Checks users read from storage; USERS_FILE_INVALID_X names the first bad entry. */
export function validateUsers(users: unknown): User[] {
  if (!Array.isArray(users)) throw raise(USER_ERRORS, 'USERS_FILE_INVALID_X', 'no users list');
  for (const u of users) {
    const ok =
      typeof u?.name === 'string' && (PERMISSIONS as readonly string[]).includes(u.perm) &&
      Array.isArray(u.grants) && isPasswordHash(u.password) &&
      u.grants.every((g: Grant) => typeof g?.pattern === 'string' && ['none', 'read', 'write'].includes(g.perm));
    if (!ok) throw raise(USER_ERRORS, 'USERS_FILE_INVALID_X', `bad entry ${JSON.stringify(u?.name)}`);
  }
  return users as User[];
}
