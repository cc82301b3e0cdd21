/**
 * Commands on whole databases: CREATE DB, DROP DB, ALTER DB, COPY, OPEN, CLOSE, OPTIMIZE, FLUSH,
 * CREATE/DROP INDEX, EXPORT. They change state and answer no output.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { raise } from '../../errors';
import { STORE_ERRORS } from '../../store/errors';
import { checkDatabaseName, checkPath } from '../../store/paths';
import type { DatabaseOptions } from '../../store/types';
import { globMatches } from '../../users/permissions';
import type { CommandOf } from '../types';
import { existingDb, writer, type RunContext } from './context';
import { execError } from './errors';
import { resolveInput } from './input';
import { optionValue } from './options';

/** Options kept with a new database: parsing and index settings of the session (stored lower case). */
const KEPT_OPTIONS = [
  'STRIPWS', 'STRIPNS', 'TEXTINDEX', 'ATTRINDEX', 'TOKENINDEX', 'FTINDEX', 'UPDINDEX', 'AUTOOPTIMIZE', 'MAXLEN', 'MAXCATS',
];

/** Option key of an index type in the database options. */
const INDEX_OPTION: Record<CommandOf<'createIndex'>['type'], string> = {
  text: 'textindex',
  attribute: 'attrindex',
  token: 'tokenindex',
  fulltext: 'ftindex',
};

/**
 * CREATE DB name (input): creates the database (replacing one of that name) with the session's
 * parsing and index options; an XML string becomes `name.xml`, a server file keeps its name, a
 * folder its files. The input is read and parsed before anything is stored. The new database
 * is opened (reference server).
 */
export async function createDb(cmd: CommandOf<'createDb'>, ctx: RunContext): Promise<void> {
  const name = checkDatabaseName(cmd.name);
  const input = cmd.input === undefined ? undefined : await resolveInput(ctx, cmd.input, undefined, `${name}.xml`);
  const options: DatabaseOptions = {};
  for (const o of KEPT_OPTIONS) options[o.toLowerCase()] = optionValue(ctx.state, o);
  if (input?.inputPath !== undefined) options.inputpath = input.inputPath;
  if (input !== undefined) options.inputsize = input.inputSize;
  const view = writer(ctx);
  await view.createDatabase(name, options);
  for (const r of input?.resources ?? []) await view.putResource(name, r.path, r.input);
  ctx.state.currentDb = name;
  delete ctx.state.currentPath;
}

/**
 * DROP DB pattern: drops every database matching one of the comma-separated globs. Names that
 * match nothing are no error. Dropping the opened database closes it.
 */
export async function dropDb(cmd: CommandOf<'dropDb'>, ctx: RunContext): Promise<void> {
  const view = writer(ctx);
  const patterns = cmd.pattern.split(',').filter((p) => p !== '');
  const names = (await view.listDatabases()).map((d) => d.name);
  for (const name of names.filter((n) => patterns.some((p) => globMatches(p, n)))) {
    await view.dropDatabase(name);
    if (ctx.state.currentDb === name) close(ctx);
  }
}

/** ALTER DB name newname: renames; the opened database follows its new name. */
export async function alterDb(cmd: CommandOf<'alterDb'>, ctx: RunContext): Promise<void> {
  checkDatabaseName(cmd.newName);
  await writer(ctx).renameDatabase(cmd.name, cmd.newName);
  if (ctx.state.currentDb === cmd.name) ctx.state.currentDb = cmd.newName;
}

/** COPY name newname: copies; an existing target is replaced. */
export async function copy(cmd: CommandOf<'copy'>, ctx: RunContext): Promise<void> {
  checkDatabaseName(cmd.newName);
  await writer(ctx).copyDatabase(cmd.name, cmd.newName);
}

/** OPEN name (path): the database must exist (404 otherwise, spec §6.3); the path is normalised. */
export async function open(cmd: CommandOf<'open'>, ctx: RunContext): Promise<void> {
  if ((await ctx.view.database(cmd.name)) === undefined) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', cmd.name);
  const p = cmd.path === undefined ? '' : checkPath(cmd.path);
  ctx.state.currentDb = cmd.name;
  if (p === '') delete ctx.state.currentPath;
  else ctx.state.currentPath = p;
}

export function close(ctx: RunContext): void {
  delete ctx.state.currentDb;
  delete ctx.state.currentPath;
}

/** OPTIMIZE, FLUSH: accepted; this store keeps no structures to rebuild and writes through. */
export async function noOp(ctx: RunContext): Promise<void> {
  await existingDb(ctx);
}

/** CREATE INDEX / DROP INDEX: no index is built; the flag INFO DB shows is set. */
export async function setIndex(cmd: CommandOf<'createIndex' | 'dropIndex'>, ctx: RunContext): Promise<void> {
  const db = await existingDb(ctx);
  await writer(ctx).setOptions(db, { [INDEX_OPTION[cmd.type]]: cmd.kind === 'createIndex' });
}

/**
 * EXPORT path: writes every resource of the opened database below a server folder (XML documents
 * as stored, binaries as bytes). Only with file access.
 */
export async function exportDb(cmd: CommandOf<'export'>, ctx: RunContext): Promise<void> {
  if (!ctx.env.allowFileAccess) throw execError('FILE_ACCESS_X', cmd.path);
  const db = await existingDb(ctx);
  const root = path.resolve(cmd.path);
  for (const r of await ctx.view.listResources(db)) {
    const file = path.join(root, ...r.path.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, await ctx.view.readBytes(db, r.path));
  }
}
