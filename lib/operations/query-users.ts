/**
 * The server's side of BaseX's User Module (xquery/functions/user.ts): what a query is told about
 * users, and the user changes an updating query asks for, judged and applied here, through the
 * router's user store (users/user-store.ts), never by the query's process.
 *
 * A query sees its own user, and an admin's query every user; no password hash is sent. A user
 * change is permitted as the command it is (CREATE USER, DROP USER, ALTER USER, ALTER PASSWORD,
 * GRANT; commands/exec/plan.ts `checkPermission`): admin, except a user's new password of its
 * own; a refusal is 403 `Admin permission needed.`, the same command's. They are checked all before the first
 * is applied (and before the query's store changes are: operations/query.ts), with BaseX's rules:
 * one change of a kind per user (`user:update`), not both altered and dropped
 * (`user:conflict`), and the users they name must (still) exist (`user:unknown`).
 * `user:create` of an existing user replaces it, as in BaseX.
 */
import { raise } from '../xmldb-error';
import { USER_ERRORS } from '../users/user-errors';
import { checkPermission } from '../commands/exec/plan';
import type { Command } from '../commands/types';
import type { User } from '../users/user-store';
import { QueryError } from '../xquery/query-error';
import type { StoreChange } from '../xquery/update/store-changes';
import { isUserChange, type QueryAccount, type UserChange } from '../xquery/update/user-changes';
import type { Session } from './types';

const visible = (u: User) => ({ name: u.name, perm: u.perm, grants: u.grants.map((g) => ({ pattern: g.pattern, perm: g.perm })) });

/** What a query of this session may know of users. */
export function queryAccount(session: Session): QueryAccount {
  const { user } = session;
  const users = user.perm === 'admin' ? session.runtime.users.list() : [user];
  return { name: user.name, users: users.map(visible) };
}

/** A query's changes split into those of the store and those of users. */
export function splitChanges(changes: readonly StoreChange[]): { store: StoreChange[]; users: UserChange[] } {
  const store: StoreChange[] = [];
  const users: UserChange[] = [];
  for (const c of changes) {
    if (isUserChange(c)) users.push(c);
    else store.push(c);
  }
  return { store, users };
}

function userError(name: string, message: string): QueryError {
  return new QueryError({ code: `user:${name}`, message, status: 500, phase: 'evaluate' });
}

/** BaseX's words for each change in `user:update` messages. */
const DONE: Readonly<Record<UserChange['action'], string>> = { create: 'created', drop: 'dropped', alter: 'altered', password: 'updated', grant: 'granted' };

/** The command a user change is, for its permission. */
function commandOf(c: UserChange): Command {
  switch (c.action) {
    case 'create':
      return { kind: 'createUser', name: c.name };
    case 'drop':
      return { kind: 'dropUser', pattern: c.name };
    case 'alter':
      return { kind: 'alterUser', name: c.name, newName: c.newName };
    case 'password':
      return { kind: 'alterPassword', name: c.name };
    case 'grant':
      return { kind: 'grant', permission: 'none', user: c.name };
  }
}

/** Throws unless the session may make all of `changes` and they fit together (see the file comment). */
export function checkUserChanges(session: Session, changes: readonly UserChange[]): void {
  const { user, runtime } = session;
  const seen = new Set<string>();
  for (const c of changes) {
    checkPermission(user, commandOf(c), undefined);
    const key = `${c.action}\u0000${c.name}`;
    if (seen.has(key)) throw userError('update', `User '${c.name}' can only be ${DONE[c.action]} once.`);
    seen.add(key);
    if (c.action !== 'create' && runtime.users.get(c.name) === undefined) throw userError('unknown', `User '${c.name}' does not exist.`);
    if ((c.action === 'create' || c.action === 'password') && c.password.includes('\0')) throw raise(USER_ERRORS, 'INVALID_PASSWORD');
  }
  for (const c of changes) {
    if (c.action === 'alter' && changes.some((d) => d.action === 'drop' && d.name === c.name && d.patterns.length === 0)) {
      throw userError('conflict', `User '${c.name}' cannot be both altered and dropped.`);
    }
  }
}

/** Applies checked changes in query order through the router's user store. */
export async function applyUserChanges(session: Session, changes: readonly UserChange[]): Promise<void> {
  const users = session.runtime.users;
  for (const c of changes) {
    switch (c.action) {
      case 'create': {
        if (users.get(c.name) !== undefined) await users.drop(c.name);
        const global = c.permissions.filter((p) => p.pattern === '').pop()?.perm ?? 'none';
        await users.create(c.name, c.password, global);
        for (const p of c.permissions) if (p.pattern !== '') await users.grant(c.name, p.perm, p.pattern);
        break;
      }
      case 'drop':
        if (c.patterns.length === 0) await users.drop(c.name);
        else for (const pattern of c.patterns) await users.dropGrant(c.name, pattern);
        break;
      case 'alter':
        await users.rename(c.name, c.newName);
        break;
      case 'password':
        await users.setPassword(c.name, c.password);
        break;
      case 'grant':
        for (const p of c.permissions) await users.grant(c.name, p.perm, p.pattern === '' ? undefined : p.pattern);
        break;
    }
  }
}
