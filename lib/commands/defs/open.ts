/**
 * OPEN name (path): the database must exist (404 otherwise, spec §6.3); the path is normalised.
 * Refusing to open a database the user may not read answers "not found", as for a database that
 * does not exist (spec §13.2).
 */
import { raise } from '../../xmldb-error';
import { STORE_ERRORS } from '../../store/store-errors';
import { checkPath } from '../../store/resource-names';
import { attr, defineCommand, element, needs, opt } from '../definition';

export const open = defineCommand({
  kind: 'open',
  syntax: [
    {
      words: ['OPEN'],
      parse: (p) => opt({ kind: 'open', name: p.reqName(), path: p.string() }),
      help: { syntax: '[name] ([path])', summary: 'Open a database.' },
    },
  ],
  elements: { open: element(['name'], ['path'], (a) => opt({ kind: 'open', name: attr(a, 'name'), path: a.path })) },
  needs: (cmd) => needs('read', [cmd.name]),
  opens: (cmd) => cmd.name,
  refused: (cmd) => raise(STORE_ERRORS, 'DB_NOT_FOUND_X', cmd.name),
  run: async (cmd, ctx) => {
    if ((await ctx.view.database(cmd.name)) === undefined) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', cmd.name);
    const p = cmd.path === undefined ? '' : checkPath(cmd.path);
    ctx.state.currentDb = cmd.name;
    if (p === '') delete ctx.state.currentPath;
    else ctx.state.currentPath = p;
    return '';
  },
});
