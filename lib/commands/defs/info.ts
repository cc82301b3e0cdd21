/**
 * INFO (spec §15.3): INFO shows the version and the main options of the session, INFO DB the
 * properties of the opened database. INFO INDEX and INFO STORAGE parse but are not offered.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { raise } from '../../errors';
import { STORE_ERRORS } from '../../store/errors';
import { defineCommand, element, needs, opened, opt } from '../definition';
import { existingDb, type RunContext } from '../exec/context';
import { optionValue } from '../exec/options';
import { INFO_INDEX_TYPES, type InfoIndexType } from '../types';

const INFO_INDEX_KINDS = INFO_INDEX_TYPES.map((t) => t.toUpperCase());

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

/** Options INFO shows. */
const INFO_OPTIONS = ['STRIPWS', 'STRIPNS', 'CREATEFILTER', 'ADDRAW', 'REPLACE', 'QUERYINFO', 'SERIALIZE'];

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
 * INFO DB: Database Properties, Resource Properties, Indexes. NODES counts the nodes of all
 * documents; INPUTPATH is shown for databases created from a server file or folder; INPUTSIZE is
 * the size of the creation input (of all resources when unknown).
 */
async function infoDatabase(ctx: RunContext): Promise<string> {
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
