/**
 * LIST (spec §15.3): the databases the user may read, or with a name the resources of that
 * database (at or below a path). Refusing LIST of a database the user may not read answers "not
 * found", as for a database that does not exist (spec §13.2).
 */
import { raise } from '../../xmldb-error';
import { STORE_ERRORS } from '../../store/store-errors';
import { allows } from '../../users/permissions';
import { defineCommand, element, needs, opt } from '../definition';
import type { RunContext } from '../exec/context';
import { toCommandFailure } from '../exec/exec-errors';
import { formatTable, sortRows } from '../table';
import { RESOURCE_HEADER, resourceRow } from './dir';

/**
 * LIST: the databases the user may read. The `Input Path` column is shown to users with the create
 * permission, as by the reference server; it holds the server file or folder a database was
 * created from (empty for other databases).
 */
async function listDatabases(ctx: RunContext): Promise<string> {
  const user = ctx.env.user;
  const withPath = allows(user, 'create');
  const rows = (await ctx.view.listDatabases())
    .filter((d) => allows(user, 'read', d.name))
    .map((d) => {
      const row = [d.name, String(d.resources), String(d.size)];
      if (withPath) row.push(typeof d.options.inputpath === 'string' ? d.options.inputpath : '');
      return row;
    });
  const header = ['Name', 'Resources', 'Size', ...(withPath ? ['Input Path'] : [])];
  return formatTable({ header, rows: sortRows(rows), summary: '% database(s)' });
}

/** LIST db (path): the resources at or below path. */
async function listDatabase(name: string, path: string | undefined, ctx: RunContext): Promise<string> {
  if ((await ctx.view.database(name)) === undefined) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', name);
  const rows = (await ctx.view.listResources(name, path ?? '')).map((r) => resourceRow(r));
  return formatTable({ header: RESOURCE_HEADER, rows: sortRows(rows), summary: '% Resource(s)' });
}

export const list = defineCommand({
  kind: 'list',
  syntax: [
    {
      words: ['LIST'],
      parse: (p) => {
        const name = p.name(false);
        return opt({ kind: 'list', name, path: name === undefined ? undefined : p.string() });
      },
      help: { syntax: '([name] ([path]))', summary: 'List databases, or the resources of a database.' },
    },
  ],
  elements: { list: element([], ['name', 'path'], (a) => opt({ kind: 'list', name: a.name, path: a.path })) },
  needs: (cmd) => (cmd.name === undefined ? needs('none', '*') : needs('read', [cmd.name])),
  refused: (cmd) => (cmd.name === undefined ? undefined : toCommandFailure(raise(STORE_ERRORS, 'DB_NOT_FOUND_X', cmd.name))),
  run: (cmd, ctx) => (cmd.name === undefined ? listDatabases(ctx) : listDatabase(cmd.name, cmd.path, ctx)),
});
