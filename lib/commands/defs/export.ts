/**
 * EXPORT path: writes every resource of the opened database below a server folder (XML documents
 * as stored, binaries as bytes). Only with file access.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { attr, defineCommand, element, needs, opened } from '../definition';
import { existingDb } from '../exec/context';
import { execError } from '../exec/exec-errors';

export const exportDb = defineCommand({
  kind: 'export',
  syntax: [
    {
      words: ['EXPORT'],
      parse: (p) => ({ kind: 'export', path: p.reqString() }),
      help: { syntax: '[path]', summary: 'Export the opened database to a server directory.' },
    },
  ],
  elements: { export: element(['path'], [], (a) => ({ kind: 'export', path: attr(a, 'path') })) },
  needs: (_cmd, db) => needs('create', opened(db)),
  run: async (cmd, ctx) => {
    if (!ctx.env.allowFileAccess) throw execError('FILE_ACCESS_X', cmd.path);
    const db = await existingDb(ctx);
    const root = path.resolve(cmd.path);
    for (const r of await ctx.view.listResources(db)) {
      const file = path.join(root, ...r.path.split('/'));
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, await ctx.view.readBytes(db, r.path));
    }
    return '';
  },
});
