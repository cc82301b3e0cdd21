/** DIR (path): the directories and resources directly below path in the opened database. */
import { checkPath } from '../../store/resource-names';
import type { ResourceInfo } from '../../store/types';
import { defineCommand, element, needs, opened, opt } from '../definition';
import { existingDb } from '../exec/context';
import { formatTable, sortRows } from '../table';

/** The header of resource listings (DIR, LIST db). */
export const RESOURCE_HEADER = ['Input Path', 'Type', 'Content-Type', 'Size'];

/** A resource as a row of a resource listing, shown under path `p`. */
export function resourceRow(r: ResourceInfo, p = r.path): string[] {
  return [p, r.type, r.contentType, String(r.size)];
}

export const dir = defineCommand({
  kind: 'dir',
  syntax: [
    {
      words: ['DIR'],
      parse: (p) => opt({ kind: 'dir', path: p.string() }),
      help: { syntax: '([path])', summary: 'List directories and resources of the opened database.' },
    },
  ],
  elements: { dir: element([], ['path'], (a) => opt({ kind: 'dir', path: a.path })) },
  needs: (_cmd, db) => needs('read', opened(db)),
  run: async (cmd, ctx) => {
    const db = await existingDb(ctx);
    const root = checkPath(cmd.path ?? '');
    const prefix = root === '' ? '' : `${root}/`;
    const dirs = new Set<string>();
    const rows: string[][] = [];
    for (const r of await ctx.view.listResources(db, root)) {
      if (!r.path.startsWith(prefix)) continue;
      const rest = r.path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) rows.push(resourceRow(r, rest));
      else dirs.add(rest.slice(0, slash));
    }
    for (const d of dirs) rows.push([d, 'directory', '', '']);
    return formatTable({ header: RESOURCE_HEADER, rows: sortRows(rows), summary: '% entries' });
  },
});
