/**
 * DROP DB pattern: drops every database matching one of the comma-separated globs. Names that
 * match nothing are no error. Dropping the opened database closes it.
 */
import { globMatches, patternList } from '../../glob';
import { attr, defineCommand, element, needs } from '../definition';
import { writer } from '../exec/context';
import { patternLocks } from '../locks';
import { closeDatabase } from './close';

export const dropDb = defineCommand({
  kind: 'dropDb',
  syntax: [
    {
      words: ['DROP', ['DB', 'DATABASE']],
      parse: (p) => ({ kind: 'dropDb', pattern: p.reqName(true) }),
      detail: 'DB [name]: drop the databases matching [name].',
    },
  ],
  elements: { 'drop-db': element(['name'], [], (a) => ({ kind: 'dropDb', pattern: attr(a, 'name') })) },
  needs: (cmd) => needs('create', [], patternLocks(cmd.pattern)),
  run: async (cmd, ctx) => {
    const view = writer(ctx);
    const patterns = patternList(cmd.pattern);
    const names = (await view.listDatabases()).map((d) => d.name);
    for (const name of names.filter((n) => patterns.some((p) => globMatches(p, n)))) {
      await view.dropDatabase(name);
      if (ctx.state.currentDb === name) closeDatabase(ctx);
    }
    return '';
  },
});
