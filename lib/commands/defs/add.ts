/**
 * ADD (TO path) input: an XML string, a server file, or the files of a server folder, added to
 * the opened database. ADD stores "even if the path exists" in the reference server, which may
 * hold two documents at one path; this store has one resource per path, so ADD onto an existing
 * path replaces it, as PUT.
 */
import { defineCommand, element, input, needs, opened, opt } from '../definition';
import { existingDb, writer } from '../exec/context';
import { resolveInput } from '../exec/input';

export const add = defineCommand({
  kind: 'add',
  syntax: [
    {
      words: ['ADD'],
      parse: (p) => {
        const path = p.key('TO', false) ? p.reqString() : undefined;
        return opt({ kind: 'add', path, input: p.reqRest(true) });
      },
      help: {
        syntax: '(TO [path]) [input]',
        summary: 'Add a resource to the opened database.',
        details: ['Adds [input] under [path]; a resource already at that path is kept as well.'],
      },
    },
  ],
  elements: { add: element([], ['path'], (a, c) => opt({ kind: 'add', path: a.path, input: c as string }), input('input')) },
  needs: (_cmd, db) => needs('write', [], opened(db)),
  run: async (cmd, ctx) => {
    const db = await existingDb(ctx);
    const resolved = await resolveInput(ctx, cmd.input, cmd.path, `${db}.xml`);
    const view = writer(ctx);
    for (const r of resolved.resources) await view.putResource(db, r.path, r.input);
    return '';
  },
});
