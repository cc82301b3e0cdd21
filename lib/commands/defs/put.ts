/** PUT path input (old name REPLACE): adds or replaces one document (an XML string or a server file). */
import { checkResourcePath } from '../../store/resource-names';
import { attr, defineCommand, element, input, needs, opened, type ArgReader } from '../definition';
import { existingDb, writer } from '../exec/context';
import { execError } from '../exec/errors';
import { resolveInput } from '../exec/input';
import type { CommandOf } from '../types';

function parse(p: ArgReader): CommandOf<'put'> {
  const path = p.reqString();
  return { kind: 'put', path, input: p.reqRest(true) };
}

const putElement = element<CommandOf<'put'>>(['path'], [], (a, c) => ({ kind: 'put', path: attr(a, 'path'), input: c as string }), input('input'));

export const put = defineCommand({
  kind: 'put',
  syntax: [
    { words: ['PUT'], parse, help: { syntax: '[path] [input]', summary: 'Add or replace a resource of the opened database.' } },
    { words: ['REPLACE'], parse, help: { syntax: '[path] [input]', summary: 'Old name of PUT.' }, legacy: true },
  ],
  elements: { put: putElement, replace: putElement },
  needs: (_cmd, db) => needs('write', [], opened(db)),
  run: async (cmd, ctx) => {
    const db = await existingDb(ctx);
    const target = checkResourcePath(cmd.path);
    const resolved = await resolveInput(ctx, cmd.input, target, `${db}.xml`);
    if (resolved.kind === 'dir') throw execError('SINGLE_INPUT_X', cmd.input);
    await writer(ctx).putResource(db, target, resolved.resources[0].input);
    return '';
  },
});
