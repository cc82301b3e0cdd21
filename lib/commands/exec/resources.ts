/**
 * Commands on the resources of the opened database: ADD, PUT, DELETE, RENAME, BINARY PUT (no
 * output), GET and BINARY GET (the content).
 *
 * ADD stores "even if the path exists" in the reference server, which may hold two documents at
 * one path; this store has one resource per path, so ADD onto an existing path replaces it, as PUT.
 */
import { raise } from '../../errors';
import { STORE_ERRORS } from '../../store/errors';
import { checkResourcePath } from '../../store/paths';
import type { CommandOf } from '../types';
import { existingDb, writer, type RunContext } from './context';
import { execError } from './errors';
import { resolveInput } from './input';

/** ADD (TO path) input: an XML string, a server file, or the files of a server folder. */
export async function add(cmd: CommandOf<'add'>, ctx: RunContext): Promise<void> {
  const db = await existingDb(ctx);
  const input = await resolveInput(ctx, cmd.input, cmd.path, `${db}.xml`);
  const view = writer(ctx);
  for (const r of input.resources) await view.putResource(db, r.path, r.input);
}

/** PUT path input: adds or replaces one document (an XML string or a server file). */
export async function put(cmd: CommandOf<'put'>, ctx: RunContext): Promise<void> {
  const db = await existingDb(ctx);
  const target = checkResourcePath(cmd.path);
  const input = await resolveInput(ctx, cmd.input, target, `${db}.xml`);
  if (input.kind === 'dir') throw execError('SINGLE_INPUT_X', cmd.input);
  await writer(ctx).putResource(db, target, input.resources[0].input);
}

/** DELETE path: the resource at path, or everything below the directory; nothing found is no error. */
export async function del(cmd: CommandOf<'delete'>, ctx: RunContext): Promise<void> {
  const db = await existingDb(ctx);
  await writer(ctx).deleteResources(db, cmd.path);
}

/** RENAME path newpath: a resource, or every resource below a directory. */
export async function rename(cmd: CommandOf<'rename'>, ctx: RunContext): Promise<void> {
  const db = await existingDb(ctx);
  await writer(ctx).renameResources(db, cmd.path, cmd.newPath);
}

/** BINARY PUT (TO path) input: stores the input text as bytes (UTF-8). */
export async function binaryPut(cmd: CommandOf<'binaryPut'>, ctx: RunContext): Promise<void> {
  const db = await existingDb(ctx);
  if (cmd.path === undefined) throw execError('PATH_MISSING_X', 'BINARY PUT');
  await writer(ctx).putResource(db, checkResourcePath(cmd.path), { type: 'binary', data: Buffer.from(cmd.input, 'utf8') });
}

/** The resource at `path` of the opened database, which must be of `type`. */
async function stored(ctx: RunContext, path: string, type: 'xml' | 'binary'): Promise<Buffer> {
  const db = await existingDb(ctx);
  const info = await ctx.view.resource(db, path);
  if (info === undefined) throw raise(STORE_ERRORS, 'RESOURCE_NOT_FOUND_X', path);
  if (info.type !== type) throw execError('WRONG_TYPE_XX', info.path, type);
  return ctx.view.readBytes(db, info.path);
}

/** GET path: the document as stored (normalised: no XML declaration). */
export async function get(cmd: CommandOf<'get'>, ctx: RunContext): Promise<string> {
  return (await stored(ctx, cmd.path, 'xml')).toString('utf8');
}

/** BINARY GET path: the bytes, decoded as UTF-8 (command output is text). */
export async function binaryGet(cmd: CommandOf<'binaryGet'>, ctx: RunContext): Promise<string> {
  return (await stored(ctx, cmd.path, 'binary')).toString('utf8');
}
