/**
 * GRANT perm (ON pattern) TO user (spec §13.2): the global permission, or with ON a permission
 * (none, read, write) on the matching databases. The user may be a glob; `admin` keeps its
 * permission.
 */
import { parsePermission, PERMISSIONS, type Permission } from '../../users/permissions';
import { attr, defineCommand, element, needs, opt } from '../definition';
import { execError } from '../exec/exec-errors';
import { commandError } from '../messages';
import { matchingUsers } from './users';

const PERMS = PERMISSIONS.map((p) => p.toUpperCase());

export const grant = defineCommand({
  kind: 'grant',
  syntax: [
    {
      words: ['GRANT'],
      parse: (p) => {
        const permission = (p.keyword(PERMS, false) as string).toLowerCase() as Permission;
        const on = p.key('ON', false) ? p.reqName(true) : undefined;
        p.key('TO', true);
        return opt({ kind: 'grant', permission, on, user: p.reqName(true) });
      },
      help: {
        syntax: '[NONE|READ|WRITE|CREATE|ADMIN] (ON [pattern]) TO [user]',
        summary: 'Grant a permission to a user.',
        details: ['With ON, the permission applies to the databases matching [pattern].'],
      },
    },
  ],
  elements: {
    grant: element(['name', 'permission'], ['pattern'], (a) => {
      const permission = parsePermission(attr(a, 'permission'));
      if (permission === undefined) throw commandError('PERM_UNKNOWN_X', attr(a, 'permission'));
      return opt({ kind: 'grant', permission, user: attr(a, 'name'), on: a.pattern });
    }),
  },
  needs: () => needs('admin'),
  run: async (cmd, ctx) => {
    if (cmd.user === 'admin') throw execError('ADMIN_PERMISSION');
    for (const u of matchingUsers(ctx, cmd.user)) {
      if (u.name !== 'admin') await ctx.env.users.grant(u.name, cmd.permission, cmd.on);
    }
    return '';
  },
});
