/**
 * PUT path input (old name REPLACE): adds or replaces one document (an XML string or a server file).
 *
 * REST PUT of a resource (operations/store.ts) stores its body here too (`putInput`), as in the
 * reference server, where it is this command with the request body as input.
 */
import fs from 'node:fs/promises';
import { checkResourcePath } from '../../store/resource-names';
import type { ResourceInfo, ResourceInput, WriteView } from '../../store/types';
import { attr, defineCommand, element, input, needs, opened, type ArgReader } from '../definition';
import { existingDb, writer } from '../exec/context';
import { execError } from '../exec/exec-errors';
import { resolveInput } from '../exec/input';
import { optionValue, type SessionOptions } from '../exec/session-options';
import type { CommandOf } from '../types';

/** What a PUT stores at one path. */
export interface PutInput {
  readonly input: ResourceInput;
  /** The input's bytes as given, for a binary resource that an XML input replaces. */
  readonly bytes: () => Buffer | Promise<Buffer>;
}

/**
 * Stores `put` at `path` of `db` (spec §8.3, §8.4): an existing resource is replaced, unless the
 * session's REPLACE is off (then kept: undefined); an XML input onto a binary resource replaces
 * its bytes and the resource stays binary. `check` judges the existing resource first (REST's
 * If-Match). Answers the stored resource.
 */
export async function putInput(
  view: WriteView,
  db: string,
  path: string,
  put: PutInput,
  session: SessionOptions,
  check?: (existing: ResourceInfo | undefined) => void,
): Promise<ResourceInfo | undefined> {
  const existing = await view.resource(db, path);
  check?.(existing);
  if (existing !== undefined && optionValue(session, 'REPLACE') === false) return undefined;
  const content = existing?.type === 'binary' && put.input.type === 'xml' ? { type: 'binary' as const, data: await put.bytes() } : put.input;
  return view.putResource(db, path, content);
}

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
    const { inputPath } = resolved;
    const bytes = () => (inputPath === undefined ? Buffer.from(cmd.input, 'utf8') : fs.readFile(inputPath));
    await putInput(writer(ctx), db, target, { input: resolved.resources[0].input, bytes }, ctx.state);
    return '';
  },
});
