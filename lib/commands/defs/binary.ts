/**
 * BINARY GET path (old name RETRIEVE): the bytes of a binary resource, decoded as UTF-8 (command
 * output is text). BINARY PUT (TO path) input (old name STORE): stores the input text as bytes.
 */
import { checkResourcePath } from '../../store/resource-names';
import { attr, defineCommand, element, input, needs, opened, opt, type ArgReader } from '../definition';
import { existingDb, writer } from '../exec/context';
import { execError } from '../exec/exec-errors';
import type { CommandOf } from '../types';
import { storedBytes } from './get';

function parsePut(p: ArgReader): CommandOf<'binaryPut'> {
  const path = p.key('TO', false) ? p.reqString() : undefined;
  return opt({ kind: 'binaryPut', path, input: p.reqRest(true) });
}

const putElement = element<CommandOf<'binaryPut'>>([], ['path'], (a, c) => opt({ kind: 'binaryPut', path: a.path, input: c as string }), input('input'));
const getElement = element<CommandOf<'binaryGet'>>(['path'], [], (a) => ({ kind: 'binaryGet', path: attr(a, 'path') }));

export const binaryGet = defineCommand({
  kind: 'binaryGet',
  syntax: [
    { words: ['BINARY', ['GET']], parse: (p) => ({ kind: 'binaryGet', path: p.reqString() }), detail: 'GET [path]: return the bytes at [path].' },
    {
      words: ['RETRIEVE'],
      parse: (p) => ({ kind: 'binaryGet', path: p.reqString() }),
      help: { syntax: '[path]', summary: 'Old name of BINARY GET.' },
      legacy: true,
    },
  ],
  elements: { 'binary-get': getElement, retrieve: getElement },
  needs: (_cmd, db) => needs('read', opened(db)),
  run: async (cmd, ctx) => (await storedBytes(ctx, cmd.path, 'binary')).toString('utf8'),
});

export const binaryPut = defineCommand({
  kind: 'binaryPut',
  syntax: [
    { words: ['BINARY', ['PUT']], parse: parsePut, detail: 'PUT (TO [path]) [input]: store [input] as bytes.' },
    { words: ['STORE'], parse: parsePut, help: { syntax: '(TO [path]) [input]', summary: 'Old name of BINARY PUT.' }, legacy: true },
  ],
  elements: { 'binary-put': putElement, store: putElement },
  needs: (_cmd, db) => needs('write', [], opened(db)),
  run: async (cmd, ctx) => {
    const db = await existingDb(ctx);
    if (cmd.path === undefined) throw execError('PATH_MISSING_X', 'BINARY PUT');
    await writer(ctx).putResource(db, checkResourcePath(cmd.path), { type: 'binary', data: Buffer.from(cmd.input, 'utf8') });
    return '';
  },
});
