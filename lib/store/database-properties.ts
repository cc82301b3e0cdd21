/**
 * The properties of a database as INFO DB shows them (spec §15.3) and db:info/db:property answer
 * them (BaseX's Database Module: "the output is similar to the INFO DB command"): three sections
 * of named values, from the database's record and its resources. One table for both.
 *
 * NODES counts the nodes of all documents; INPUTPATH is shown for databases created from a server
 * file or folder; INPUTSIZE is the size of the creation input (of all resources when unknown).
 * The index lines come from store/index-kinds.ts (TEXTINDEX, ATTRINDEX, TOKENINDEX are true unless
 * switched off, FTINDEX false unless switched on), then the full-text index's options and the
 * remaining index settings kept with the database.
 */
import { INDEX_KINDS, hasFullTextIndex, hasValueIndex, VALUE_INDEX_KINDS } from './index-kinds';
import type { DatabaseInfo, ResourceInfo } from './types';

export type PropertyValue = string | number | boolean;

export interface PropertySection {
  /** The heading INFO DB writes. */
  readonly title: string;
  /** The element db:info writes for it. */
  readonly element: string;
  readonly properties: readonly (readonly [string, PropertyValue])[];
}

/** Sizes as the reference server writes them: `4 b`, `5 kB`, `12 MB`, `3 GB` (rounded). */
export function formatSize(bytes: number): string {
  const units: [number, string][] = [[30, 'GB'], [20, 'MB'], [10, 'kB']];
  for (const [shift, unit] of units) {
    const base = 2 ** shift;
    if (bytes > base) return `${Math.round(bytes / base)} ${unit}`;
  }
  return `${bytes} b`;
}

function timestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/** Index settings after the indexes, with their default: the full-text index's options (FULLTEXT_OPTIONS), then the others. */
const OTHER_INDEX_SETTINGS: readonly [string, PropertyValue][] = [
  ['LANGUAGE', 'en'],
  ['STEMMING', false],
  ['CASESENS', false],
  ['DIACRITICS', false],
  ['STOPWORDS', ''],
  ['UPDINDEX', false],
  ['AUTOOPTIMIZE', false],
  ['MAXLEN', 96],
  ['MAXCATS', 100],
];

export function databaseProperties(meta: DatabaseInfo, resources: readonly ResourceInfo[]): PropertySection[] {
  const count = (type: string) => resources.filter((r) => r.type === type).length;
  const nodes = resources.filter((r) => r.type === 'xml').reduce((n, r) => n + r.size, 0);
  const bytes = resources.reduce((n, r) => n + r.bytes, 0);
  const o = meta.options;
  const input: [string, PropertyValue][] = [];
  if (typeof o.inputpath === 'string') input.push(['INPUTPATH', o.inputpath]);
  input.push(['INPUTSIZE', formatSize(typeof o.inputsize === 'number' ? o.inputsize : bytes)], ['INPUTDATE', timestamp(meta.created)]);
  return [
    {
      title: 'Database Properties',
      element: 'databaseproperties',
      properties: [
        ['NAME', meta.name], ['SIZE', formatSize(meta.size)], ['NODES', nodes], ['DOCUMENTS', count('xml')],
        ['BINARIES', count('binary')], ['VALUES', count('value')], ['TIMESTAMP', timestamp(meta.modified)], ['UPTODATE', true],
      ],
    },
    { title: 'Resource Properties', element: 'resourceproperties', properties: input },
    {
      title: 'Indexes',
      element: 'indexes',
      properties: [
        ...VALUE_INDEX_KINDS.map((k): [string, PropertyValue] => [INDEX_KINDS[k].option, hasValueIndex(o, k)]),
        [INDEX_KINDS.fulltext.option, hasFullTextIndex(o)],
        ...OTHER_INDEX_SETTINGS.map(([name, def]): [string, PropertyValue] => [name, (o[name.toLowerCase()] as PropertyValue | undefined) ?? def]),
      ],
    },
  ];
}
