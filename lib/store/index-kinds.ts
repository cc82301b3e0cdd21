/**
 * The index kinds of a database, in one table: the database option that records each (the
 * `*INDEX` options of spec §2.4, kept lower case with the database), whether this server answers
 * from it, and what the commands, db:create/db:optimize and the engine read of it.
 *
 * The value indexes (text, attribute, token) are on by default, as in BaseX (TEXTINDEX,
 * ATTRINDEX and TOKENINDEX default to true); a database has one unless its option says false.
 * Their content is derived from each stored document version and never goes stale (see
 * xquery/accelerators/value-index/value-index.ts), so unlike BaseX's no write turns them off.
 *
 * The full-text index (FTINDEX) is off by default, as in BaseX. Its content is derived in the
 * same way (xquery/accelerators/fulltext-index/fulltext-index.ts), tokenized and folded by the options it was
 * created with (FULLTEXT_OPTIONS, kept with the database beside FTINDEX).
 *
 * Kinds with `unsupported` set are refused wherever they would be switched on (CREATE INDEX,
 * SET, db:create and db:optimize options) with an error naming them; so is a non-empty include
 * list (SET TEXTINCLUDE ...), which these indexes do not honour.
 */
import type { DatabaseOptions } from './types';

export type IndexKind = 'text' | 'attribute' | 'token' | 'fulltext';
export type ValueIndexKind = Exclude<IndexKind, 'fulltext'>;

export interface IndexKindInfo {
  /** The option's canonical (upper-case) name. */
  readonly option: string;
  /**
   * The option naming the only elements or attributes to index (BaseX's TEXTINCLUDE, ...). The
   * value indexes here hold every text node and attribute, so a non-empty value is refused.
   */
  readonly include: string;
  /** Set when this server does not build the index: what the error names. */
  readonly unsupported?: string;
}

export const INDEX_KINDS: Readonly<Record<IndexKind, IndexKindInfo>> = {
  text: { option: 'TEXTINDEX', include: 'TEXTINCLUDE' },
  attribute: { option: 'ATTRINDEX', include: 'ATTRINCLUDE' },
  token: { option: 'TOKENINDEX', include: 'TOKENINCLUDE' },
  fulltext: { option: 'FTINDEX', include: 'FTINCLUDE' },
};

/**
 * The options a full-text index is built with (BaseX's Indexes, "Full-Text Index"): how tokens
 * are folded (STEMMING, CASESENS, DIACRITICS, LANGUAGE) and the stop words (STOPWORDS, the URI of
 * a list). They are taken from the session (CREATE DB, CREATE INDEX) or the db:create/db:optimize
 * options when the index is switched on, and kept with the database in lower case.
 */
export const FULLTEXT_OPTIONS = ['STEMMING', 'CASESENS', 'DIACRITICS', 'LANGUAGE', 'STOPWORDS'] as const;

/** Whether a database with these options has the full-text index (off unless switched on). */
export function hasFullTextIndex(options: Readonly<DatabaseOptions>): boolean {
  return options[indexOptionKey('fulltext')] === true;
}

/** How errors and INFO name each kind. */
export const INDEX_NAMES: Readonly<Record<IndexKind, string>> = { text: 'text', attribute: 'attribute', token: 'token', fulltext: 'full-text' };

export const VALUE_INDEX_KINDS: readonly ValueIndexKind[] = ['text', 'attribute', 'token'];

/** The key of a kind's option among a database's options (kept lower case). */
export function indexOptionKey(kind: IndexKind): string {
  return INDEX_KINDS[kind].option.toLowerCase();
}

/** Whether a database with these options has the value index `kind` (on unless switched off). */
export function hasValueIndex(options: Readonly<DatabaseOptions>, kind: ValueIndexKind): boolean {
  return options[indexOptionKey(kind)] !== false;
}

/** The kind whose option is `name` (canonical, upper case), if any. */
export function indexKindOfOption(name: string): IndexKind | undefined {
  return (Object.keys(INDEX_KINDS) as IndexKind[]).find((k) => INDEX_KINDS[k].option === name);
}

/** What is not supported when option `name` (canonical) is set to `value`; undefined if it may be. */
export function unsupportedIndexSetting(name: string, value: unknown): string | undefined {
  const kind = indexKindOfOption(name);
  if (kind !== undefined) return value === true ? INDEX_KINDS[kind].unsupported : undefined;
  const including = (Object.keys(INDEX_KINDS) as IndexKind[]).find((k) => INDEX_KINDS[k].include === name);
  if (including === undefined || value === undefined || value === '') return undefined;
  const holds = including === 'text' || including === 'fulltext' ? 'text node' : 'attribute';
  return INDEX_KINDS[including].unsupported ?? `${name} (the ${INDEX_NAMES[including]} index holds every ${holds})`;
}
