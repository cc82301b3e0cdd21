/** DELETE path: the resource at path, or everything below the directory; nothing found is no error. */
import { attr, defineCommand, element, needs, opened } from '../definition';
import { existingDb, writer } from '../exec/context';

export const del = defineCommand({
  kind: 'delete',
  syntax: [
    {
      words: ['DELETE'],
      parse: (p) => ({ kind: 'delete', path: p.reqString() }),
      help: {
        syntax: '[path]',
        summary: 'Delete resources from the opened database.',
        details: ['Deletes the resource at [path], or every resource below the directory [path].'],
      },
    },
  ],
  elements: { delete: element(['path'], [], (a) => ({ kind: 'delete', path: attr(a, 'path') })) },
  needs: (_cmd, db) => needs('write', [], opened(db)),
  run: async (cmd, ctx) => {
    const db = await existingDb(ctx);
    await writer(ctx).deleteResources(db, cmd.path);
    return '';
  },
});
