/**
 * User commands (spec §13.2): CREATE USER, DROP USER, ALTER USER, ALTER PASSWORD, PASSWORD, GRANT
 * (no output) and SHOW USERS. Changes go to the user store at once; they are not part of the
 * script's database changes.
 */
import { raise } from '../../errors';
import { USER_ERRORS } from '../../users/errors';
import { globMatches, rank, type Permission } from '../../users/permissions';
import type { User } from '../../users/user-store';
import { formatTable } from '../table';
import type { CommandOf } from '../types';
import type { RunContext } from './context';
import { execError } from './errors';

function password(value: string | undefined): string {
  if (value === undefined) throw execError('PASSWORD_MISSING');
  return value;
}

/** Users whose names match a glob; a plain name must exist. */
function matching(ctx: RunContext, pattern: string): User[] {
  const users = ctx.env.users.list().filter((u) => globMatches(pattern, u.name));
  if (users.length === 0 && !/[*?]/.test(pattern)) throw raise(USER_ERRORS, 'USER_NOT_FOUND_X', pattern);
  return users;
}

export async function createUser(cmd: CommandOf<'createUser'>, ctx: RunContext): Promise<void> {
  await ctx.env.users.create(cmd.name, password(cmd.password));
}

/**
 * DROP USER pattern (ON db): drops the matching users, or with ON their grants for exactly that
 * database pattern. `admin` cannot be dropped: by name it is an error, a glob passes over it.
 */
export async function dropUser(cmd: CommandOf<'dropUser'>, ctx: RunContext): Promise<void> {
  if (cmd.pattern === 'admin' && cmd.on === undefined) throw raise(USER_ERRORS, 'ADMIN_STATIC');
  for (const u of matching(ctx, cmd.pattern)) {
    if (cmd.on !== undefined) await ctx.env.users.dropGrant(u.name, cmd.on);
    else if (u.name !== 'admin') await ctx.env.users.drop(u.name);
  }
}

export async function alterUser(cmd: CommandOf<'alterUser'>, ctx: RunContext): Promise<void> {
  await ctx.env.users.rename(cmd.name, cmd.newName);
}

export async function alterPassword(cmd: CommandOf<'alterPassword'>, ctx: RunContext): Promise<void> {
  await ctx.env.users.setPassword(cmd.name, password(cmd.password));
}

/** PASSWORD (pw): the user's own password. */
export async function ownPassword(cmd: CommandOf<'password'>, ctx: RunContext): Promise<void> {
  await ctx.env.users.setPassword(ctx.env.user.name, password(cmd.password));
}

/**
 * GRANT perm (ON pattern) TO user: the global permission, or with ON a permission (none, read,
 * write) on the matching databases. The user may be a glob; `admin` keeps its permission.
 */
export async function grant(cmd: CommandOf<'grant'>, ctx: RunContext): Promise<void> {
  if (cmd.user === 'admin') throw execError('ADMIN_PERMISSION');
  for (const u of matching(ctx, cmd.user)) {
    if (u.name !== 'admin') await ctx.env.users.grant(u.name, cmd.permission, cmd.on);
  }
}

/** The permission a user holds on a database: a matching grant decides, else the global one. */
function permissionOn(user: User, db: string): Permission {
  if (user.perm === 'admin' || rank(user.perm) > rank('write')) return user.perm;
  return user.grants.find((g) => globMatches(g.pattern, db))?.perm ?? user.perm;
}

/**
 * SHOW USERS (ON db): `Username  Permission`, admin first. Non-admins see only themselves. With
 * ON, the permission shown is the one the user holds on that database.
 */
export function showUsers(cmd: CommandOf<'showUsers'>, ctx: RunContext): string {
  const me = ctx.env.user;
  const all = ctx.env.users.list();
  const users = me.perm === 'admin' ? all : all.filter((u) => u.name === me.name);
  const rows = users.map((u) => [u.name, cmd.database === undefined ? u.perm : permissionOn(u, cmd.database)]);
  return formatTable({ header: ['Username', 'Permission'], rows, summary: '% user(s)' });
}
