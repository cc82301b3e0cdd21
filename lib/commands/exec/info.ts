/**
 * Commands that describe (spec §15.3): LIST, LIST db (path), DIR, INFO, INFO DB, HELP.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { raise } from '../../errors';
import { STORE_ERRORS } from '../../store/errors';
import { checkPath } from '../../store/paths';
import type { ResourceInfo } from '../../store/types';
import { allows } from '../../users/permissions';
import { commandError, commandHelp, helpAll } from '../messages';
import { formatTable, sortRows } from '../table';
import type { CommandOf } from '../types';
import { existingDb, type RunContext } from './context';
import { optionValue } from './options';

/** Sizes as the reference server writes them: `4 b`, `5 kB`, `12 MB`, `3 GB` (rounded). */
export function formatSize(bytes: number): string {
  const units: [number, string][] = [[30, 'GB'], [20, 'MB'], [10, 'kB']];
  for (const [shift, unit] of units) {
    const base = 2 ** shift;
    if (bytes > base) return `${Math.round(bytes / base)} ${unit}`;
  }
  return `${bytes} b`;
}

/** An ISO timestamp with milliseconds, in UTC. */
function timestamp(ms: number): string {
  return new Date(ms).toISOString();
}

let version: string | undefined;

/** This package's version (from its package.json; found from the sources and from dist/). */
export function serverVersion(): string {
  if (version === undefined) {
    try {
      const json = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
      version = typeof json.version === 'string' ? json.version : 'unknown';
    } catch {
      version = 'unknown';
    }
  }
  return version;
}

/**
 * LIST: the databases the user may read. The `Input Path` column is shown to users with the create
 * permission, as by the reference server; it holds the server file or folder a database was
 * created from (empty for other databases).
 */
export async function listDatabases(ctx: RunContext): Promise<string> {
  const user = ctx.env.user;
  const withPath = allows(user, 'create');
  const rows = (await ctx.view.listDatabases())
    .filter((d) => allows(user, 'read', d.name))
    .map((d) => {
      const row = [d.name, String(d.resources), String(d.size)];
      if (withPath) row.push(typeof d.options.inputpath === 'string' ? d.options.inputpath : '');
      return row;
    });
  const header = ['Name', 'Resources', 'Size', ...(withPath ? ['Input Path'] : [])];
  return formatTable({ header, rows: sortRows(rows), summary: '% database(s)' });
}

function resourceRow(r: ResourceInfo, p = r.path): string[] {
  return [p, r.type, r.contentType, String(r.size)];
}

const RESOURCE_HEADER = ['Input Path', 'Type', 'Content-Type', 'Size'];

/** LIST db (path): the resources at or below path. */
export async function listDatabase(cmd: CommandOf<'list'> & { name: string }, ctx: RunContext): Promise<string> {
  if ((await ctx.view.database(cmd.name)) === undefined) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', cmd.name);
  const rows = (await ctx.view.listResources(cmd.name, cmd.path ?? '')).map((r) => resourceRow(r));
  return formatTable({ header: RESOURCE_HEADER, rows: sortRows(rows), summary: '% Resource(s)' });
}

/** DIR (path): the directories and resources directly below path in the opened database. */
export async function dir(cmd: CommandOf<'dir'>, ctx: RunContext): Promise<string> {
  const db = await existingDb(ctx);
  const root = checkPath(cmd.path ?? '');
  const prefix = root === '' ? '' : `${root}/`;
  const dirs = new Set<string>();
  const rows: string[][] = [];
  for (const r of await ctx.view.listResources(db, root)) {
    if (!r.path.startsWith(prefix)) continue;
    const rest = r.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) rows.push(resourceRow(r, rest));
    else dirs.add(rest.slice(0, slash));
  }
  for (const d of dirs) rows.push([d, 'directory', '', '']);
  return formatTable({ header: RESOURCE_HEADER, rows: sortRows(rows), summary: '% entries' });
}

/** Options INFO shows. */
const INFO_OPTIONS = ['STRIPWS', 'STRIPNS', 'CREATEFILTER', 'ADDRAW', 'REPLACE', 'QUERYINFO', 'SERIALIZE'];

/** INFO: the version, then the main options of the session. */
export function info(ctx: RunContext): string {
  const options = INFO_OPTIONS.map((o) => ` ${o}: ${String(optionValue(ctx.state, o))}\n`).join('');
  return `General Information:\n Version: ${serverVersion()}\n\nLocal Options:\n${options}`;
}

function line(name: string, value: unknown): string {
  return ` ${name}: ${String(value)}\n`;
}

/** Index settings INFO DB shows, with their option key and default. */
const INDEX_LINES: [string, string, boolean | number][] = [
  ['TEXTINDEX', 'textindex', true],
  ['ATTRINDEX', 'attrindex', true],
  ['TOKENINDEX', 'tokenindex', true],
  ['FTINDEX', 'ftindex', false],
  ['UPDINDEX', 'updindex', false],
  ['AUTOOPTIMIZE', 'autooptimize', false],
  ['MAXLEN', 'maxlen', 96],
  ['MAXCATS', 'maxcats', 100],
];

/**
 * INFO DB (spec §15.3): Database Properties, Resource Properties, Indexes. NODES counts the nodes
 * of all documents; INPUTPATH is shown for databases created from a server file or folder;
 * INPUTSIZE is the size of the creation input (of all resources when unknown).
 */
export async function infoDb(ctx: RunContext): Promise<string> {
  const db = await existingDb(ctx);
  const meta = await ctx.view.database(db);
  if (meta === undefined) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
  const resources = await ctx.view.listResources(db);
  const count = (type: string) => resources.filter((r) => r.type === type).length;
  const nodes = resources.filter((r) => r.type === 'xml').reduce((n, r) => n + r.size, 0);
  const bytes = resources.reduce((n, r) => n + r.bytes, 0);
  const o = meta.options;
  let s = 'Database Properties\n';
  s += line('NAME', meta.name) + line('SIZE', formatSize(meta.size)) + line('NODES', nodes);
  s += line('DOCUMENTS', count('xml')) + line('BINARIES', count('binary')) + line('VALUES', count('value'));
  s += line('TIMESTAMP', timestamp(meta.modified)) + line('UPTODATE', true);
  s += '\nResource Properties\n';
  if (typeof o.inputpath === 'string') s += line('INPUTPATH', o.inputpath);
  s += line('INPUTSIZE', formatSize(typeof o.inputsize === 'number' ? o.inputsize : bytes));
  s += line('INPUTDATE', timestamp(meta.created));
  s += '\nIndexes\n';
  for (const [name, key, def] of INDEX_LINES) s += line(name, o[key] ?? def);
  return s;
}

/** HELP (command): one command's detailed help, or the short help of all. */
export function help(cmd: CommandOf<'help'>): string {
  if (cmd.command === undefined) return helpAll();
  const text = commandHelp(cmd.command, true);
  if (text === undefined) throw commandError('UNKNOWN_TRY_X', cmd.command);
  return text;
}
