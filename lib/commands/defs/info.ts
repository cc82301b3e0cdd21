/**
 * INFO (spec §15.3): INFO shows the version and the main options of the session, INFO DB the
 * properties of the opened database, INFO INDEX its indexes. INFO STORAGE parses but is not offered.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { raise } from '../../xmldb-error';
import { STORE_ERRORS } from '../../store/store-errors';
import { defineCommand, element, needs, opened, opt } from '../definition';
import { existingDb, type RunContext } from '../exec/context';
import { optionValue } from '../exec/session-options';
import { INFO_INDEX_TYPES, type InfoIndexType } from '../types';
import { databaseProperties } from '../../store/database-properties';
import { INDEX_KINDS, hasFullTextIndex, hasValueIndex, type IndexKind } from '../../store/index-kinds';
import type { DatabaseOptions } from '../../store/types';
import { execError } from '../exec/exec-errors';

export { formatSize } from '../../store/database-properties';

const INFO_INDEX_KINDS = INFO_INDEX_TYPES.map((t) => t.toUpperCase());

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

/** Options INFO shows. */
const INFO_OPTIONS = ['STRIPWS', 'STRIPNS', 'CREATEFILTER', 'ADDRAW', 'REPLACE', 'QUERYINFO', 'SERIALIZE'];

function line(name: string, value: unknown): string {
  return ` ${name}: ${String(value)}\n`;
}

/**
 * INFO DB: the sections of store/database-properties.ts (Database Properties, Resource
 * Properties, Indexes), one `NAME: value` line per property.
 */
async function infoDatabase(ctx: RunContext): Promise<string> {
  const db = await existingDb(ctx);
  const meta = await ctx.view.database(db);
  if (meta === undefined) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
  const sections = databaseProperties(meta, await ctx.view.listResources(db));
  return sections.map((s) => `${s.title}\n${s.properties.map(([name, value]) => line(name, value)).join('')}`).join('\n');
}

/**
 * INFO INDEX (type): whether the opened database has each index (store/index-kinds.ts); the
 * structural indexes BaseX also lists (PATH, ELEMNAME, ATTRNAME) are not offered.
 */
async function infoIndexes(type: InfoIndexType | undefined, ctx: RunContext): Promise<string> {
  const db = await existingDb(ctx);
  if (type !== undefined && !(type in INDEX_KINDS)) throw execError('NOT_SUPPORTED_INDEX_X', `${type} index`);
  const meta = await ctx.view.database(db);
  if (meta === undefined) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
  const kinds = type === undefined ? (Object.keys(INDEX_KINDS) as IndexKind[]) : [type as IndexKind];
  return kinds.map((k) => line(INDEX_KINDS[k].option, describeIndex(meta.options, k))).join('');
}

function describeIndex(options: DatabaseOptions, kind: IndexKind): string {
  const unsupported = INDEX_KINDS[kind].unsupported;
  if (unsupported !== undefined) return 'not supported';
  const on = kind === 'fulltext' ? hasFullTextIndex(options) : hasValueIndex(options, kind);
  return on ? 'true (kept current on every write)' : 'false';
}

export const info = defineCommand({
  kind: 'info',
  syntax: [{ words: ['INFO'], parse: () => ({ kind: 'info' }), detail: '(none): general information.' }],
  elements: { info: element([], [], () => ({ kind: 'info' })) },
  needs: () => needs('none'),
  run: (_cmd, ctx) => {
    const options = INFO_OPTIONS.map((o) => ` ${o}: ${String(optionValue(ctx.state, o))}\n`).join('');
    return `General Information:\n Version: ${serverVersion()}\n\nLocal Options:\n${options}`;
  },
});

export const infoDb = defineCommand({
  kind: 'infoDb',
  syntax: [{ words: ['INFO', ['DB', 'DATABASE']], parse: () => ({ kind: 'infoDb' }), detail: 'DB: properties of the opened database.' }],
  elements: { 'info-db': element([], [], () => ({ kind: 'infoDb' })) },
  needs: (_cmd, db) => needs('read', opened(db)),
  run: (_cmd, ctx) => infoDatabase(ctx),
});

export const infoIndex = defineCommand({
  kind: 'infoIndex',
  syntax: [
    {
      words: ['INFO', ['INDEX']],
      parse: (p) => opt({ kind: 'infoIndex', type: p.keyword(INFO_INDEX_KINDS, true)?.toLowerCase() as InfoIndexType | undefined }),
      detail: 'INDEX ([type]): index information.',
    },
  ],
  elements: {
    'info-index': element([], ['type'], (a, _c, invalid) => {
      const t = a.type?.toLowerCase();
      if (t !== undefined && !(INFO_INDEX_TYPES as readonly string[]).includes(t)) throw invalid();
      return opt({ kind: 'infoIndex', type: t as InfoIndexType | undefined });
    }),
  },
  needs: (_cmd, db) => needs('read', opened(db)),
  run: (cmd, ctx) => infoIndexes(cmd.type, ctx),
});

export const infoStorage = defineCommand({
  kind: 'infoStorage',
  syntax: [
    {
      words: ['INFO', ['STORAGE']],
      parse: (p) => {
        const start = p.number();
        return opt({ kind: 'infoStorage', start, end: start === undefined ? undefined : p.number() });
      },
      detail: 'STORAGE ([start] ([end])): internal storage.',
    },
  ],
  elements: { 'info-storage': element([], ['start', 'end'], (a) => opt({ kind: 'infoStorage', start: a.start, end: a.end })) },
  needs: (_cmd, db) => needs('read', opened(db)),
});

export const inspect = defineCommand({
  kind: 'inspect',
  syntax: [
    {
      words: ['INSPECT'],
      parse: () => ({ kind: 'inspect' }),
      help: { syntax: '', summary: 'Check the opened database for inconsistencies.' },
    },
  ],
  elements: { inspect: element([], [], () => ({ kind: 'inspect' })) },
  needs: (_cmd, db) => needs('read', opened(db)),
});
