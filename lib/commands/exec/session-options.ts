/**
 * The options of a session (spec §2.4 names), kept in `state.options` by canonical upper-case
 * name, as SET changes them. Values not set have their default (the reference server's). A REST
 * request's options are recorded by the same rule (`optionSetting`), as the reference server
 * applies them with SET before the request's operation.
 */
import {
  databaseOptionName,
  optionKind,
  parseOptionValue,
  type OptionValue,
} from '../../store/database-options';
import { unsupportedIndexSetting } from '../../store/index-kinds';
import { requireValidSerializerOption } from '../../xquery/serialization/params';
import { execError } from './exec-errors';

/** All option names, in the order SHOW OPTIONS lists them (spec §2.4). */
export const OPTION_NAMES: readonly string[] = [
  'STRIPWS', 'STRIPNS', 'INTPARSE', 'DTD', 'DTDVALIDATION', 'XSDVALIDATION', 'XSILOCATION', 'XINCLUDE',
  'CATALOG', 'RETAINLOCATION', 'FNXMLTRUSTED', 'CREATEFILTER', 'ADDARCHIVES', 'ARCHIVENAME', 'SKIPCORRUPT',
  'ADDRAW', 'ADDCACHE', 'PARSER', 'CSVPARSER', 'JSONPARSER', 'HTMLPARSER',
  'REPLACE', 'MAINMEM', 'CREATEONLY',
  'TEXTINDEX', 'ATTRINDEX', 'TOKENINDEX', 'FTINDEX', 'TEXTINCLUDE', 'ATTRINCLUDE', 'TOKENINCLUDE', 'FTINCLUDE',
  'MAXLEN', 'MAXCATS', 'UPDINDEX', 'AUTOOPTIMIZE', 'SPLITSIZE', 'STEMMING', 'CASESENS', 'DIACRITICS',
  'LANGUAGE', 'STOPWORDS',
  'QUERYINFO', 'MIXUPDATES', 'BINDINGS', 'INLINELIMIT', 'UNROLLLIMIT', 'TAILCALLS', 'WITHDB', 'DEFAULTDB', 'FORCECREATE',
  'CHECKSTRINGS', 'LSERROR', 'RUNQUERY', 'RUNS', 'ENFORCEINDEX', 'COPYNODE', 'WRAPJAVA',
  'SERIALIZE', 'SERIALIZER', 'EXPORTER', 'XMLPLAN', 'FULLPLAN', 'OPTPLAN', 'AUTOFLUSH', 'WRITEBACK', 'MAXSTAT',
].filter((n) => databaseOptionName(n) === n);

/** Defaults that differ from the kind's (false, 0, ''). */
const DEFAULTS: ReadonlyMap<string, OptionValue> = new Map<string, OptionValue>([
  ['XSDVALIDATION', 'skip'], ['XINCLUDE', true], ['CREATEFILTER', '*.xml'], ['ADDARCHIVES', true],
  ['PARSER', 'xml'], ['REPLACE', true], ['TEXTINDEX', true], ['ATTRINDEX', true], ['TOKENINDEX', true],
  ['MAXLEN', 96], ['MAXCATS', 100], ['LANGUAGE', 'en'], ['INLINELIMIT', 50], ['UNROLLLIMIT', 5],
  ['TAILCALLS', 256], ['WITHDB', true], ['CHECKSTRINGS', true], ['RUNQUERY', true], ['RUNS', 1],
  ['COPYNODE', true], ['WRAPJAVA', 'some'], ['SERIALIZE', true], ['OPTPLAN', true], ['AUTOFLUSH', true],
  ['MAXSTAT', 30],
]);

/** The default value of a canonical option name. */
export function defaultOption(name: string): OptionValue {
  const d = DEFAULTS.get(name);
  if (d !== undefined) return d;
  const kind = optionKind(name);
  return kind === 'boolean' ? false : kind === 'number' ? 0 : '';
}

/** Options set in a session (a script's state, a REST request's options), by canonical name. */
export interface SessionOptions {
  readonly options: ReadonlyMap<string, OptionValue>;
}

/** The value in effect: set in the session, else the default. */
export function optionValue(session: SessionOptions, name: string): OptionValue {
  return session.options.get(name) ?? defaultOption(name);
}

/** Canonical name; `CHOP` is the legacy alias of `STRIPWS` (spec §2.4). Unknown: UNKNOWN_OPTION_X. */
export function canonicalOption(name: string): string {
  const c = databaseOptionName(name);
  if (c === undefined) throw execError('UNKNOWN_OPTION_X', name.toUpperCase());
  return c === 'CHOP' ? 'STRIPWS' : c;
}

/**
 * The value option `name` (canonical) is recorded with, from `text`: the one rule of SET and of
 * the options of a REST request. Without a text (SET without a value) a boolean option is toggled
 * and any other reset to its default (undefined). Text the option cannot take throws `invalid()`
 * (each caller answers in its own words); an index setting this server cannot honour
 * (store/index-kinds.ts) NOT_SUPPORTED_INDEX_X; a serializer option is checked like the
 * serialization parameters it holds.
 */
export function optionSetting(session: SessionOptions, name: string, text: string | undefined, invalid: () => Error): OptionValue | undefined {
  const value =
    text === undefined ? (optionKind(name) === 'boolean' ? optionValue(session, name) !== true : undefined) : parseOptionValue(name, text);
  if (text !== undefined && value === undefined) throw invalid();
  const unsupported = unsupportedIndexSetting(name, value);
  if (unsupported !== undefined) throw execError('NOT_SUPPORTED_INDEX_X', unsupported);
  if (text !== undefined) requireValidSerializerOption(name, text);
  return value;
}

/** Whether a session's queries may mix updates with values (MIXUPDATES), for its analysis and its run. */
export function mixesUpdates(session: SessionOptions): boolean {
  return optionValue(session, 'MIXUPDATES') === true;
}
