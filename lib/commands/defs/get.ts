/** GET path: an XML document of the opened database, as stored (normalised: no XML declaration). */
import { raise } from '../../xmldb-error';
import { STORE_ERRORS } from '../../store/store-errors';
import { attr, defineCommand, element, needs, opened } from '../definition';
import { existingDb, type RunContext } from '../exec/context';
import { execError } from '../exec/exec-errors';

/** The bytes of the resource at `path` of the opened database, which must be of `type`. */
export async function storedBytes(ctx: RunContext, path: string, type: 'xml' | 'binary'): Promise<Buffer> {
  const db = await existingDb(ctx);
  const info = await ctx.view.resource(db, path);
  if (info === undefined) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
  if (info.type !== type) throw execError('WRONG_TYPE_XX', info.path, type);
  return ctx.view.readBytes(db, info.path);
}

export const get = defineCommand({
  kind: 'get',
  syntax: [
    {
      words: ['GET'],
      parse: (p) => ({ kind: 'get', path: p.reqString() }),
      help: { syntax: '[path]', summary: 'Return an XML document of the opened database.' },
    },
  ],
  elements: { get: element(['path'], [], (a) => ({ kind: 'get', path: attr(a, 'path') })) },
  needs: (_cmd, db) => needs('read', opened(db)),
  run: async (cmd, ctx) => (await storedBytes(ctx, cmd.path, 'xml')).toString('utf8'),
});
