/** RENAME path newpath: a resource of the opened database, or every resource below a directory. */
import { attr, defineCommand, element, needs, opened } from '../definition';
import { existingDb, writer } from '../exec/context';

export const rename = defineCommand({
  kind: 'rename',
  syntax: [
    {
      words: ['RENAME'],
      parse: (p) => ({ kind: 'rename', path: p.reqString(), newPath: p.reqString() }),
      help: { syntax: '[path] [newpath]', summary: 'Rename resources of the opened database.' },
    },
  ],
  elements: {
    rename: element(['path', 'newpath'], [], (a) => ({ kind: 'rename', path: attr(a, 'path'), newPath: attr(a, 'newpath') })),
  },
  needs: (_cmd, db) => needs('write', [], opened(db)),
  run: async (cmd, ctx) => {
    const db = await existingDb(ctx);
    await writer(ctx).renameResources(db, cmd.path, cmd.newPath);
    return '';
  },
});
