/**
 * What a query may know and change of the server's users (BaseX's User Module, functions/user.ts),
 * as structured-clone data: the account a run is given, and the user changes an updating query
 * asks for. The query computes changes only; the server judges and applies them through its
 * user store after the query (operations/query-users.ts), never the query's process.
 */
import type { LocalPermission, Permission } from '../../users/permissions';

/** A user as a query may see it: no password hash ever leaves the server. */
export interface VisibleUser {
  readonly name: string;
  readonly perm: Permission;
  readonly grants: readonly { readonly pattern: string; readonly perm: LocalPermission }[];
}

/**
 * The user a query runs for, and the users it may see: all of them for an admin, only itself
 * otherwise (BaseX: "registered users who are visible to the current user").
 */
export interface QueryAccount {
  readonly name: string;
  readonly users: readonly VisibleUser[];
}

/** A permission given on a database pattern, or globally (`pattern` ''). */
export interface PatternPermission {
  readonly pattern: string;
  readonly perm: Permission;
}

/** A user change of user:create, user:drop, user:alter, user:password or user:grant. */
export type UserChange =
  | { readonly op: 'user'; readonly action: 'create'; readonly name: string; readonly password: string; readonly permissions: readonly PatternPermission[] }
  | { readonly op: 'user'; readonly action: 'drop'; readonly name: string; readonly patterns: readonly string[] }
  | { readonly op: 'user'; readonly action: 'alter'; readonly name: string; readonly newName: string }
  | { readonly op: 'user'; readonly action: 'password'; readonly name: string; readonly password: string }
  | { readonly op: 'user'; readonly action: 'grant'; readonly name: string; readonly permissions: readonly PatternPermission[] };

export function isUserChange(change: { readonly op: string }): change is UserChange {
  return change.op === 'user';
}
