/**
 * User commands (spec §13.2): CREATE USER, DROP USER, ALTER USER, ALTER PASSWORD, PASSWORD (no
 * output) and SHOW USERS. Changes go to the user store at once; they are not part of the script's
 * database changes. GRANT is in grant.ts.
 */
import { raise } from '../../xmldb-error';
import { USER_ERRORS } from '../../users/user-errors';
import { checkPattern, globMatches, isGlob } from '../../glob';
import { rank, type Permission } from '../../users/permissions';
import type { User } from '../../users/user-store';
import { attr, defineCommand, element, needs, opt, text } from '../definition';
import type { RunContext } from '../exec/context';
import { execError } from '../exec/exec-errors';
import { formatTable } from '../table';

function password(value: string | undefined): string {
  if (value === undefined) throw execError('PASSWORD_MISSING');
  return value;
}

/** Users whose names match a glob; a plain name must exist. */
export function matchingUsers(ctx: RunContext, pattern: string): User[] {
  const users = ctx.env.users.list().filter((u) => globMatches(checkPattern(pattern), u.name));
  if (users.length === 0 && !isGlob(pattern)) throw raise(USER_ERRORS, 'USER_NOT_FOUND_X', pattern);
  return users;
}

export const createUser = defineCommand({
  kind: 'createUser',
  syntax: [
    {
      words: ['CREATE', ['USER']],
      parse: (p) => opt({ kind: 'createUser', name: p.reqName(), password: p.string() }),
      detail: 'USER [name] ([password]): create a user.',
    },
  ],
  elements: {
    'create-user': element(['name'], [], (a, c) => opt({ kind: 'createUser', name: attr(a, 'name'), password: c }), text('password', true)),
  },
  needs: () => needs('admin'),
  run: async (cmd, ctx) => {
    await ctx.env.users.create(cmd.name, password(cmd.password));
    return '';
  },
});

/**
 * DROP USER pattern (ON db): drops the matching users, or with ON their grants for exactly that
 * database pattern. `admin` cannot be dropped: by name it is an error, a glob passes over it.
 */
export const dropUser = defineCommand({
  kind: 'dropUser',
  syntax: [
    {
      words: ['DROP', ['USER']],
      parse: (p) => {
        const pattern = p.reqName(true);
        return opt({ kind: 'dropUser', pattern, on: p.key('ON', false) ? p.reqName(true) : undefined });
      },
      detail: 'USER [name] (ON [pattern]): drop a user, or its permissions on [pattern].',
    },
  ],
  elements: { 'drop-user': element(['name'], ['pattern'], (a) => opt({ kind: 'dropUser', pattern: attr(a, 'name'), on: a.pattern })) },
  needs: () => needs('admin'),
  run: async (cmd, ctx) => {
    if (cmd.pattern === 'admin' && cmd.on === undefined) throw raise(USER_ERRORS, 'ADMIN_STATIC');
    for (const u of matchingUsers(ctx, cmd.pattern)) {
      if (cmd.on !== undefined) await ctx.env.users.dropGrant(u.name, cmd.on);
      else if (u.name !== 'admin') await ctx.env.users.drop(u.name);
    }
    return '';
  },
});

export const alterUser = defineCommand({
  kind: 'alterUser',
  syntax: [
    {
      words: ['ALTER', ['USER']],
      parse: (p) => ({ kind: 'alterUser', name: p.reqName(), newName: p.reqName() }),
      detail: 'USER [name] [newname]: rename a user.',
    },
  ],
  elements: {
    'alter-user': element(['name', 'newname'], [], (a) => ({ kind: 'alterUser', name: attr(a, 'name'), newName: attr(a, 'newname') })),
  },
  needs: () => needs('admin'),
  run: async (cmd, ctx) => {
    await ctx.env.users.rename(cmd.name, cmd.newName);
    return '';
  },
});

/** ALTER PASSWORD name (pw): another user's password (admin), or one's own (no permission). */
export const alterPassword = defineCommand({
  kind: 'alterPassword',
  syntax: [
    {
      words: ['ALTER', ['PASSWORD']],
      parse: (p) => opt({ kind: 'alterPassword', name: p.reqName(), password: p.string() }),
      detail: 'PASSWORD [name] ([password]): change the password of a user.',
    },
  ],
  elements: {
    'alter-password': element(
      ['name'],
      [],
      (a, c) => opt({ kind: 'alterPassword', name: attr(a, 'name'), password: c }),
      text('password', true),
    ),
  },
  needs: (cmd, _db, user) => needs(user !== undefined && cmd.name === user ? 'none' : 'admin'),
  run: async (cmd, ctx) => {
    await ctx.env.users.setPassword(cmd.name, password(cmd.password));
    return '';
  },
});

/** PASSWORD (pw): the user's own password. */
export const ownPassword = defineCommand({
  kind: 'password',
  syntax: [
    {
      words: ['PASSWORD'],
      parse: (p) => opt({ kind: 'password', password: p.string() }),
      help: { syntax: '([password])', summary: 'Change your own password.' },
    },
  ],
  elements: { password: element([], [], (_a, c) => opt({ kind: 'password', password: c }), text('password', true)) },
  needs: () => needs('none'),
  run: async (cmd, ctx) => {
    await ctx.env.users.setPassword(ctx.env.user.name, password(cmd.password));
    return '';
  },
});

/** The permission a user holds on a database: a matching grant decides, else the global one. */
function permissionOn(user: User, db: string): Permission {
  if (user.perm === 'admin' || rank(user.perm) > rank('write')) return user.perm;
  return user.grants.find((g) => globMatches(g.pattern, db))?.perm ?? user.perm;
}

/**
 * SHOW USERS (ON db): `Username  Permission`, admin first. Non-admins see only themselves. With
 * ON, the permission shown is the one the user holds on that database.
 */
export const showUsers = defineCommand({
  kind: 'showUsers',
  syntax: [
    {
      words: ['SHOW', ['USERS']],
      parse: (p) => opt({ kind: 'showUsers', database: p.key('ON', false) ? p.reqName() : undefined }),
      detail: 'USERS (ON [database]): users and their permissions.',
    },
  ],
  elements: { 'show-users': element([], ['database'], (a) => opt({ kind: 'showUsers', database: a.database })) },
  needs: () => needs('none'),
  run: (cmd, ctx) => {
    const me = ctx.env.user;
    const all = ctx.env.users.list();
    const users = me.perm === 'admin' ? all : all.filter((u) => u.name === me.name);
    const rows = users.map((u) => [u.name, cmd.database === undefined ? u.perm : permissionOn(u, cmd.database)]);
    return formatTable({ header: ['Username', 'Permission'], rows, summary: '% user(s)' });
  },
});
